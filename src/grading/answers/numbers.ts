/**
 * The one number parser every answer grader, matcher and report uses.
 *
 * Accepted forms (ASCII digits only; full-width or other scripts' digits are not numbers here):
 * - signs `-`, `+` and `−` (U+2212); accounting parentheses `(1,234)` mean −1234
 * - currency symbols `$ € £ ¥`, before the number (`$5`, `-$5`, `$-5`) or after it (`5 €`)
 * - thousands separators: `,` in groups of exactly three (`1,234,567.89`); a thin or no-break space
 *   (U+2009, U+00A0, U+202F) likewise; a plain space only in `parseNumber`, where the whole string must be
 *   one number (`1 234`). In prose a plain space separates numbers ("in 20 100 cases" is 20 and 100).
 *   A comma followed by anything but three digits is not part of the number: decimal commas (`3,5`) are
 *   not supported and read as two numbers in prose, and as no number in `parseNumber`.
 * - decimals `1.5`, `.5`; exponents `1.2e3`, `1.2E-3`
 * - scale words `thousand`, `million`, `billion`, `trillion`, any case (`1.2 million` = 1200000), and these
 *   abbreviations glued to the number: `k` `K` (thousand), `M` `MM` `mn` (million), `B` `bn` (billion), so
 *   `$1.2M` = 1200000 and `20k` = 20000. Lower-case `m` and `b` are not scales (`5m` is 5, likely metres).
 *   No number words: `seven` is not a number.
 * - percent: `12.5%` or `12.5 percent` is 12.5 by default, 0.125 with `percentAsFraction`
 *
 * In prose a number must not be glued to a preceding letter, digit, `_` or `.`: "COVID-19" holds 19
 * (not −19), "A12" holds no number, "2016-2026" holds 2016 and 2026 (a hyphen after a digit is not a sign).
 * Letters right after a number are allowed ("5kg", "3rd" hold 5 and 3).
 *
 * A number inside an identifier, a hash, a version or a date is not a number:
 * - letters or `_` and then a digit right after it: "0ac57a815bc2", "12d3", "5_000", "x86_64" hold none
 * - a hexadecimal run of 7 or more characters that starts with digits: "12345abcdef" holds none
 * - a dotted version: "1.2.3" and "v2.0.1" hold none
 * - a date: "2026-12-03", "2026/12/03" and "12/03/2026" hold none
 */

export interface NumberOptions {
  /** Read `12.5%` as 0.125 instead of 12.5. */
  percentAsFraction?: boolean
}

export interface NumberMatch {
  value: number
  /** The source text of the number, as matched (currency, sign, percent included). */
  text: string
  /** Offset of `text` in the input. */
  index: number
  percent: boolean
  currency?: string
}

const SIGN = '[-+\\u2212]'
const CURRENCY = '[$€£¥]'
const THIN_SPACES = '\\u2009\\u00A0\\u202F'

/** A pattern matching `word` in any letter case (the number patterns are case-sensitive for `M` vs `m`). */
function anyCase(word: string): string {
  return [...word].map((c) => `[${c}${c.toUpperCase()}]`).join('')
}

const SCALE_WORDS = ['thousand', 'million', 'billion', 'trillion'].map(anyCase).join('|')

function numberPattern(groupSpaces: string): string {
  // Grouped digits are tried before plain digits so that "1,234" is one number; the (?!\d) stops
  // "1,2345" from reading as 1,234 followed by 5.
  const body =
    `(?:\\d{1,3}(?:,\\d{3})+(?!\\d)|\\d{1,3}(?:[${groupSpaces}]\\d{3})+(?!\\d)|\\d+)(?:\\.\\d+)?` + '|\\.\\d+'
  return (
    `(?<open>\\(\\s*)?` +
    `(?<sign1>${SIGN})?` +
    `(?:(?<cur1>${CURRENCY})\\s?)?` +
    `(?<sign2>${SIGN})?` +
    `(?<body>${body})` +
    `(?<exp>[eE][-+\\u2212]?\\d+)?` +
    `(?:\\s?(?<scale>${SCALE_WORDS})(?!\\p{L})|(?<abbr>k|K|MM|M|mn|bn|B)(?![\\p{L}\\p{N}]))?` +
    `(?:\\s?(?<pct>%|${anyCase('percent')}(?!\\p{L})))?` +
    `(?:\\s?(?<cur2>${CURRENCY}))?` +
    `(?<close>\\s*\\))?`
  )
}

/** What may follow a number in prose without making it part of an identifier or version. */
const GLUED_IDENTIFIER = /^(?:[\p{L}_]*\p{N}|\.\d)/u
const HEX_RUN = /^[0-9a-fA-F]{7,}(?![\p{L}\p{N}_])/u
const DATE = /(?<![\p{L}\p{N}_.])(?:\d{4}[-/]\d{1,2}[-/]\d{1,2}|\d{1,2}\/\d{1,2}\/\d{2,4})(?![\p{N}])/gu

/** Where the dates of `text` start and end ([start, end) pairs, in order). */
function dateSpans(text: string): [number, number][] {
  return [...text.matchAll(DATE)].map((m) => [m.index, m.index + m[0].length])
}

/** True when the number at [start, end) is part of an identifier, a hash, a version or a date. */
function insideToken(text: string, start: number, end: number, dates: readonly [number, number][]): boolean {
  if (GLUED_IDENTIFIER.test(text.slice(end, end + 64))) return true
  const hex = HEX_RUN.exec(text.slice(start, start + 256))
  if (hex && /[a-fA-F]/.test(hex[0])) return true
  return dates.some(([from, to]) => start >= from && start < to)
}

const PROSE_NUMBER = new RegExp(`(?<![\\p{L}\\p{N}_.])${numberPattern(THIN_SPACES)}`, 'gu')
const WHOLE_NUMBER = new RegExp(`^\\s*${numberPattern(THIN_SPACES + ' ')}\\s*$`, 'u')

const SCALE_EXPONENT: Record<string, number> = {
  thousand: 3,
  million: 6,
  billion: 9,
  trillion: 12,
  k: 3,
  mm: 6,
  m: 6,
  mn: 6,
  b: 9,
  bn: 9,
}

interface Parts {
  open?: string
  sign1?: string
  cur1?: string
  sign2?: string
  body?: string
  exp?: string
  scale?: string
  abbr?: string
  pct?: string
  cur2?: string
  close?: string
}

/** Builds the value through a decimal exponent so that "1.2 million" is exactly 1200000, not 1199999.9…. */
function magnitudeOf(parts: Parts, negative: boolean, opts: NumberOptions): number {
  const mantissa = parts.body!.replace(/[^\d.]/g, '')
  let exponent = parts.exp ? Number(parts.exp.slice(1).replace('\u2212', '-')) : 0
  const scale = parts.scale ?? parts.abbr
  if (scale) exponent += SCALE_EXPONENT[scale.toLowerCase()]!
  if (parts.pct && opts.percentAsFraction) exponent -= 2
  const magnitude = Number(`${mantissa}e${exponent}`)
  return negative ? -magnitude : magnitude
}

function isMinus(sign: string | undefined): boolean {
  return sign === '-' || sign === '\u2212'
}

/**
 * The value of a string that is exactly one number (surrounding whitespace allowed), else null.
 * "5 apples", "1,5", "--5", "NaN", "0x10" and "" are not numbers.
 */
export function parseNumber(text: string, opts: NumberOptions = {}): number | null {
  const m = WHOLE_NUMBER.exec(text)
  if (!m?.groups) return null
  const p = m.groups as Parts
  if (Boolean(p.open) !== Boolean(p.close)) return null
  if (p.sign1 && p.sign2) return null
  if (p.cur1 && p.cur2) return null
  if ((p.cur1 || p.cur2) && p.pct) return null
  const signed = p.sign1 ?? p.sign2
  if (p.open && signed) return null
  const value = magnitudeOf(p, Boolean(p.open) || isMinus(signed), opts)
  return Number.isFinite(value) ? value : null
}

/** Every number in `text`, in order, with where it was found. */
export function findNumbers(text: string, opts: NumberOptions = {}): NumberMatch[] {
  const found: NumberMatch[] = []
  const dates = dateSpans(text)
  for (const m of text.matchAll(PROSE_NUMBER)) {
    const p = m.groups as Parts
    let start = m.index
    let source = m[0]
    if (insideToken(text, start + (p.open?.length ?? 0), start + source.length, dates)) continue
    // A parenthesis counts as accounting notation only when it encloses the number on both sides;
    // "(3 red)" or "total 5)" hold plain positive numbers.
    const accounting = Boolean(p.open && p.close)
    if (p.open && !p.close) {
      start += p.open.length
      source = source.slice(p.open.length)
    } else if (p.close && !p.open) {
      source = source.slice(0, source.length - p.close.length)
    }
    // Prose is read leniently where the reading is unambiguous: "(-3)" and "-$-5" are still −3 and −5.
    const negative = accounting || isMinus(p.sign1) || isMinus(p.sign2)
    const value = magnitudeOf(p, negative, opts)
    if (!Number.isFinite(value)) continue
    const currency = p.cur1 ?? p.cur2
    found.push({ value, text: source, index: start, percent: Boolean(p.pct), ...(currency ? { currency } : {}) })
  }
  return found
}

/** The values of every number in `text`, in order. */
export function extractNumbers(text: string, opts: NumberOptions = {}): number[] {
  return findNumbers(text, opts).map((n) => n.value)
}
