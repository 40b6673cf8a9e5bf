import { createRequire } from 'node:module'
import { InputError } from '../../core/errors.js'

const requireEntities = createRequire(import.meta.url)
let entities: typeof import('entities/decode') | undefined

/** The entities decoder, loaded with the first value that holds a reference (the matchers' graph loads in every worker). */
function decoder(): typeof import('entities/decode') {
  entities ??= requireEntities('entities/decode') as typeof import('entities/decode')
  return entities
}

/** Decides cell equality: two values are equal iff their normalized forms are identical strings. */
export interface Comparator {
  name: string
  normalize(value: string): string
}

/** Exact comparison, forgiving only trailing whitespace (a stray newline or space a model appended). */
export const exactComparator: Comparator = {
  name: 'exact',
  normalize: (value) => value.trimEnd(),
}

/** Python's `html._charref`: `&` then a decimal or hex reference, or up to 32 name characters, `;` optional. */
const CHARREF = /&(#[0-9]+;?|#[xX][0-9a-fA-F]+;?|[^\t\n\f <&#;]{1,32};?)/g

/** Code points Python's `html.unescape` drops from numeric references (controls, noncharacters). */
function isDroppedCodePoint(cp: number): boolean {
  return (
    (cp >= 0x1 && cp <= 0x8) ||
    cp === 0xb ||
    (cp >= 0xe && cp <= 0x1f) ||
    (cp >= 0x7f && cp <= 0x9f) ||
    (cp >= 0xfdd0 && cp <= 0xfdef) ||
    (cp & 0xfffe) === 0xfffe
  )
}

function numericReference(ref: string): string {
  const hex = ref[1] === 'x' || ref[1] === 'X'
  const digits = ref.slice(hex ? 2 : 1).replace(/;$/, '')
  const cp = Number.parseInt(digits, hex ? 16 : 10)
  // Python's `_invalid_charrefs` (0, CR, and 0x80–0x9F read as windows-1252) is the HTML5 table entities carries.
  if (cp === 0 || cp === 0xd || (cp >= 0x80 && cp <= 0x9f)) return String.fromCodePoint(decoder().replaceCodePoint(cp))
  if ((cp >= 0xd800 && cp <= 0xdfff) || !(cp <= 0x10ffff)) return '\ufffd'
  if (isDroppedCodePoint(cp)) return ''
  return String.fromCodePoint(cp)
}

/**
 * Python's `html.unescape`, in one left-to-right pass (so `&amp;lt;` becomes `&lt;`, not `<`): every HTML5
 * named reference, with `;` or, for the legacy names, without (`caf&eacute` → café, `&notit;` → ¬it;);
 * decimal and hex references with or without `;`; surrogates and values past U+10FFFF become U+FFFD; NUL
 * and 0x80–0x9F follow the HTML5 replacement table; other control and noncharacter code points are dropped.
 * Named references are decoded by the `entities` package (the WHATWG rules, longest legacy prefix).
 */
function unescapeHtml(value: string): string {
  if (!value.includes('&')) return value
  return value.replace(CHARREF, (whole, ref: string) =>
    ref[0] === '#' ? numericReference(ref) : decoder().decodeHTML(whole, decoder().DecodingMode.Legacy),
  )
}

/**
 * Raha's `re.sub("[\t\n ]+", " ", value, re.UNICODE)` passes `re.UNICODE` (32) where `count` goes, so only the
 * first 32 runs are collapsed; the published scores were computed that way.
 */
const RAHA_COLLAPSED_RUNS = 32

function collapseRuns(value: string): string {
  let n = 0
  return value.replace(/[\t\n ]+/g, (run) => (n++ < RAHA_COLLAPSED_RUNS ? ' ' : run))
}

/**
 * Raha/Baran's value normalizer: `html.unescape`, then runs of tab, newline and space (only those; not other
 * Unicode spaces) become one space, then tabs, newlines and spaces are stripped at both ends.
 */
export const rahaComparator: Comparator = {
  name: 'raha',
  normalize: (value) => collapseRuns(unescapeHtml(value)).replace(/^[\t\n ]+|[\t\n ]+$/g, ''),
}

const COMPARATORS: readonly Comparator[] = [exactComparator, rahaComparator]

export function comparatorByName(name: string): Comparator {
  const found = COMPARATORS.find((c) => c.name === name)
  if (!found) {
    throw new InputError(`unknown comparator "${name}": expected one of ${COMPARATORS.map((c) => c.name).join(', ')}`)
  }
  return found
}
