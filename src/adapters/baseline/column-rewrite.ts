import type { ColumnCodes } from './column-codes.js'
import { codesOf, type Proposal, type WorkingTable } from './working-table.js'

/**
 * Runs `rewrite` once per distinct value of each repairable column (tables repeat values a lot) and turns
 * every change into proposals for the rows holding that value. `rewrite` sees the column's dictionary.
 */
export function rewriteDistinctValues(
  table: WorkingTable,
  rewrite: (column: ColumnCodes, code: number) => { value: string; reason: string } | undefined,
  prepare?: (column: ColumnCodes) => boolean,
): Proposal[] {
  const out: Proposal[] = []
  for (const col of table.repairable) {
    const column = codesOf(table, col)
    if (prepare && !prepare(column)) continue
    const changes = new Map<number, { value: string; reason: string }>()
    for (let code = 0; code < column.values.length; code++) {
      const change = rewrite(column, code)
      if (change && change.value !== column.values[code]) changes.set(code, change)
    }
    if (changes.size === 0) continue
    for (let row = 0; row < table.nRows; row++) {
      const change = changes.get(column.codes[row]!)
      if (change) out.push({ row, col, value: change.value, reason: change.reason })
    }
  }
  return out
}

/** Non-null rows of a column, and how many of them satisfy `test` (evaluated once per distinct value). */
export function shareOf(column: ColumnCodes, test: (value: string) => boolean): { matching: number; nonNull: number } {
  let matching = 0
  let nonNull = 0
  for (let code = 0; code < column.values.length; code++) {
    if (column.isNull[code]) continue
    nonNull += column.counts[code]!
    if (test(column.values[code]!)) matching += column.counts[code]!
  }
  return { matching, nonNull }
}

/** The key with the highest count (ties to the smaller key, for determinism). */
export function topEntry(counts: ReadonlyMap<string, number>): [string | undefined, number] {
  let best: string | undefined
  let bestCount = 0
  for (const [key, count] of counts) {
    if (count > bestCount || (count === bestCount && best !== undefined && key < best)) {
      best = key
      bestCount = count
    }
  }
  return [best, bestCount]
}
