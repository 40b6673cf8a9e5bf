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

/**
 * Compares a dirty/clean pair by position: shape checks, id columns, ground truth and the report info.
 * Column names come from the clean file; ground truth is every differing non-id cell.
 */
export function analysePair(input: PairInput): { info: DatasetInfo; corrections: Correction[]; idColumns: string[] } {
  const { dirty, clean } = input
  if (dirty.table.rows.length !== clean.table.rows.length || dirty.table.columns.length !== clean.table.columns.length) {
    throw new InputError(
      `${dirty.label} is ${shape(dirty.table)} but ${clean.label} is ${shape(clean.table)}: a dirty/clean pair must have the same shape`,
    )
  }
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
  return { info, corrections, idColumns }
}

/** Builds a repair task from a dirty/clean pair; the task's dirty table is relabelled with the clean names. */
export function buildPairTask(input: PairInput): { task: AgentTask; info: DatasetInfo; corrections: Correction[] } {
  const { info, corrections, idColumns } = analysePair(input)
  const task = createTask(
    {
      name: input.id,
      dirty: { columns: [...info.columnNames], rows: input.dirty.table.rows },
      metadata: { dataset: input.id, origin: input.origin, idColumns },
      seed: input.seed,
    },
    { corrections, dataset: info },
  )
  return { task, info, corrections }
}
