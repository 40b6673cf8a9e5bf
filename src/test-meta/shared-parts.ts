import { dataRecord } from '../core/data-record.js'
import type { PRF, RepairDiagnostics, RepairScore } from '../core/repair-score.js'

/*
 * Parts of a repair verdict that many tests have alike, as one frozen object each. Metas cross to Vitest's main
 * process in batches, serialized with V8's structured clone, which writes an object met again in the same batch
 * as a back-reference (as `datasetDigests` does for a dataset's digests): a thousand clean diagnostics, perfect
 * columns and empty warning lists are sent once per batch, not once per test, and built once in each process.
 * Nothing downstream changes a record's parts; frozen, the worker could not either.
 */

const NO_ISSUES: RepairDiagnostics = Object.freeze({
  wrongCell: Object.freeze([]) as unknown as RepairDiagnostics['wrongCell'],
  wrongValue: Object.freeze([]) as unknown as RepairDiagnostics['wrongValue'],
  overRepair: Object.freeze([]) as unknown as RepairDiagnostics['overRepair'],
  missedRepair: Object.freeze([]) as unknown as RepairDiagnostics['missedRepair'],
  caseInsensitiveColumn: Object.freeze([]) as unknown as RepairDiagnostics['caseInsensitiveColumn'],
  duplicateCells: 0,
  noopFixes: 0,
  malformed: Object.freeze([]) as unknown as RepairDiagnostics['malformed'],
})
const NO_WARNINGS = Object.freeze([]) as unknown as string[]
const NO_KINDS: RepairScore['perKind'] = Object.freeze(dataRecord<RepairScore['perKind'][string]>())

/** Shared P/R/F1 objects by their counts; a long run of distinct counts stops adding at this many. */
const MAX_SHARED_PRF = 1_000
const prfs = new Map<string, PRF>()

function sharedPrf(p: PRF): PRF {
  const key = `${p.tp}/${p.fp}/${p.fn}`
  const known = prfs.get(key)
  if (known) return known
  if (prfs.size >= MAX_SHARED_PRF) return p
  const frozen = Object.freeze({ ...p })
  prfs.set(key, frozen)
  return frozen
}

function isClean(d: RepairDiagnostics): boolean {
  return (
    d.wrongCell.length === 0 &&
    d.wrongValue.length === 0 &&
    d.overRepair.length === 0 &&
    d.missedRepair.length === 0 &&
    d.caseInsensitiveColumn.length === 0 &&
    d.duplicateCells === 0 &&
    d.noopFixes === 0 &&
    d.malformed.length === 0 &&
    Object.keys(d).length === Object.keys(NO_ISSUES).length
  )
}

/**
 * The score as stored on a test: the same values, its common parts shared, and `diagnostics` in place of the
 * score's own (the matcher's copy without clean values). One literal, no spread: one is made for every verdict.
 */
export function withSharedParts(score: RepairScore, diagnostics: RepairDiagnostics = score.diagnostics): RepairScore {
  const perColumn = dataRecord<PRF>()
  for (const column in score.perColumn) perColumn[column] = sharedPrf(score.perColumn[column]!)
  return {
    tp: score.tp,
    fp: score.fp,
    fn: score.fn,
    precision: score.precision,
    recall: score.recall,
    f1: score.f1,
    detection: sharedPrf(score.detection),
    diagnostics: isClean(diagnostics) ? NO_ISSUES : diagnostics,
    perColumn,
    perKind: Object.keys(score.perKind).length === 0 ? NO_KINDS : score.perKind,
    fixes: score.fixes,
    warnings: score.warnings.length === 0 ? NO_WARNINGS : score.warnings,
    comparator: score.comparator,
  }
}
