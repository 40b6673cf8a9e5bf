import { InputError } from '../../core/errors.js'

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

const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
}

const ENTITY = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-zA-Z]+));/g

/** Replaces HTML character references in one pass, so `&amp;lt;` becomes `&lt;`, not `<`. */
export function unescapeHtml(value: string): string {
  if (!value.includes('&')) return value
  return value.replace(ENTITY, (whole, dec: string | undefined, hex: string | undefined, name: string | undefined) => {
    if (name !== undefined) return NAMED_ENTITIES[name] ?? whole
    const code = dec !== undefined ? Number.parseInt(dec, 10) : Number.parseInt(hex!, 16)
    if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return whole
    return String.fromCodePoint(code)
  })
}

/**
 * The value normalization the Raha/Baran evaluation applies before comparing cells: HTML-unescape, collapse
 * every run of whitespace to one space, strip both ends.
 */
export const rahaComparator: Comparator = {
  name: 'raha',
  normalize: (value) => unescapeHtml(value).replace(/\s+/g, ' ').trim(),
}

const COMPARATORS: readonly Comparator[] = [exactComparator, rahaComparator]

export function comparatorByName(name: string): Comparator {
  const found = COMPARATORS.find((c) => c.name === name)
  if (!found) {
    throw new InputError(
      `unknown comparator "${name}": expected one of ${COMPARATORS.map((c) => c.name).join(', ')}`,
    )
  }
  return found
}
