import type { DatasetInfo, FileDigest } from '../core/dataset-info.js'
import { InputError } from '../core/errors.js'
import { type Correction, createTask, diffTables } from '../core/ground-truth.js'
import type { AgentTask, Table } from '../core/schemas.js'

/** Column names that mark a row-identifier column (Raha's `index`, `tuple_id`). */
const ID_NAMES = new Set(['index', 'tuple_id'])
/** `id` only counts as a row identifier in first position (rayyan); elsewhere it is data (beers' beer id). */
const FIRST_COLUMN_ID_NAMES = new Set(['index', 'tuple_id', 'id'])

/**
 * Id columns: by name (`index`, `tuple_id` anywhere, `id` as first column), and only where dirty and clean
 * agree on every row, so a column that does hold errors is never hidden from the ground truth.
 */
export function detectIdColumns(dirty: Table, clean: Table): string[] {
  const out: string[] = []
  clean.columns.forEach((name, j) => {
    const lower = name.toLowerCase()
    const named = ID_NAMES.has(lower) || (j === 0 && FIRST_COLUMN_ID_NAMES.has(lower))
    if (named && clean.rows.every((row, r) => row[j] === dirty.rows[r]?.[j])) out.push(name)
  })
  return out
}

function shape(table: Table): string {
  return `${table.rows.length} rows × ${table.columns.length} columns`
}

export interface PairInput {
  id: string
  origin: 'csv-pair' | 'raha'
  source: string
  seed: number
  dirty: { table: Table; digest: FileDigest; label: string }
  clean: { table: Table; digest: FileDigest; label: string }
}

/** A column name as matched across the pair: case, spaces and punctuation aside (`beer-name` is `beer_name`). */
function matchName(name: string): string {
  return name.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '')
}

function quoted(names: readonly string[]): string {
  return `[${names.map((n) => JSON.stringify(n)).join(', ')}]`
}

/**
 * The dirty table with its columns in the clean file's order. Headers that match position by position (case
 * and punctuation aside, as Raha's files differ) keep their order; the same names in another order are aligned by
 * name; a name both files have at different positions, when the names differ otherwise, is an InputError naming
 * the two orders (aligning such a pair by position would grade every cell of the moved columns as an error).
 * Headers that differ only by renamed columns at the same positions (Raha's hospital) keep their order.
 */
function alignColumns(dirty: { table: Table; label: string }, clean: { table: Table; label: string }): Table {
  const d = dirty.table.columns.map(matchName)
  const c = clean.table.columns.map(matchName)
  if (d.every((name, j) => name === c[j])) return dirty.table
  const unique = (names: string[]) => new Set(names).size === names.length
  const dirtyAt = new Map(d.map((name, j) => [name, j]))
  if (unique(d) && unique(c) && c.every((name) => dirtyAt.has(name))) {
    const order = c.map((name) => dirtyAt.get(name)!)
    return {
      columns: order.map((j) => dirty.table.columns[j]!),
      rows: dirty.table.rows.map((row) => order.map((j) => row[j]!)),
    }
  }
  const moved = c.findIndex((name, j) => d.includes(name) && d[j] !== name)
  if (moved >= 0) {
    const name = clean.table.columns[moved]!
    const at = d.indexOf(c[moved]!)
    throw new InputError(
      `${dirty.label} and ${clean.label} have their columns in different orders and not the same names, so they cannot be aligned: ` +
        `column ${JSON.stringify(name)} is column ${at + 1} in ${dirty.label} but column ${moved + 1} in ${clean.label} ` +
        `(${dirty.label}: ${quoted(dirty.table.columns)}; ${clean.label}: ${quoted(clean.table.columns)}); give both files the same column names, in any order`,
    )
  }
  return dirty.table
}

/**
 * Compares a dirty/clean pair: shape checks, column alignment (`alignColumns`), id columns, ground truth and the
 * report info. Column names come from the clean file; ground truth is every differing non-id cell.
 */
export function analysePair(input: PairInput): {
  info: DatasetInfo
  corrections: Correction[]
  idColumns: string[]
  dirtyTable: Table
} {
  const { clean } = input
  if (
    input.dirty.table.rows.length !== clean.table.rows.length ||
    input.dirty.table.columns.length !== clean.table.columns.length
  ) {
    throw new InputError(
      `${input.dirty.label} is ${shape(input.dirty.table)} but ${clean.label} is ${shape(clean.table)}: a dirty/clean pair must have the same shape`,
    )
  }
  const dirty = { ...input.dirty, table: alignColumns(input.dirty, clean) }
  if (clean.table.rows.length === 0) {
    throw new InputError(`${dirty.label} and ${clean.label} have a header but no data rows: nothing to repair`)
  }
  const idColumns = detectIdColumns(dirty.table, clean.table)
  const corrections = diffTables(dirty.table, clean.table, new Set(idColumns))
  const columns = [...clean.table.columns]
  const info: DatasetInfo = {
    id: input.id,
    origin: input.origin,
    source: input.source,
    rows: clean.table.rows.length,
    columns: columns.length,
    columnNames: columns,
    dirtyCells: corrections.length,
    idColumns,
    dirty: dirty.digest,
    clean: clean.digest,
  }
  return { info, corrections, idColumns, dirtyTable: dirty.table }
}

/** Builds a repair task from a dirty/clean pair; the task's dirty table is relabelled with the clean names. */
export function buildPairTask(input: PairInput): { task: AgentTask; info: DatasetInfo; corrections: Correction[] } {
  const { info, corrections, idColumns, dirtyTable } = analysePair(input)
  const task = createTask(
    {
      name: input.id,
      dirty: { columns: [...info.columnNames], rows: dirtyTable.rows },
      metadata: { dataset: input.id, origin: input.origin, idColumns },
      seed: input.seed,
    },
    { corrections, dataset: info },
  )
  return { task, info, corrections }
}
