import { rewriteDistinctValues } from './column-rewrite.js'
import type { Proposal, WorkingTable } from './working-table.js'

const spellingKey = (value: string) => value.trim().replace(/\s+/g, ' ').toLowerCase()

/**
 * Values that differ from a column's usual spelling only in letter case or spacing (`BASIC`, ` Standard`,
 * `New  York`) take that spelling, where it is at least `minRatio` times as frequent as the variant and the
 * variant is rare (one row in 2,000 at most, at least one).
 */
export function unifyCaseAndSpacing(table: WorkingTable, minRatio = 3): Proposal[] {
  let usual = new Map<string, { code: number; count: number }>()
  // a variant several rows share is a convention of the data (`ENG` beside `eng`), not a slip
  const maxVariantCount = Math.max(1, Math.floor(table.nRows / 2000))
  return rewriteDistinctValues(
    table,
    (column, code) => {
      if (column.isNull[code]) return undefined
      const best = usual.get(spellingKey(column.values[code]!))
      const count = column.counts[code]!
      if (!best || best.code === code || count > maxVariantCount || best.count < minRatio * count) return undefined
      return { value: column.values[best.code]!, reason: 'case or spacing of the usual spelling' }
    },
    (column) => {
      usual = new Map()
      column.values.forEach((value, code) => {
        if (column.isNull[code]) return
        const key = spellingKey(value)
        const seen = usual.get(key)
        if (!seen || column.counts[code]! > seen.count) usual.set(key, { code, count: column.counts[code]! })
      })
      return usual.size < column.values.length
    },
  )
}
