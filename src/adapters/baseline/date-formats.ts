import { rewriteDistinctValues } from './column-rewrite.js'
import type { Proposal, WorkingTable } from './working-table.js'

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

interface DateParts {
  y: number
  m: number
  d: number
}

/** A date layout: how to read it and how to write it. Only four-digit years: two-digit ones are ambiguous. */
interface DateLayout {
  id: string
  pattern: RegExp
  read(match: RegExpExecArray): DateParts | undefined
  write(parts: DateParts, padded: boolean): string
}

const pad = (n: number, padded: boolean) => (padded ? String(n).padStart(2, '0') : String(n))
const num = (s: string | undefined) => Number(s)
const month = (name: string | undefined) =>
  MONTHS.findIndex((m) => m.toLowerCase() === name?.slice(0, 3).toLowerCase()) + 1

const LAYOUTS: readonly DateLayout[] = [
  {
    id: 'YYYY-MM-DD',
    pattern: /^(\d{4})-(\d{1,2})-(\d{1,2})$/,
    read: (m) => ({ y: num(m[1]), m: num(m[2]), d: num(m[3]) }),
    write: (p, padded) => `${p.y}-${pad(p.m, padded)}-${pad(p.d, padded)}`,
  },
  {
    id: 'YYYY/MM/DD',
    pattern: /^(\d{4})\/(\d{1,2})\/(\d{1,2})$/,
    read: (m) => ({ y: num(m[1]), m: num(m[2]), d: num(m[3]) }),
    write: (p, padded) => `${p.y}/${pad(p.m, padded)}/${pad(p.d, padded)}`,
  },
  {
    id: 'YYYYMMDD',
    pattern: /^(\d{4})(\d{2})(\d{2})$/,
    read: (m) => ({ y: num(m[1]), m: num(m[2]), d: num(m[3]) }),
    write: (p) => `${p.y}${pad(p.m, true)}${pad(p.d, true)}`,
  },
  {
    // slashes with the year last: the US order, month first
    id: 'MM/DD/YYYY',
    pattern: /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/,
    read: (m) => ({ y: num(m[3]), m: num(m[1]), d: num(m[2]) }),
    write: (p, padded) => `${pad(p.m, padded)}/${pad(p.d, padded)}/${p.y}`,
  },
  {
    // dots: the European order, day first
    id: 'DD.MM.YYYY',
    pattern: /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/,
    read: (m) => ({ y: num(m[3]), m: num(m[2]), d: num(m[1]) }),
    write: (p, padded) => `${pad(p.d, padded)}.${pad(p.m, padded)}.${p.y}`,
  },
  {
    id: 'Mon D, YYYY',
    pattern: /^([A-Za-z]{3,9})\.? (\d{1,2}), (\d{4})$/,
    read: (m) => (month(m[1]) ? { y: num(m[3]), m: month(m[1]), d: num(m[2]) } : undefined),
    write: (p, padded) => `${MONTHS[p.m - 1]} ${pad(p.d, padded)}, ${p.y}`,
  },
  {
    id: 'D Mon YYYY',
    pattern: /^(\d{1,2}) ([A-Za-z]{3,9})\.? (\d{4})$/,
    read: (m) => (month(m[2]) ? { y: num(m[3]), m: month(m[2]), d: num(m[1]) } : undefined),
    write: (p, padded) => `${pad(p.d, padded)} ${MONTHS[p.m - 1]} ${p.y}`,
  },
]

function isRealDate({ y, m, d }: DateParts): boolean {
  if (m < 1 || m > 12 || d < 1 || d > 31 || y < 1000) return false
  const date = new Date(Date.UTC(y, m - 1, d))
  return date.getUTCMonth() === m - 1 && date.getUTCDate() === d
}

/** The layout a value is written in, with its parts, if it is a real date in one of the known layouts. */
function readDate(value: string): { layout: DateLayout; parts: DateParts; padded: boolean } | undefined {
  const text = value.trim()
  for (const layout of LAYOUTS) {
    const match = layout.pattern.exec(text)
    if (!match) continue
    const parts = layout.read(match)
    if (parts && isRealDate(parts)) return { layout, parts, padded: !/(?:^|\D)\d(?:\D|$)/.test(text) }
  }
  return undefined
}

/**
 * Where one date layout holds at least `minShare` of a column's non-null values, dates written in another
 * known layout are rewritten in it (`03/14/2021` → `2021-03-14` in an ISO column). The day-month order of
 * each layout is fixed by its separators (US slashes, European dots), never guessed per value.
 */
export function unifyDates(table: WorkingTable, minShare = 0.6, minValues = 10): Proposal[] {
  let target: DateLayout | undefined
  let padded = true
  return rewriteDistinctValues(
    table,
    (column, code) => {
      if (column.isNull[code]) return undefined
      const date = readDate(column.values[code]!)
      if (!date || !target || date.layout === target) return undefined
      return { value: target.write(date.parts, padded), reason: `date rewritten in the column's layout ${target.id}` }
    },
    (column) => {
      const byLayout = new Map<DateLayout, { count: number; padded: number }>()
      let nonNull = 0
      column.values.forEach((value, code) => {
        if (column.isNull[code]) return
        nonNull += column.counts[code]!
        const date = readDate(value)
        if (!date) return
        const entry = byLayout.get(date.layout) ?? { count: 0, padded: 0 }
        entry.count += column.counts[code]!
        if (date.padded) entry.padded += column.counts[code]!
        byLayout.set(date.layout, entry)
      })
      target = undefined
      for (const layout of LAYOUTS) {
        const entry = byLayout.get(layout)
        if (entry && entry.count >= minValues && entry.count >= minShare * nonNull) {
          target = layout
          padded = entry.padded * 2 >= entry.count
        }
      }
      return target !== undefined && byLayout.size > 1
    },
  )
}
