import { AgentFailure } from '../../core/errors.js'
import type { Fix } from '../../core/schemas.js'
import { oneLine } from '../../core/text.js'
import { isPlainObject } from '../../core/is-plain-object.js'

export interface ParsedRepair {
  fixes: Fix[]
  warnings: string[]
}

export interface ParseContext {
  /** The choice's finish reason: `length` explains truncation, `content_filter` is a refusal. */
  finishReason?: string | null
  /** The provider's refusal field, where it has one. */
  refusal?: string | null
}

const REFUSAL =
  /\b(I'?m sorry|I am sorry|I apologi[sz]e|I can(?:not|'t|’t)|I am (?:not able|unable)|I'?m (?:not able|unable)|unable to (?:help|assist|comply)|I won'?t|I will not|as an AI)\b/i

/**
 * Model text → fixes. Strips code fences; accepts a bare JSON array of fixes or an object holding one under
 * `fixes` or `repairs`; each item needs `row`, `column` and `new_value` (or `newValue`). Malformed items are
 * skipped with a warning. Throws AgentFailure `parse_failure` (no usable JSON, or truncated JSON) or
 * `refusal` (the model declined).
 */
export function parseRepairResponse(text: string | null | undefined, ctx: ParseContext = {}): ParsedRepair {
  if (ctx.refusal) throw new AgentFailure('refusal', `the model refused: ${excerpt(ctx.refusal)}`)
  const raw = (text ?? '').trim()
  if (raw === '') {
    if (ctx.finishReason === 'content_filter')
      throw new AgentFailure('refusal', 'the answer was withheld by a content filter')
    throw new AgentFailure('parse_failure', `the answer is empty${finishNote(ctx)}`)
  }
  const value = extractJson(stripFences(raw), raw, ctx)
  return fixesOf(value)
}

/** The body of the first fenced block, or of an unclosed fence (a truncated answer), else the text. */
function stripFences(text: string): string {
  const closed = /```[\w-]*[^\S\n]*\n?([\s\S]*?)```/.exec(text)
  if (closed) return closed[1]!.trim()
  const open = /```[\w-]*[^\S\n]*\n?([\s\S]*)$/.exec(text)
  if (open) return open[1]!.trim()
  return text
}

function extractJson(body: string, raw: string, ctx: ParseContext): unknown {
  try {
    return JSON.parse(body)
  } catch {
    // Prose around the JSON, or not JSON at all: look for a bracketed value below.
  }
  let from = 0
  let lastError = ''
  for (let attempt = 0; attempt < 50; attempt++) {
    const start = firstBracket(body, from)
    if (start < 0) break
    const end = matchingEnd(body, start)
    if (end < 0) {
      throw new AgentFailure(
        'parse_failure',
        `truncated JSON: the answer ends before its closing bracket${finishNote(ctx)} (${body.length} characters)`,
      )
    }
    try {
      return JSON.parse(body.slice(start, end + 1))
    } catch (error) {
      lastError = (error as Error).message
      from = end + 1
    }
  }
  if (lastError) throw new AgentFailure('parse_failure', `invalid JSON in the answer: ${lastError}`)
  if (REFUSAL.test(raw)) throw new AgentFailure('refusal', `the model refused: ${excerpt(raw)}`)
  if (ctx.finishReason === 'content_filter') throw new AgentFailure('refusal', 'the answer was cut by a content filter')
  throw new AgentFailure('parse_failure', `no JSON in the answer: ${excerpt(raw)}`)
}

function firstBracket(text: string, from: number): number {
  const a = text.indexOf('[', from)
  const b = text.indexOf('{', from)
  if (a < 0) return b
  if (b < 0) return a
  return Math.min(a, b)
}

/** Index of the bracket closing the one at `start`, skipping JSON strings; -1 when the text ends first. */
function matchingEnd(text: string, start: number): number {
  let depth = 0
  let inString = false
  for (let i = start; i < text.length; i++) {
    const ch = text[i]
    if (inString) {
      if (ch === '\\') i++
      else if (ch === '"') inString = false
      continue
    }
    if (ch === '"') inString = true
    else if (ch === '[' || ch === '{') depth++
    else if (ch === ']' || ch === '}') {
      depth--
      if (depth === 0) return i
    }
  }
  return -1
}

function fixesOf(value: unknown): ParsedRepair {
  let items: unknown[]
  if (Array.isArray(value)) items = value
  else if (isPlainObject(value) && Array.isArray(value['fixes'])) items = value['fixes']
  else if (isPlainObject(value) && Array.isArray(value['repairs'])) items = value['repairs']
  else if (isPlainObject(value) && 'row' in value && 'column' in value) items = [value]
  else {
    throw new AgentFailure('parse_failure', 'the JSON holds no list of fixes (expected [...] or {"fixes": [...]})')
  }
  const fixes: Fix[] = []
  const warnings: string[] = []
  items.forEach((item, i) => {
    const result = fixOf(item)
    if (typeof result === 'string') warnings.push(`skipped fix #${i}: ${result}`)
    else fixes.push(result)
  })
  return { fixes, warnings }
}

/** A fix, or why the item is not one. */
function fixOf(item: unknown): Fix | string {
  if (!isPlainObject(item)) return `expected an object, got ${JSON.stringify(item)?.slice(0, 60)}`
  const row = rowOf(item['row'])
  if (row === undefined) return `row ${JSON.stringify(item['row'])} is not a non-negative integer`
  const column = item['column']
  if (typeof column !== 'string' || column === '') return `column ${JSON.stringify(column)} is not a column name`
  const rawValue = 'new_value' in item ? item['new_value'] : item['newValue']
  let newValue: string
  if (typeof rawValue === 'string') newValue = rawValue
  else if (typeof rawValue === 'number' || typeof rawValue === 'boolean') newValue = String(rawValue)
  else return `row ${row} column ${column}: new_value is missing or not a string`
  const fix: Fix = { row, column, newValue }
  if (typeof item['reason'] === 'string') fix.reason = item['reason']
  return fix
}

function rowOf(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value
  if (typeof value === 'string' && /^\d+$/.test(value.trim())) return Number(value.trim())
  return undefined
}

function finishNote(ctx: ParseContext): string {
  return ctx.finishReason ? ` (finish_reason ${ctx.finishReason})` : ''
}

function excerpt(text: string): string {
  return oneLine(text, 120)
}
