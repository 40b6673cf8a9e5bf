import { rewriteDistinctValues, topEntry } from './column-rewrite.js'
import type { Proposal, WorkingTable } from './working-table.js'

const DECIMAL = /^[-+]?\d+(?:\.(\d+))?$/
const COMMA_DECIMAL = /^([-+]?\d+),(\d+)$/

/**
 * Decimal spelling made consistent in numeric columns (at least `minShare` of the non-null values numbers with
 * a dot): a decimal comma becomes a dot where the digits after it match the column's usual count of decimals
 * (never three, which reads as a thousands separator); where nearly all values carry exactly k decimals, extra
 * trailing zeros go (`65.30` → `65.3`); in an integer column a float suffix goes (`53203.0` → `53203`).
 */
export function unifyDecimals(table: WorkingTable, minShare = 0.9): Proposal[] {
  let decimals = -1
  return rewriteDistinctValues(
    table,
    (column, code) => {
      if (column.isNull[code]) return undefined
      const value = column.values[code]!
      const comma = COMMA_DECIMAL.exec(value)
      if (comma && comma[2]!.length === decimals && decimals !== 3) {
        return { value: `${comma[1]}.${comma[2]}`, reason: 'decimal comma in a column of decimal points' }
      }
      const m = DECIMAL.exec(value)
      const fraction = m?.[1]
      if (
        m &&
        fraction !== undefined &&
        fraction.length > decimals &&
        /^0+$/.test(fraction.slice(Math.max(0, decimals)))
      ) {
        const kept =
          decimals <= 0 ? value.slice(0, value.indexOf('.')) : value.slice(0, value.indexOf('.') + 1 + decimals)
        return {
          value: kept,
          reason:
            decimals <= 0
              ? 'float suffix in an integer column'
              : `trailing zeros beyond the column's ${decimals} decimals`,
        }
      }
      return undefined
    },
    (column) => {
      const byDecimals = new Map<string, number>()
      let nonNull = 0
      let numbers = 0
      column.values.forEach((value, code) => {
        if (column.isNull[code]) return
        const count = column.counts[code]!
        nonNull += count
        const m = DECIMAL.exec(value)
        if (!m) return
        numbers += count
        const k = String(m[1]?.length ?? 0)
        byDecimals.set(k, (byDecimals.get(k) ?? 0) + count)
      })
      if (numbers < 10 || numbers < minShare * nonNull) return false
      const [top, count] = topEntry(byDecimals)
      decimals = top !== undefined && count >= minShare * numbers ? Number(top) : -1
      return decimals >= 0
    },
  )
}

/**
 * Fixed-width digit codes (at least `minShare` of the values are digit strings of one length, and some start
 * with 0, so zeros are significant): a shorter digit string is left-padded with the zeros it lost, but only
 * where the padded code occurs elsewhere in the column (`2108` → `02108`).
 */
export function padLeadingZeros(table: WorkingTable, minShare = 0.9): Proposal[] {
  let width = 0
  let present = new Set<string>()
  return rewriteDistinctValues(
    table,
    (column, code) => {
      const value = column.values[code]!
      if (column.isNull[code] || !/^\d+$/.test(value) || value.length >= width) return undefined
      const padded = value.padStart(width, '0')
      return present.has(padded)
        ? { value: padded, reason: `leading zeros restored to the column's width ${width}` }
        : undefined
    },
    (column) => {
      const byWidth = new Map<string, number>()
      let nonNull = 0
      let zeroLed = 0
      column.values.forEach((value, code) => {
        if (column.isNull[code]) return
        nonNull += column.counts[code]!
        if (!/^\d+$/.test(value)) return
        byWidth.set(String(value.length), (byWidth.get(String(value.length)) ?? 0) + column.counts[code]!)
        if (value.startsWith('0')) zeroLed += column.counts[code]!
      })
      const [top, count] = topEntry(byWidth)
      width = Number(top ?? 0)
      present = new Set(column.values.filter((v) => v.length === width))
      return width > 1 && zeroLed > 0 && count >= minShare * nonNull
    },
  )
}

/**
 * Phone numbers in one layout: where at least `minShare` of a column's values are ten digits in one layout
 * (`ddd-ddd-dddd`), other ten-digit spellings (`(612) 477-7803`, `612.477.7803`, `+1 612 477 7803`) are
 * rewritten in it.
 */
export function unifyPhones(table: WorkingTable, minShare = 0.6): Proposal[] {
  let layout = ''
  return rewriteDistinctValues(
    table,
    (column, code) => {
      const value = column.values[code]!
      if (column.isNull[code] || layoutOf(value) === layout) return undefined
      const digits = tenDigits(value)
      if (digits === undefined) return undefined
      let i = 0
      const rewritten = layout.replace(/d/g, () => digits[i++]!)
      return { value: rewritten, reason: `phone number rewritten in the column's layout ${layout}` }
    },
    (column) => {
      const layouts = new Map<string, number>()
      let nonNull = 0
      column.values.forEach((value, code) => {
        if (column.isNull[code]) return
        nonNull += column.counts[code]!
        const l = layoutOf(value)
        if (l !== undefined) layouts.set(l, (layouts.get(l) ?? 0) + column.counts[code]!)
      })
      const [top, count] = topEntry(layouts)
      layout = top ?? ''
      return top !== undefined && count >= minShare * nonNull && count >= 10
    },
  )
}

/** The layout of a ten-digit phone number (digits as `d`), if the value is one and has no other letters. */
function layoutOf(value: string): string | undefined {
  if (!/^[\d\s().+-]+$/.test(value)) return undefined
  const layout = value.replace(/\d/g, 'd')
  return (layout.match(/d/g) ?? []).length === 10 ? layout : undefined
}

/** The ten digits of a North American number spelled with separators and an optional +1 prefix. */
function tenDigits(value: string): string | undefined {
  if (!/^[\d\s().+-]+$/.test(value)) return undefined
  const digits = value.replace(/\D/g, '')
  if (digits.length === 10) return digits
  if (digits.length === 11 && digits.startsWith('1') && /^\s*\+?1[\s.-]/.test(value)) return digits.slice(1)
  return undefined
}
