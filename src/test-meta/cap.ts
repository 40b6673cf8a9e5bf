import { capRepairScore, ValueCuts } from '../core/value-cap.js'
import type { DataforgeMeta, MatcherRecord } from './build.js'

/*
 * The size policy (core/value-cap.ts) on the test side. A test's meta crosses from the test worker to the
 * reporter's process (Vitest serializes task meta, Jest writes a side file), so an agent's long values are cut
 * when they are stored on it, not when the reporter builds the record: two 20 M-character fixes never cross.
 * The notes go where the record takes its warnings from: a repair score's own `warnings`, the meta's otherwise.
 */

function noteOn(meta: DataforgeMeta | undefined, cuts: ValueCuts): void {
  if (meta && cuts.notes.length) meta.warnings = [...(meta.warnings ?? []), ...cuts.notes]
}

/** `text` as the meta keeps it; a cut is noted on the meta under `field`. */
function cappedText(meta: DataforgeMeta, text: string, field: string): string {
  const cuts = new ValueCuts()
  const kept = cuts.text(text, field)
  noteOn(meta, cuts)
  return kept
}

/** A run failure as the meta keeps it: its message cut to the policy's size. */
export function failureOf(meta: DataforgeMeta, kind: string, message: string): { kind: string; message: string } {
  return { kind, message: cappedText(meta, message, 'failureMessage') }
}

/**
 * A matcher's verdict as the test stores it: its repair score cut (notes in the score's warnings), a long
 * summary or failure message cut and noted on the meta. `meta` is asked for only when something is cut.
 */
export function capVerdict(record: MatcherRecord, meta: () => DataforgeMeta | undefined): MatcherRecord {
  const repair = record.repair ? capRepairScore(record.repair) : undefined
  const cuts = new ValueCuts()
  const summary = cuts.text(record.summary, 'summary')
  const failure = record.failure
    ? { kind: record.failure.kind, message: cuts.text(record.failure.message, 'failureMessage') }
    : undefined
  if (repair === record.repair && !cuts.notes.length) return record
  noteOn(cuts.notes.length ? meta() : undefined, cuts)
  return { ...record, summary, ...(repair ? { repair } : {}), ...(failure ? { failure } : {}) }
}
