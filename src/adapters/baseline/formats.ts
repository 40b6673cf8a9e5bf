import type { ColumnCodes } from './column-codes.js'
import { rewriteDistinctValues, shareOf, topEntry } from './column-rewrite.js'
import type { Proposal, WorkingTable } from './working-table.js'

const NUMBER = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/
const NUMBER_WITH_UNIT = /^(\d+(?:\.\d+)?)\s*([A-Za-z][A-Za-z.\- ]*)$/
/** Symbols that decorate a value without changing it: percent and currency signs, stray quotes, asterisks. */
const DECORATION = /^[\s%$€£#*"'`]+|[\s%$€£#*"'`]+$/g
/** A short word before or after the value: a currency code or unit (`USD 9.99`, `9.99 USD`). */
const WORD_AFFIX = /^[A-Za-z]{1,4}\.?\s+|\s+[A-Za-z]{1,4}\.?$/g

/** A value's shape: digit runs become `9`, letter runs `a`, everything else stays. `0.05%` → `9.9%`. */
export function shapeOf(value: string): string {
  return value.replace(/\d+/g, '9').replace(/[A-Za-z]+/g, 'a')
}

/**
 * In a numeric column, textual null placeholders (`N/A`, `null`, `-`…) become the empty string, the way a CSV
 * writer spells a missing number. Only where at least `minShare` of the other non-empty values are numbers
 * and the placeholder is systematic (at least `minPlaceholderShare` of the rows): a stray `NULL` more likely
 * hides a value that was lost, and emptying it would not restore that.
 */
export function numericNullPlaceholders(
  table: WorkingTable,
  { minShare = 0.95, minNumbers = 10, minPlaceholderShare = 0.05 } = {},
): Proposal[] {
  const reason = 'null placeholder in a numeric column'
  return rewriteDistinctValues(
    table,
    (column, code) => (column.isNull[code] && column.values[code] !== '' ? { value: '', reason } : undefined),
    (column) => {
      let numbers = 0
      let others = 0
      let placeholders = 0
      column.values.forEach((value, code) => {
        const count = column.counts[code]!
        if (value === '') return
        if (column.isNull[code]) placeholders += count
        else if (NUMBER.test(value)) numbers += count
        else others += count
      })
      return (
        numbers >= minNumbers &&
        numbers >= minShare * (numbers + others) &&
        placeholders >= minPlaceholderShare * table.nRows
      )
    },
  )
}

/**
 * Where one shape dominates a column (at least `minShare` of the non-null values), a value of another shape
 * that takes the dominant shape once decoration is stripped from its ends loses it: `0.05%` in a column of
 * plain decimals becomes `0.05`. Symbols (`%`, currency signs, quotes) are stripped freely; a short word
 * (`9.99 USD`) only from numbers, and only where the bare number occurs elsewhere in the column.
 */
export function stripDecorations(table: WorkingTable, minShare = 0.6): Proposal[] {
  let dominant: string | undefined
  let present: Set<string> = new Set()
  let numeric = false
  return rewriteDistinctValues(
    table,
    (column, code) => {
      const value = column.values[code]!
      if (column.isNull[code] || shapeOf(value) === dominant) return undefined
      const stripped = value.replace(DECORATION, '')
      if (stripped !== value && stripped !== '' && shapeOf(stripped) === dominant) {
        return { value: stripped, reason: `stripped decoration to match the column's format ${dominant}` }
      }
      const bare = numeric ? stripped.replace(WORD_AFFIX, '') : stripped
      if (bare !== stripped && present.has(bare) && shapeOf(bare) === dominant) {
        return { value: bare, reason: `stripped a unit word to match the column's format ${dominant}` }
      }
      return undefined
    },
    (column) => {
      const shapes = new Map<string, number>()
      let nonNull = 0
      column.values.forEach((value, code) => {
        if (column.isNull[code]) return
        nonNull += column.counts[code]!
        const shape = shapeOf(value)
        shapes.set(shape, (shapes.get(shape) ?? 0) + column.counts[code]!)
      })
      const [top, count] = topEntry(shapes)
      dominant = top
      numeric = top !== undefined && /^[-+]?9(?:[.,]9)?$/.test(top)
      present = new Set(column.values)
      return top !== undefined && count >= minShare * nonNull
    },
  )
}

/**
 * A column of numbers with a unit whose spelling is inconsistent (`12.0 oz`, `12.0 oz.`, `12.0 ounce`, no
 * spelling covering `maxTopUnitShare` of the values) carries noise, not information, in the unit: the value
 * becomes the bare number in canonical form (`12.0 oz.` → `12`). A consistent unit (`37 patients`, with the
 * odd typo) is left alone.
 */
export function normalizeUnitNumbers(table: WorkingTable, minShare = 0.9, maxTopUnitShare = 0.8): Proposal[] {
  const reason = 'number with an inconsistently spelled unit'
  return rewriteDistinctValues(
    table,
    (column, code) => {
      const m = NUMBER_WITH_UNIT.exec(column.values[code]!.trim())
      return m ? { value: String(Number(m[1])), reason } : undefined
    },
    (column) => {
      const units = new Map<string, number>()
      const { matching, nonNull } = shareOf(column, (value) => NUMBER_WITH_UNIT.test(value.trim()))
      if (matching < 10 || matching < minShare * nonNull) return false
      column.values.forEach((value, code) => {
        const m = NUMBER_WITH_UNIT.exec(value.trim())
        if (m) units.set(m[2]!.trim(), (units.get(m[2]!.trim()) ?? 0) + column.counts[code]!)
      })
      const [, top] = topEntry(units)
      return units.size >= 2 && top < maxTopUnitShare * matching
    },
  )
}

/** A decimal printed from binary floating point without rounding: `0.052000000000000005`, `0.057999999999999996`. */
const FLOAT_NOISE = /^[-+]?\d*\.\d*?(?:0{5,}|9{5,})\d{1,2}$/

/**
 * Decimals carrying binary floating-point noise are rounded to the short decimal they stand for
 * (`0.052000000000000005` → `0.052`): the noise is an artefact of a float-to-string conversion, not data.
 * Only values with at least 15 significant digits whose 12-digit rounding is much shorter qualify.
 */
export function roundFloatNoise(table: WorkingTable): Proposal[] {
  return rewriteDistinctValues(table, (column: ColumnCodes, code: number) => {
    const rounded = withoutFloatNoise(column.values[code]!)
    return rounded === undefined ? undefined : { value: rounded, reason: 'rounded floating-point noise' }
  })
}

function withoutFloatNoise(value: string): string | undefined {
  if (value.length < 16 || !FLOAT_NOISE.test(value)) return undefined
  const significant = value.replace(/^[-+]?[0.]*/, '').replace('.', '').length
  if (significant < 15) return undefined
  const rounded = String(Number(Number(value).toPrecision(12)))
  return rounded.length <= value.length - 5 ? rounded : undefined
}
