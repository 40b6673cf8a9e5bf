import { oneLine } from '../../core/text.js'

/** Helpers that keep grader details on one short, readable line. */

const MAX_QUOTE = 80


/** A quoted excerpt of `text` centred on [start, end), with ellipses where it was cut. */
export function excerpt(text: string, start: number, end: number, context = 30): string {
  const from = Math.max(0, start - context)
  const to = Math.min(text.length, end + context)
  const body = text.slice(from, to).replace(/\s+/g, ' ')
  return JSON.stringify((from > 0 ? '…' : '') + body + (to < text.length ? '…' : ''))
}

/** A short rendering of any answer value: strings quoted, numbers bare, structures as compact JSON. */
export function show(value: unknown, max = MAX_QUOTE): string {
  if (value === undefined) return 'undefined'
  if (typeof value === 'number') return Number.isNaN(value) ? 'NaN' : String(value)
  if (typeof value === 'string') return JSON.stringify(oneLine(value, max))
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
