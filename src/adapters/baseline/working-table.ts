import type { Table } from '../../core/schemas.js'
import { type ColumnCodes, encodeColumn } from './column-codes.js'

/** A column-major working copy of the dirty table that the repair phases read and update in turn. */
export interface WorkingTable {
  columns: readonly string[]
  nRows: number
  /** `cells[column][row]`. */
  cells: string[][]
  /** Column positions the agent may change (all but the id columns). */
  repairable: number[]
  /** Dictionary encodings by column position, dropped when a column changes. */
  encoded: Map<number, ColumnCodes>
}

/** A proposed change to one cell, with the rule that made it. */
export interface Proposal {
  row: number
  col: number
  value: string
  reason: string
}

export function workingTableOf(table: Table, idColumns: readonly string[]): WorkingTable {
  const ids = new Set(idColumns)
  const nRows = table.rows.length
  const cells = table.columns.map((_, j) => {
    const column = new Array<string>(nRows)
    for (let r = 0; r < nRows; r++) column[r] = table.rows[r]![j] ?? ''
    return column
  })
  const repairable: number[] = []
  table.columns.forEach((name, j) => {
    if (!ids.has(name)) repairable.push(j)
  })
  return { columns: table.columns, nRows, cells, repairable, encoded: new Map() }
}

/** The column's dictionary encoding, computed once per version of the column. */
export function codesOf(table: WorkingTable, col: number): ColumnCodes {
  let codes = table.encoded.get(col)
  if (!codes) {
    codes = encodeColumn(table.cells[col]!)
    table.encoded.set(col, codes)
  }
  return codes
}

/** Writes proposals into the working table; returns how many changed a cell. */
export function applyProposals(
  table: WorkingTable,
  proposals: readonly Proposal[],
  reasons: Map<number, string>,
): number {
  let changed = 0
  for (const p of proposals) {
    const column = table.cells[p.col]!
    if (column[p.row] === p.value) continue
    column[p.row] = p.value
    table.encoded.delete(p.col)
    reasons.set(p.row * table.columns.length + p.col, p.reason)
    changed++
  }
  return changed
}
