import type { Table } from '../../core/schemas.js'

/**
 * The reference cleaner for the messy suite: the rules a careful analyst applies, written once so the
 * expected answers are derived from the messy table by code.
 *
 * - Missing: '', 'N/A', 'n/a', 'NA', 'null', 'NULL', 'none', '-' (after trimming).
 * - Amounts: currency symbols and codes ($, €, £, USD, EUR) and thousands separators (',') are dropped;
 *   '.' is the decimal point.
 * - Dates: yyyy-mm-dd, yyyy/mm/dd, mm/dd/yyyy (US order), 'Mon d, yyyy', 'd Month yyyy'.
 * - Categories: case, surrounding whitespace and '-'/'_' separators are ignored, plurals fold to the
 *   canonical label's form ('office-supply' → 'Office Supplies' when that is the canonical label).
 * - Duplicates: rows identical in every cell after cleaning count once.
 */
const MISSING_TOKENS = new Set(['', 'n/a', 'na', 'null', 'none', '-'])

export function isMissing(raw: string): boolean {
  return MISSING_TOKENS.has(raw.trim().toLowerCase())
}

export function parseAmount(raw: string): number | null {
  if (isMissing(raw)) return null
  const stripped = raw
    .replace(/USD|EUR|GBP|[$€£]/gi, '')
    .replace(/,/g, '')
    .trim()
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(stripped)) throw new Error(`unreadable amount ${JSON.stringify(raw)}`)
  return Number(stripped)
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']

/** A date in one of the suite's formats → yyyy-mm-dd. */
export function parseDate(raw: string): string {
  const s = raw.trim()
  const iso = (y: number, m: number, d: number) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`
  let m = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})$/.exec(s)
  if (m) return iso(Number(m[1]), Number(m[2]), Number(m[3]))
  m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(s)
  if (m) return iso(Number(m[3]), Number(m[1]), Number(m[2]))
  m = /^([A-Za-z]+)\.? (\d{1,2}), (\d{4})$/.exec(s)
  if (m) return iso(Number(m[3]), monthOf(m[1]!, raw), Number(m[2]))
  m = /^(\d{1,2}) ([A-Za-z]+) (\d{4})$/.exec(s)
  if (m) return iso(Number(m[3]), monthOf(m[2]!, raw), Number(m[1]))
  throw new Error(`unreadable date ${JSON.stringify(raw)}`)
}

function monthOf(name: string, raw: string): number {
  const i = MONTHS.indexOf(name.slice(0, 3).toLowerCase())
  if (i < 0) throw new Error(`unreadable month in ${JSON.stringify(raw)}`)
  return i + 1
}

function categoryKey(raw: string): string {
  return raw
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ')
    .replace(/(ies|s)$/, (x) => (x === 'ies' ? 'y' : ''))
}

export function canonicalCategory(raw: string, canonical: readonly string[]): string {
  const key = categoryKey(raw)
  const hit = canonical.find((c) => categoryKey(c) === key)
  if (!hit) throw new Error(`unknown category ${JSON.stringify(raw)}`)
  return hit
}

interface CleanSale {
  orderId: string
  date: string
  customer: string
  category: string
  amount: number | null
}

/** Messy `sales` table → clean, de-duplicated records (first occurrence kept) and how many duplicates went. */
export function cleanSales(
  table: Table,
  categories: readonly string[],
): { sales: CleanSale[]; duplicatesRemoved: number } {
  const col = (name: string) => {
    const i = table.columns.indexOf(name)
    if (i < 0) throw new Error(`messy table has no column ${name}`)
    return i
  }
  const [id, date, customer, category, amount] = ['order_id', 'date', 'customer', 'category', 'amount'].map(col) as [
    number,
    number,
    number,
    number,
    number,
  ]
  const seen = new Set<string>()
  const sales: CleanSale[] = []
  let duplicatesRemoved = 0
  for (const row of table.rows) {
    const sale = {
      orderId: row[id]!.trim(),
      date: parseDate(row[date]!),
      customer: row[customer]!.trim(),
      category: canonicalCategory(row[category]!, categories),
      amount: parseAmount(row[amount]!),
    }
    const key = JSON.stringify(sale)
    if (seen.has(key)) {
      duplicatesRemoved++
      continue
    }
    seen.add(key)
    sales.push(sale)
  }
  return { sales, duplicatesRemoved }
}
