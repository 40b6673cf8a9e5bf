import type { PRF } from './repair-score.js'
import type { RunRecord } from './run-record.js'

/*
 * What a RunRecord can be, given how the harness makes one: the schema checks types and ranges; these check
 * that the fields agree with each other and with the data the run used. A record edited by hand or forged
 * (tp 99999, more errors than the dataset has) fails here even when each field alone is valid.
 */

/** What the checker knows of the data a record was graded on: an upper bound on the errors any grading can count. */
export interface DataBounds {
  /** `DatasetInfo.dirtyCells` (cells whose dirty and clean values differ) or, from a report, rows × columns. */
  maxErrors: number
  /** What the bound is, for the message: `cells that differ from the clean data`, `cells`. */
  what: string
}

const EPS = 1e-9
const near = (a: number, b: number) => Math.abs(a - b) <= EPS

/** The ratios `prf` derives from counts (grading/repair/prf.ts), to compare a record's against. */
function ratios(tp: number, fp: number, fn: number): { precision: number; recall: number; f1: number } {
  if (tp + fp === 0 && tp + fn === 0) return { precision: 1, recall: 1, f1: 1 }
  return {
    precision: tp + fp === 0 ? 1 : tp / (tp + fp),
    recall: tp + fn === 0 ? 1 : tp / (tp + fn),
    f1: tp === 0 ? 0 : (2 * tp) / (2 * tp + fp + fn),
  }
}

function prfProblems(where: string, p: Pick<PRF, 'tp' | 'fp' | 'fn' | 'precision' | 'recall' | 'f1'>): string[] {
  const want = ratios(p.tp, p.fp, p.fn)
  const out: string[] = []
  for (const field of ['precision', 'recall', 'f1'] as const) {
    if (!near(p[field], want[field]))
      out.push(`field "${where}${field}" is ${p[field]} but tp ${p.tp}, fp ${p.fp}, fn ${p.fn} give ${want[field]}`)
  }
  return out
}

/**
 * The ways a schema-valid record contradicts itself or its data: status against completed and the failure
 * fields, ratios against counts (overall, detection, per column, per kind), detection's error cells against
 * repair's, and — when `bounds` is given — more errors than the dataset has. Empty when the record is plausible.
 */
export function recordProblems(r: RunRecord, bounds?: DataBounds | null): string[] {
  const out: string[] = []
  if (r.completed !== (r.status === 'ok')) out.push(`field "completed" is ${r.completed} but status is "${r.status}"`)
  if (r.status === 'ok' && r.failureKind !== null)
    out.push(`field "failureKind" is "${r.failureKind}" on a run with status "ok"`)
  if (r.status !== 'ok' && r.correct !== null)
    out.push(`field "correct" is ${r.correct} on a run with status "${r.status}" (no judgment)`)
  const counts = [r.tp, r.fp, r.fn]
  if (counts.some((c) => c !== null) && counts.some((c) => c === null))
    out.push('fields "tp", "fp", "fn": some are null, some not')
  if (r.tp !== null && r.fp !== null && r.fn !== null) {
    if (r.precision === null || r.recall === null || r.f1 === null)
      out.push('fields "precision", "recall", "f1": null beside counts')
    else
      out.push(...prfProblems('', { tp: r.tp, fp: r.fp, fn: r.fn, precision: r.precision, recall: r.recall, f1: r.f1 }))
    if (r.detection) {
      out.push(...prfProblems('detection.', r.detection))
      if (r.detection.tp + r.detection.fn !== r.tp + r.fn) {
        out.push(`field "detection": ${r.detection.tp + r.detection.fn} error cells, but tp + fn = ${r.tp + r.fn}`)
      }
    }
    if (bounds && r.tp + r.fn > bounds.maxErrors) {
      out.push(`fields "tp" + "fn" = ${r.tp + r.fn} errors, but the dataset has ${bounds.maxErrors} ${bounds.what}`)
    }
  }
  for (const [column, p] of Object.entries(r.perColumn ?? {})) out.push(...prfProblems(`perColumn.${column}.`, p))
  for (const [kind, k] of Object.entries(r.perKind ?? {})) {
    if (k.tp > k.total) out.push(`field "perKind.${kind}": tp ${k.tp} exceeds total ${k.total}`)
    else if (!near(k.recall, k.total === 0 ? 1 : k.tp / k.total))
      out.push(`field "perKind.${kind}.recall" is ${k.recall} but tp ${k.tp} of ${k.total}`)
  }
  return out
}
