import type { Answer, GradeResult } from '../../core/answer.js'
import { InputError } from '../../core/errors.js'
import type { Table } from '../../core/schemas.js'
import { oneLine } from '../../core/text.js'
import { groupBy } from '../../core/group-by.js'
import { kindOf, show } from './describe.js'
import { DEFAULT_TOLERANCE, withinTolerance } from './tolerance.js'
import type { SyncGrader } from './grader-types.js'

export interface TableEqualsOptions {
  /** Compare rows as a multiset instead of in order. */
  ignoreRowOrder?: boolean
  /** Match columns by name instead of by position (the names must still be the same set). */
  ignoreColumnOrder?: boolean
  /** Absolute tolerance for cells that are plain numbers on both sides. Default 1e-9 (float noise). */
  tol?: number
}

/** A table whose cells may still be numbers, booleans or null (records converted from JSON). */
interface Grid {
  columns: string[]
  rows: unknown[][]
  /** False for an empty record list, which has no columns to compare. */
  columnsKnown: boolean
}

// A plain decimal number: no grouping, no currency, no leading zeros ("007" and "02134" stay strings).
const PLAIN_NUMBER = /^[-+]?(?:(?:0|[1-9]\d*)(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d+)?$/
const RELATIVE_NOISE = 1e-9

/**
 * Passes when `answer.value` is the same table as `expected`. Either side may be a Table
 * (`{ columns, rows }`) or an array of records (columns in order of first appearance; a missing key is an
 * empty cell). Column names must match exactly (case included). Cells that are plain numbers on both sides
 * ("5", 5, "5.0", "1e3") are equal within max(tol, 1e-9·|expected|); all other cells compare as exact
 * strings after String() (objects as JSON), with null, undefined and "" all meaning an empty cell.
 */
export function tableEquals(expected: Table | Record<string, unknown>[], opts: TableEqualsOptions = {}): SyncGrader {
  const want = toGrid(expected)
  if ('error' in want) throw new InputError(`tableEquals(): expected ${want.error}`)
  const tol = opts.tol ?? DEFAULT_TOLERANCE
  if (typeof tol !== 'number' || !Number.isFinite(tol) || tol < 0) {
    throw new InputError(`tableEquals(): option tol must be a finite number ≥ 0, got ${show(tol)}`)
  }
  if (opts.ignoreColumnOrder) {
    const dup = duplicate(want.columns)
    if (dup !== undefined) {
      throw new InputError(
        `tableEquals(): expected table has duplicate column ${show(dup)}, so columns cannot be matched by name`,
      )
    }
  }
  const rowOrder = opts.ignoreRowOrder ? ', row order ignored' : ''
  const colOrder = opts.ignoreColumnOrder ? ', column order ignored' : ''
  const shape = `${want.rows.length} rows × ${want.columns.length} columns${rowOrder}${colOrder}`

  return (answer: Answer): GradeResult => {
    if (answer.value === undefined || answer.value === null) {
      return { passed: false, detail: `expected a table of ${shape}, but the answer has no value` }
    }
    const got = toGrid(answer.value)
    if ('error' in got)
      return { passed: false, detail: `expected a table of ${shape}, but the answer value ${got.error}` }
    const mapping = mapColumns(want, got, Boolean(opts.ignoreColumnOrder))
    if ('error' in mapping) return { passed: false, detail: mapping.error }
    const project = (row: unknown[]) => mapping.indices.map((j) => row[j])
    const rows = got.rows.map(project)
    const problem = opts.ignoreRowOrder ? compareUnordered(want, rows, tol) : compareOrdered(want, rows, tol)
    return problem ? { passed: false, detail: problem } : { passed: true, detail: `table matches: ${shape}` }
  }
}

function toGrid(value: unknown): Grid | { error: string } {
  if (Array.isArray(value)) return recordsToGrid(value)
  if (kindOf(value) !== 'table')
    return { error: `is a ${kindOf(value)} (${show(value, 40)}), not a table or a list of records` }
  const { columns, rows } = value as { columns: unknown; rows: unknown }
  if (!Array.isArray(columns) || !Array.isArray(rows))
    return { error: 'is a malformed table (columns and rows must be arrays)' }
  const badColumn = columns.findIndex((c) => typeof c !== 'string')
  if (badColumn >= 0) return { error: `has a column name that is not a string at columns[${badColumn}]` }
  for (let r = 0; r < rows.length; r++) {
    const row: unknown = rows[r]
    if (!Array.isArray(row)) return { error: `has row ${r} that is not an array` }
    if (row.length !== columns.length)
      return { error: `has row ${r} with ${row.length} cells for ${columns.length} columns` }
  }
  return { columns: columns as string[], rows: rows as unknown[][], columnsKnown: true }
}

function recordsToGrid(records: unknown[]): Grid | { error: string } {
  const columns: string[] = []
  const seen = new Set<string>()
  for (let r = 0; r < records.length; r++) {
    const record = records[r]
    if (record === null || typeof record !== 'object' || Array.isArray(record)) {
      return { error: `[${r}] is a ${kindOf(record)}, not a record (a list value must hold records)` }
    }
    for (const key of Object.keys(record)) {
      if (!seen.has(key)) {
        seen.add(key)
        columns.push(key)
      }
    }
  }
  const rows = records.map((record) => columns.map((c) => (record as Record<string, unknown>)[c]))
  return { columns, rows, columnsKnown: records.length > 0 }
}

function duplicate(columns: readonly string[]): string | undefined {
  const seen = new Set<string>()
  for (const c of columns) {
    if (seen.has(c)) return c
    seen.add(c)
  }
  return undefined
}

/** For each expected column, the index of the answer column that holds it. */
function mapColumns(want: Grid, got: Grid, byName: boolean): { indices: number[] } | { error: string } {
  if (!want.columnsKnown || !got.columnsKnown) {
    // An empty record list has no columns: only the row count can be compared.
    if (want.rows.length === 0 && got.rows.length === 0) return { indices: [] }
    return { error: `expected ${want.rows.length} rows, found ${got.rows.length}` }
  }
  const missing = multisetMinus(want.columns, got.columns)
  const extra = multisetMinus(got.columns, want.columns)
  if (missing.length || extra.length) {
    const parts = [
      missing.length ? `missing column${missing.length > 1 ? 's' : ''} ${list(missing)}` : '',
      extra.length ? `extra column${extra.length > 1 ? 's' : ''} ${list(extra)}` : '',
    ].filter(Boolean)
    return { error: `${parts.join('; ')} (expected ${list(want.columns)}, found ${list(got.columns)})` }
  }
  if (byName) {
    const dup = duplicate(got.columns)
    if (dup !== undefined) return { error: `answer table has duplicate column ${show(dup)}` }
    return { indices: want.columns.map((c) => got.columns.indexOf(c)) }
  }
  const firstOff = want.columns.findIndex((c, i) => got.columns[i] !== c)
  if (firstOff >= 0) {
    return {
      error: `columns in a different order: expected ${list(want.columns)}, found ${list(got.columns)} (first difference at position ${firstOff})`,
    }
  }
  return { indices: want.columns.map((_, i) => i) }
}

function multisetMinus(a: readonly string[], b: readonly string[]): string[] {
  const counts = new Map<string, number>()
  for (const x of b) counts.set(x, (counts.get(x) ?? 0) + 1)
  const out: string[] = []
  for (const x of a) {
    const n = counts.get(x) ?? 0
    if (n > 0) counts.set(x, n - 1)
    else out.push(x)
  }
  return out
}

function list(items: readonly string[]): string {
  return oneLine(`[${items.map((c) => JSON.stringify(c)).join(', ')}]`, 120)
}

function cellText(cell: unknown): string {
  if (cell === null || cell === undefined) return ''
  if (typeof cell === 'string') return cell
  if (typeof cell === 'number' || typeof cell === 'boolean' || typeof cell === 'bigint') return String(cell)
  return JSON.stringify(cell) ?? String(cell)
}

function plainNumber(cell: unknown): number | null {
  if (typeof cell === 'number') return Number.isFinite(cell) ? cell : null
  if (typeof cell === 'string' && PLAIN_NUMBER.test(cell)) return Number(cell)
  return null
}

/** A cell read once: its number when it is a plain number, else its text. */
interface Cell {
  num: number | null
  text: string
}

function readCell(cell: unknown): Cell {
  const num = plainNumber(cell)
  return { num, text: num === null ? cellText(cell) : '' }
}

function cellsEqual(want: Cell, got: Cell, tol: number): boolean {
  if (want.num !== null && got.num !== null) return withinTolerance(got.num, want.num, tol, RELATIVE_NOISE)
  return want.num === null && got.num === null && want.text === got.text
}

function rowsEqual(want: readonly Cell[], got: readonly Cell[], tol: number): boolean {
  return want.every((cell, c) => cellsEqual(cell, got[c]!, tol))
}

function showRow(row: readonly unknown[]): string {
  return oneLine(`[${row.map((c) => JSON.stringify(cellText(c))).join(', ')}]`, 100)
}

function compareOrdered(want: Grid, rows: unknown[][], tol: number): string | null {
  const problems: string[] = []
  const common = Math.min(want.rows.length, rows.length)
  let mismatched = 0
  let first = ''
  for (let r = 0; r < common; r++) {
    const wantRow = want.rows[r]!
    const gotRow = rows[r]!
    const c = wantRow.findIndex((cell, i) => !cellsEqual(readCell(cell), readCell(gotRow[i]), tol))
    if (c < 0) continue
    mismatched++
    if (!first) {
      first = `first mismatch at row ${r}, column ${show(want.columns[c])}: expected ${show(cellText(wantRow[c]))}, found ${show(cellText(gotRow[c]))}`
    }
  }
  if (want.rows.length !== rows.length) problems.push(`expected ${want.rows.length} rows, found ${rows.length}`)
  if (mismatched) problems.push(`${mismatched} of ${common} rows differ; ${first}`)
  return problems.length ? problems.join('; ') : null
}

/** Multiset comparison; rows are bucketed by their non-numeric cells so large tables stay near-linear. */
function compareUnordered(want: Grid, rows: unknown[][], tol: number): string | null {
  // Numbers may differ within tolerance, so only the non-numeric cells can key a bucket.
  const keyOf = (row: readonly Cell[]) => JSON.stringify(row.map((cell) => (cell.num === null ? cell.text : 0)))
  const gotCells = rows.map((row) => row.map(readCell))
  const buckets = groupBy(gotCells.keys(), (i) => keyOf(gotCells[i]!))
  const used = new Uint8Array(rows.length)
  const unmatchedWant: number[] = []
  want.rows.forEach((raw, r) => {
    const row = raw.map(readCell)
    const bucket = buckets.get(keyOf(row)) ?? []
    const i = bucket.find((j) => !used[j] && rowsEqual(row, gotCells[j]!, tol))
    if (i === undefined) unmatchedWant.push(r)
    else used[i] = 1
  })
  const unmatchedGot = rows.map((_, i) => i).filter((i) => !used[i])
  if (unmatchedWant.length === 0 && unmatchedGot.length === 0) return null
  const problems: string[] = []
  if (want.rows.length !== rows.length) problems.push(`expected ${want.rows.length} rows, found ${rows.length}`)
  if (unmatchedWant.length) {
    const r = unmatchedWant[0]!
    problems.push(`${unmatchedWant.length} expected row(s) not found, first: row ${r} ${showRow(want.rows[r]!)}`)
  }
  if (unmatchedGot.length) {
    const i = unmatchedGot[0]!
    problems.push(`${unmatchedGot.length} answer row(s) unmatched, first: row ${i} ${showRow(rows[i]!)}`)
  }
  return problems.join('; ')
}
