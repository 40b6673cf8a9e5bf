import { oneLine, truncate } from '../../core/text.js'

/** Helpers that keep grader details on one short, readable line. */

const MAX_QUOTE = 80

/** A quoted excerpt of `text` centred on [start, end), with ellipses where it was cut. */
export function excerpt(text: string, start: number, end: number, context = 30): string {
  const from = Math.max(0, start - context)
  const to = Math.min(text.length, end + context)
  const body = text.slice(from, to).replace(/\s+/g, ' ')
  return JSON.stringify((from > 0 ? '…' : '') + body + (to < text.length ? '…' : ''))
}

/** Whitespace and invisible characters JSON leaves as they are: shown as `\uXXXX` so a quoted value shows them. */
const INVISIBLE =
  /[\u00a0\u00ad\u1680\u180e\u2000-\u200f\u2028\u2029\u202a-\u202f\u205f\u2060-\u2064\u2066-\u2069\u3000\ufeff]/g

/**
 * A string quoted as JSON, on one line, with every whitespace character visible: `" 5"` and `"5"` never read
 * alike (line breaks and tabs as `\n`/`\t`, other invisible characters as `\uXXXX`). Cut at `max` characters.
 */
function quote(text: string, max = MAX_QUOTE): string {
  return JSON.stringify(truncate(text, max)).replace(
    INVISIBLE,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
}

/** A short rendering of any answer value: strings quoted (whitespace visible), numbers bare, structures as compact JSON. */
export function show(value: unknown, max = MAX_QUOTE): string {
  if (value === undefined) return 'undefined'
  if (typeof value === 'number') return Number.isNaN(value) ? 'NaN' : String(value)
  if (typeof value === 'string') return quote(value, max)
  if (typeof value === 'bigint') return `${value}n`
  let json: string | undefined
  try {
    json = JSON.stringify(value)
  } catch {
    json = undefined
  }
  return oneLine(json ?? String(value), max)
}

/** `typeof` with arrays, null and tables told apart, for "expected a number, found a table" details. */
export function kindOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'list'
  if (typeof value === 'object' && value !== null && 'columns' in value && 'rows' in value) return 'table'
  return typeof value
}
