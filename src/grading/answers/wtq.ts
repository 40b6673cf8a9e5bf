import type { Answer, GradeResult } from '../../core/answer.js'
import { InputError } from '../../core/errors.js'
import type { Table } from '../../core/schemas.js'
import { show } from './describe.js'
import type { SyncGrader } from './grader-types.js'

/**
 * Grading by the rules of WikiTableQuestions' official evaluator (evaluator.py 1.0.2, Pasupat and Liang):
 *
 * - Values. A target item is its raw string plus, where the release has one, its canonical form
 *   (`targetCanon`: `100000.0` for `100,000`, `2011-10-xx` for `October 2011`). The canonical form (else the
 *   raw string) is read as a number if Python's int()/float() accept it, else as a date `yyyy-mm-dd` with
 *   `xx` for unknown parts (a year alone becomes a number), else the item is a string. Predicted items are
 *   read the same way from their own strings.
 * - Matching. A target item matches a predicted item when their normalized strings are equal, or both are
 *   numbers within 1e-6, or both are dates with equal year, month and day (xx only matches xx).
 * - Normalization: remove diacritics; smart quotes and dashes to ASCII; then repeatedly strip trailing
 *   citations (`[1]`, `†`, `*`…), trailing parenthesized details (` (…)`) and outer double quotes; drop
 *   one final period; collapse whitespace; lower-case.
 * - Lists are sets: duplicates (equal values of the same type) collapse, the sizes must be equal, and
 *   every target item must match some predicted item, in any order.
 */
export type WtqValue =
  | { type: 'number'; amount: number; normalized: string }
  | { type: 'date'; year: number; month: number; day: number; normalized: string }
  | { type: 'string'; normalized: string }

export interface WtqTarget {
  /** The raw target strings (`targetValue`, split on `|` and unescaped). */
  values: string[]
  /** The canonical strings (`targetCanon`), one per value, where the tagged release carries them. */
  canon?: string[]
}

const DASHES = /[\u2010\u2011\u2012\u2013\u2014\u2212]/g
const SINGLE_QUOTES = /[\u2018\u2019\u00b4`]/g
const DOUBLE_QUOTES = /[\u201c\u201d]/g
const CITATIONS = /((?<!^)\[[^\]]*\]|\[\d+\]|[•♦†‡*#+])*$/u
const PAREN_DETAILS = /(?<!^)( \([^)]*\))*$/u
const OUTER_QUOTES = /^"([^"]*)"$/u

/** The evaluator's string normalization. */
export function normalizeWtq(text: string): string {
  let x = text.normalize('NFKD').replace(/\p{Mn}/gu, '')
  x = x.replace(SINGLE_QUOTES, "'").replace(DOUBLE_QUOTES, '"').replace(DASHES, '-')
  for (;;) {
    const old = x
    x = pyStrip(x).replace(CITATIONS, '')
    x = pyStrip(x).replace(PAREN_DETAILS, '')
    x = pyStrip(x).replace(OUTER_QUOTES, '$1')
    if (x === old) break
  }
  if (x.endsWith('.')) x = x.slice(0, -1)
  return pyStrip(x.replace(/\s+/gu, ' ').toLowerCase())
}

function pyStrip(x: string): string {
  return x.replace(/^\s+|\s+$/gu, '')
}

const INT = /^\s*[+-]?\d+\s*$/
const FLOAT = /^\s*[+-]?(\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?|inf(inity)?|nan)\s*$/i

/** Python's int(), else float() (NaN and infinities rejected), else null. */
export function parseWtqNumber(text: string): number | null {
  if (INT.test(text)) return Number(text.trim())
  if (!FLOAT.test(text)) return null
  const amount = Number(text.trim().replace(/^([+-]?)inf(inity)?$/i, '$1Infinity'))
  return Number.isFinite(amount) ? amount : null
}

/** `yyyy-mm-dd` with `xx` (or `xxxx` for the year) as unknown parts → [year, month, day] with -1 unknown. */
export function parseWtqDate(text: string): [number, number, number] | null {
  const parts = text.toLowerCase().split('-')
  if (parts.length !== 3) return null
  const field = (s: string, unknown: string[]) => (unknown.includes(s) ? -1 : INT.test(s) ? Number(s.trim()) : null)
  const year = field(parts[0]!, ['xx', 'xxxx'])
  const month = field(parts[1]!, ['xx'])
  const day = field(parts[2]!, ['xx'])
  if (year === null || month === null || day === null) return null
  if (year === -1 && month === -1 && day === -1) return null
  if (month !== -1 && (month < 1 || month > 12)) return null
  if (day !== -1 && (day < 1 || day > 31)) return null
  return [year, month, day]
}

/** The evaluator's `to_value(original, canon)`. */
export function toWtqValue(original: string, canon?: string | null): WtqValue {
  const basis = canon ? canon : original
  const normalized = normalizeWtq(original)
  const amount = parseWtqNumber(basis)
  // Python's int() truncates: 2.9999999 becomes 2, as in the official evaluator.
  if (amount !== null)
    return {
      type: 'number',
      amount: Math.abs(amount - Math.round(amount)) < 1e-6 ? Math.trunc(amount) : amount,
      normalized,
    }
  const ymd = parseWtqDate(basis)
  if (ymd) {
    if (ymd[1] === -1 && ymd[2] === -1) return { type: 'number', amount: ymd[0], normalized }
    return { type: 'date', year: ymd[0], month: ymd[1], day: ymd[2], normalized }
  }
  return { type: 'string', normalized }
}

function identity(v: WtqValue): string {
  if (v.type === 'number') return `n:${v.amount}`
  if (v.type === 'date') return `d:${v.year},${v.month},${v.day}`
  return `s:${v.normalized}`
}

/** The evaluator's `to_value_list`: values with duplicates (same type, equal value) collapsed. */
export function toWtqValueList(originals: readonly string[], canon?: ReadonlyArray<string | null>): WtqValue[] {
  if (canon && canon.length !== originals.length) {
    throw new InputError(`wtq: ${originals.length} target values but ${canon.length} canonical values`)
  }
  const unique = new Map<string, WtqValue>()
  originals.forEach((original, i) => {
    const value = toWtqValue(original, canon?.[i])
    const key = identity(value)
    if (!unique.has(key)) unique.set(key, value)
  })
  return [...unique.values()]
}

export function wtqValuesMatch(target: WtqValue, predicted: WtqValue): boolean {
  if (target.normalized === predicted.normalized) return true
  if (target.type === 'number' && predicted.type === 'number') return Math.abs(target.amount - predicted.amount) < 1e-6
  if (target.type === 'date' && predicted.type === 'date') {
    return target.year === predicted.year && target.month === predicted.month && target.day === predicted.day
  }
  return false
}

/** The evaluator's `check_denotation`: equal sizes, every target matched by some prediction. */
export function checkDenotation(targets: readonly WtqValue[], predicted: readonly WtqValue[]): boolean {
  if (targets.length !== predicted.length) return false
  return targets.every((t) => predicted.some((p) => wtqValuesMatch(t, p)))
}

/**
 * The answer's items as the evaluator's prediction strings. `value` is read first: a list gives one item per
 * element, a one-column or one-row table one per cell, any other scalar one item (numbers as JavaScript
 * prints them). Without a value, the text after the last `Answer:` (else the whole text) is one item, or
 * several separated by `|`, the dataset's own list separator.
 */
export function predictedItems(answer: Answer): { items: string[] } | { error: string } {
  const value: unknown = answer.value
  if (value !== undefined && value !== null) {
    if (Array.isArray(value)) return { items: value.map((v) => scalarText(v)) }
    if (isTable(value)) {
      if (value.columns.length === 1) return { items: value.rows.map((r) => r[0]!) }
      if (value.rows.length === 1) return { items: [...value.rows[0]!] }
      return {
        error: `a table answer must have one column or one row, got ${value.rows.length} × ${value.columns.length}`,
      }
    }
    return { items: [scalarText(value)] }
  }
  if (answer.text === undefined || answer.text.trim() === '')
    return { error: 'the answer has neither a value nor text' }
  const marker = /answer\s*:/gi
  let start = 0
  for (let m = marker.exec(answer.text); m; m = marker.exec(answer.text)) start = m.index + m[0].length
  return {
    items: answer.text
      .slice(start)
      .split('|')
      .map((s) => s.trim())
      .filter((s) => s !== ''),
  }
}

function scalarText(v: unknown): string {
  return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v)
}

function isTable(x: unknown): x is Table {
  return typeof x === 'object' && x !== null && Array.isArray((x as Table).columns) && Array.isArray((x as Table).rows)
}

/** A grader for one WikiTableQuestions example (see the rules above). */
export function wtqAnswer(target: WtqTarget): SyncGrader {
  if (!Array.isArray(target.values) || target.values.length === 0)
    throw new InputError('wtqAnswer(): target.values must be a non-empty list')
  const targets = toWtqValueList(target.values, target.canon)
  const wanted = target.values.map((v) => show(v)).join(' | ')
  return (answer: Answer): GradeResult => {
    if (answer.refused === true) return { passed: false, detail: `expected ${wanted}, but the agent refused` }
    const found = predictedItems(answer)
    if ('error' in found) return { passed: false, detail: `expected ${wanted}, but ${found.error}` }
    const predicted = toWtqValueList(found.items)
    const passed = checkDenotation(targets, predicted)
    const got = found.items.map((v) => show(v)).join(' | ')
    if (passed) return { passed, detail: `matches ${wanted} (found ${got})` }
    const why =
      targets.length !== predicted.length
        ? `${predicted.length} distinct item(s) for ${targets.length}`
        : 'an item does not match'
    return { passed, detail: `expected ${wanted}, found ${got} (${why})` }
  }
}
