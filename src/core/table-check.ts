import type { Table } from './schemas.js'

/**
 * Why `value` is not a `Table` (the first problem, with its path), or null when it is one. The same rules as
 * `TableSchema` without zod, for the modules that every Vitest worker loads (`createRepairTask`).
 */
export function tableProblem(value: unknown): { path: Array<string | number>; message: string } | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { path: [], message: `expected a table { columns, rows }, got ${kind(value)}` }
  const { columns, rows } = value as Partial<Table>
  if (!Array.isArray(columns))
    return { path: ['columns'], message: `expected an array of column names, got ${kind(columns)}` }
  const badColumn = columns.findIndex((c) => typeof c !== 'string')
  if (badColumn >= 0)
    return { path: ['columns', badColumn], message: `expected a string, got ${kind(columns[badColumn])}` }
  if (!Array.isArray(rows)) return { path: ['rows'], message: `expected an array of rows, got ${kind(rows)}` }
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]
    if (!Array.isArray(row)) return { path: ['rows', i], message: `expected an array of cells, got ${kind(row)}` }
    const badCell = row.findIndex((c) => typeof c !== 'string')
    if (badCell >= 0)
      return {
        path: ['rows', i, badCell],
        message: `expected a string (cells are literal text), got ${kind(row[badCell])}`,
      }
    if (row.length !== columns.length)
      return { path: ['rows', i], message: `row ${i} has ${row.length} cells, expected ${columns.length}` }
  }
  return null
}

function kind(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value
}
