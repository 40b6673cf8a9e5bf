import { readFileSync } from 'node:fs'
import { basename, extname } from 'node:path'
import type { Table } from '../core/schemas.js'
import { parseCsvStrict } from '../datasets/csv.js'

type OneTable = Table | string | Record<string, unknown>[]

/** What `conversation({ data })` accepts: a Table, a CSV path, an array of records, or a `{ name: … }` map of them. */
export type DataInput = OneTable | Record<string, OneTable>

function isTable(x: unknown): x is Table {
  return typeof x === 'object' && x !== null && Array.isArray((x as Table).columns) && Array.isArray((x as Table).rows)
}

/** Records → Table: columns in first-seen order; every value a literal string (null/undefined → ''). */
export function recordsToTable(records: Record<string, unknown>[]): Table {
  const columns: string[] = []
  const seen = new Set<string>()
  for (const r of records) {
    for (const k of Object.keys(r)) {
      if (seen.has(k)) continue
      seen.add(k)
      columns.push(k)
    }
  }
  return {
    columns,
    rows: records.map((r) => columns.map((c) => (r[c] === null || r[c] === undefined ? '' : String(r[c])))),
  }
}

function oneTable(value: unknown, where: string): Table {
  if (typeof value === 'string') return parseCsvStrict(readFileSync(value, 'utf8'), value)
  if (Array.isArray(value)) return recordsToTable(value as Record<string, unknown>[])
  if (isTable(value)) return value
  throw new TypeError(`${where}: expected a Table ({ columns, rows }), a CSV path or an array of records`)
}

export function normalizeData(data: DataInput): Record<string, Table> {
  if (typeof data === 'string') return { [basename(data, extname(data))]: oneTable(data, 'data') }
  if (Array.isArray(data) || isTable(data)) return { data: oneTable(data, 'data') }
  const out: Record<string, Table> = {}
  for (const [name, value] of Object.entries(data)) out[name] = oneTable(value, `data.${name}`)
  return out
}
