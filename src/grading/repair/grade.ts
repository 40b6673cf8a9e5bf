import { InputError } from '../../core/errors.js'
import { type Correction, type GroundTruth, groundTruthOf } from '../../core/ground-truth.js'
import type { CellIssue, PRF, RepairScore } from '../../core/repair-score.js'
import type { AgentTask, Fix, Table } from '../../core/schemas.js'
import { type Comparator, exactComparator } from './comparators.js'
import { checkFixItem, fixItemsOf } from './fix-items.js'
import { prf } from './prf.js'
import { dataRecord } from '../../core/data-record.js'

export interface GradeRepairOptions {
  /** How cell values are compared; default `exactComparator` (trailing whitespace ignored). */
  comparator?: Comparator
}

/** Grades an agent's output against the task's ground truth (see `gradeAgainstTruth` for the rules). */
export function gradeRepair(task: AgentTask, output: unknown, opts: GradeRepairOptions = {}): RepairScore {
  return gradeAgainstTruth(groundTruthOf(task), task.dirty, output, opts)
}

/**
 * The pure repair grader. Cells are addressed by `(row, column)` with `row` the 0-based data row of `dirty` and
 * `column` one of `dirty.columns`; cells are keyed internally by the integer `row * nColumns + columnIndex`.
 *
 * - An error cell is one with a ground-truth correction whose dirty and clean values differ under the comparator
 *   (corrections that the comparator deems equal are dropped, with a warning).
 * - Fixes are validated one by one: malformed items and fixes aimed at cells that do not exist are false
 *   positives, listed, never a crash. A column matching a canonical one only case-insensitively is still a
 *   wrong cell (grading is exact) and is also listed in `caseInsensitiveColumn`.
 * - Several fixes for one cell: the last one wins; the overwritten ones count in `duplicateCells` only.
 * - Per effective fix: right value on an error cell → TP; wrong value on an error cell (including leaving the
 *   dirty value) → one FP and one FN; a value equal to the current one on a clean cell → a no-op, not scored;
 *   any other change to a clean cell → an over-repair (FP). Error cells left alone are missed repairs (FN).
 * - `detection` scores the set of cells touched, whatever the value: TP = touched error cells, FP = over-repairs,
 *   wrong cells and malformed items, FN = missed repairs.
 * - `perColumn` has one entry per canonical column (P/R/F1 by the empty-case rules of `prf`); wrong cells and
 *   malformed items belong to no column, so the columns' FPs may sum to less than the total.
 * - `fixes` lists the effective fixes (no no-ops, no `reason`) sorted by row, then column position.
 * - Diagnostic lists are complete, not capped: building them is linear in fixes plus errors (a 100,000-entry
 *   list costs milliseconds), and a capped list would make the counts and the lists disagree. Cell lists are
 *   sorted by row then column position; `wrongCell`, `caseInsensitiveColumn` and `malformed` keep input order.
 */
export function gradeAgainstTruth(
  truth: GroundTruth,
  dirty: Table,
  output: unknown,
  opts: GradeRepairOptions = {},
): RepairScore {
  const comparator = opts.comparator ?? exactComparator
  const norm = comparator.normalize
  const items = fixItemsOf(output)
  const columns = dirty.columns
  const nCols = columns.length
  const nRows = dirty.rows.length
  const { columnIndex, errors, errorKeys, equivalent } = truthIndexOf(truth, columns, nRows, comparator)
  const warnings: string[] = []
  if (equivalent > 0) {
    warnings.push(
      `${equivalent} ground-truth correction(s) are equal to their dirty value under the "${comparator.name}" comparator and do not count as errors`,
    )
  }

  // Validation and last-write-wins.
  const malformed: string[] = []
  const wrongCell: CellIssue[] = []
  const caseInsensitiveColumn: CellIssue[] = []
  const caseMisses = new Map<string, { canonical: string; count: number }>()
  let lowerCaseIndex: Map<string, string> | undefined
  const effective = new Map<number, string>()
  let duplicateCells = 0
  for (let i = 0; i < items.length; i++) {
    const fix = checkFixItem(items[i], i)
    if (typeof fix === 'string') {
      malformed.push(fix)
      continue
    }
    const j = columnIndex.get(fix.column)
    if (j === undefined || fix.row < 0 || fix.row >= nRows) {
      wrongCell.push({ row: fix.row, column: fix.column, got: fix.newValue })
      if (j === undefined) {
        lowerCaseIndex ??= new Map(columns.map((name) => [name.toLowerCase(), name]))
        const canonical = lowerCaseIndex.get(fix.column.toLowerCase())
        if (canonical !== undefined) {
          caseInsensitiveColumn.push({ row: fix.row, column: fix.column, got: fix.newValue })
          const seen = caseMisses.get(fix.column)
          if (seen) seen.count++
          else caseMisses.set(fix.column, { canonical, count: 1 })
        }
      }
      continue
    }
    const key = fix.row * nCols + j
    if (effective.has(key)) duplicateCells++
    effective.set(key, fix.newValue)
  }

  // Scoring of the effective fixes, in cell order.
  const tpCol = new Array<number>(nCols).fill(0)
  const fpCol = new Array<number>(nCols).fill(0)
  const fnCol = new Array<number>(nCols).fill(0)
  const kindCounts = new Map<string, { total: number; tp: number }>()
  const wrongValue: CellIssue[] = []
  const overRepair: CellIssue[] = []
  const fixes: Fix[] = []
  let tp = 0
  let noopFixes = 0
  for (const key of sortedKeys(effective.keys(), effective.size)) {
    const got = effective.get(key)!
    const row = Math.floor(key / nCols)
    const j = key - row * nCols
    const column = columns[j]!
    const error = errors.get(key)
    const dirtyValue = dirty.rows[row]?.[j] ?? ''
    if (error === undefined) {
      if (norm(got) === norm(dirtyValue)) {
        noopFixes++
        continue
      }
      fpCol[j]!++
      overRepair.push({ row, column, got, dirty: dirtyValue })
    } else if (norm(got) === error.cleanNorm) {
      tp++
      tpCol[j]!++
    } else {
      fpCol[j]!++
      fnCol[j]!++
      wrongValue.push({ row, column, got, want: error.correction.clean, dirty: dirtyValue })
    }
    fixes.push({ row, column, newValue: got })
  }

  const missedRepair: CellIssue[] = []
  for (const key of errorKeys) {
    const { correction, cleanNorm } = errors.get(key)!
    const got = effective.get(key)
    if (correction.kind !== undefined) {
      const counts = kindCounts.get(correction.kind) ?? { total: 0, tp: 0 }
      counts.total++
      if (got !== undefined && norm(got) === cleanNorm) counts.tp++
      kindCounts.set(correction.kind, counts)
    }
    if (got !== undefined) continue
    fnCol[key % nCols]!++
    missedRepair.push({
      row: correction.row,
      column: correction.column,
      want: correction.clean,
      dirty: correction.dirty,
    })
  }

  const fp = wrongValue.length + overRepair.length + wrongCell.length + malformed.length
  const fn = wrongValue.length + missedRepair.length
  const touchedErrors = tp + wrongValue.length
  const detection = prf(touchedErrors, overRepair.length + wrongCell.length + malformed.length, missedRepair.length)

  const perColumn = dataRecord<PRF>()
  columns.forEach((name, j) => {
    perColumn[name] = prf(tpCol[j]!, fpCol[j]!, fnCol[j]!)
  })
  const perKind: RepairScore['perKind'] = dataRecord()
  for (const kind of kindCounts.size ? [...kindCounts.keys()].sort() : []) {
    const { total, tp: kindTp } = kindCounts.get(kind)!
    perKind[kind] = { total, tp: kindTp, recall: total === 0 ? 1 : kindTp / total }
  }

  if (malformed.length > 0) {
    warnings.push(`${malformed.length} malformed fix item(s) counted as false positives; first: ${malformed[0]}`)
  }
  if (wrongCell.length > 0) {
    warnings.push(
      `${wrongCell.length} fix(es) aimed at cells that do not exist (unknown column or row out of range) counted as false positives`,
    )
  }
  for (const [given, { canonical, count }] of caseMisses) {
    warnings.push(
      `column "${given}" matches "${canonical}" only case-insensitively: ${count} fix(es) counted as false positives (grading is exact)`,
    )
  }
  if (duplicateCells > 0) {
    warnings.push(`${duplicateCells} fix(es) overwritten by a later fix for the same cell (last write wins)`)
  }

  // One literal, no spread: built once per graded output, and cheap even before the code is optimized.
  const overall = prf(tp, fp, fn)
  return {
    tp: overall.tp,
    fp: overall.fp,
    fn: overall.fn,
    precision: overall.precision,
    recall: overall.recall,
    f1: overall.f1,
    detection,
    diagnostics: {
      wrongCell,
      wrongValue,
      overRepair,
      missedRepair,
      caseInsensitiveColumn,
      duplicateCells,
      noopFixes,
      malformed,
    },
    perColumn,
    perKind,
    fixes,
    warnings,
    comparator: comparator.name,
  }
}

interface ErrorCell {
  correction: Correction
  cleanNorm: string
}

/** The truth as the grader reads it: columns by name, error cells by key, and the corrections that are no error. */
interface TruthIndex {
  columns: readonly string[]
  nRows: number
  comparator: Comparator
  columnIndex: ReadonlyMap<string, number>
  errors: ReadonlyMap<number, ErrorCell>
  /** The error cells' keys in ascending order (row, then column position). */
  errorKeys: ArrayLike<number> & Iterable<number>
  equivalent: number
}

/**
 * Indexes kept per frozen corrections list (tasks freeze theirs): every trial and case of a dataset grades
 * against one truth, and indexing it again for each graded output cost more than grading a short answer.
 */
const truthIndexes = new WeakMap<readonly Correction[], TruthIndex>()

function truthIndexOf(
  truth: GroundTruth,
  columns: readonly string[],
  nRows: number,
  comparator: Comparator,
): TruthIndex {
  const cached = truthIndexes.get(truth.corrections)
  if (cached && cached.columns === columns && cached.nRows === nRows && cached.comparator === comparator) return cached
  const columnIndex = new Map<string, number>()
  columns.forEach((name, j) => {
    if (!columnIndex.has(name)) columnIndex.set(name, j)
  })
  const { errors, equivalent } = indexTruth(truth.corrections, columnIndex, nRows, columns.length, comparator.normalize)
  const index = {
    columns,
    nRows,
    comparator,
    columnIndex,
    errors,
    errorKeys: sortedKeys(errors.keys(), errors.size),
    equivalent,
  }
  // A list that can still change (a GroundTruth built by hand) is indexed afresh each time.
  if (Object.isFrozen(truth.corrections) && Object.isFrozen(columns)) truthIndexes.set(truth.corrections, index)
  return index
}

function indexTruth(
  corrections: readonly Correction[],
  columnIndex: ReadonlyMap<string, number>,
  nRows: number,
  nCols: number,
  norm: (value: string) => string,
): { errors: Map<number, ErrorCell>; equivalent: number } {
  const errors = new Map<number, ErrorCell>()
  let equivalent = 0
  for (const correction of corrections) {
    const j = columnIndex.get(correction.column)
    if (j === undefined) {
      throw new InputError(`ground truth names column "${correction.column}", which is not a column of the dirty table`)
    }
    if (!Number.isSafeInteger(correction.row) || correction.row < 0 || correction.row >= nRows) {
      throw new InputError(
        `ground truth names row ${correction.row} (column "${correction.column}"), outside the dirty table's ${nRows} rows`,
      )
    }
    const cleanNorm = norm(correction.clean)
    if (norm(correction.dirty) === cleanNorm) {
      equivalent++
      continue
    }
    errors.set(correction.row * nCols + j, { correction, cleanNorm })
  }
  return { errors, equivalent }
}

/** Cell keys in ascending order (row, then column position); a typed-array sort is numeric and fast. */
function sortedKeys(keys: Iterable<number>, size: number): ArrayLike<number> & Iterable<number> {
  // One key (a one-fix answer, a one-error table) needs no typed array: making one costs more than grading it.
  if (size < 2) return [...keys]
  const out = new Float64Array(size)
  let i = 0
  for (const key of keys) out[i++] = key
  return out.sort()
}
