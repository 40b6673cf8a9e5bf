import type { Answer, GradeResult } from '../../core/answer.js'
import { InputError } from '../../core/errors.js'
import { answerNumberFromText } from './answer-number.js'
import { excerpt, kindOf, show } from './describe.js'
import { parseNumber } from './numbers.js'
import { DEFAULT_TOLERANCE, describeTolerance, withinTolerance } from './tolerance.js'
import type { SyncGrader } from './grader-types.js'

export interface NumericOptions {
  /** Absolute tolerance. Default 1e-9 (float noise); pass 0 together with `relTol: 0` for bit-exact. */
  tol?: number
  /** Tolerance relative to |expected|. Default 1e-9. */
  relTol?: number
  /** Read "12.5%" as 0.125 instead of 12.5 (strings and prose only; a number value is taken as is). */
  percentAsFraction?: boolean
}

type Found = { value: number; where: string } | { error: string }

/**
 * Passes when the answer's number is within max(tol, relTol·|expected|) of `expected`.
 *
 * `answer.value` is graded first and alone: a number, a string that is exactly one number (see
 * `parseNumber`), or a one-element list or one-cell table holding one. A wrong or unreadable `value`
 * fails even when the prose holds the right number. Only when `value` is absent (undefined or null) is the
 * text read, via `answerNumberFromText`: the number after the last answer marker, else the final number.
 */
export function numeric(expected: number, opts: NumericOptions = {}): SyncGrader {
  if (typeof expected !== 'number' || !Number.isFinite(expected)) {
    throw new InputError(`numeric(): expected must be a finite number, got ${show(expected)}`)
  }
  const tol = checkTolerance('tol', opts.tol)
  const relTol = checkTolerance('relTol', opts.relTol)
  // The default float-noise allowance is not worth a mention in every detail; a chosen tolerance is.
  const within = opts.tol === undefined && opts.relTol === undefined ? '' : describeTolerance(expected, tol, relTol)

  return (answer: Answer): GradeResult => {
    const found = findAnswerNumber(answer, opts)
    if ('error' in found) {
      return { passed: false, detail: `expected ${expected}${within}, but ${found.error}` }
    }
    const passed = withinTolerance(found.value, expected, tol, relTol)
    return {
      passed,
      detail: `expected ${expected}${within}, found ${found.value} (${found.where})`,
    }
  }
}

function checkTolerance(name: string, value: number | undefined): number {
  if (value === undefined) return DEFAULT_TOLERANCE
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new InputError(`numeric(): option ${name} must be a finite number ≥ 0, got ${show(value)}`)
  }
  return value
}

function findAnswerNumber(answer: Answer, opts: NumericOptions): Found {
  const value: unknown = answer.value
  if (value !== undefined && value !== null) return numberFromValue(value, 'value', opts)
  const text = answer.text
  if (typeof text !== 'string' || text.trim() === '') return { error: 'the answer has no value and no text' }
  const picked = answerNumberFromText(text, opts)
  if (!picked) return { error: `the text holds no number: ${show(text)}` }
  const at = excerpt(text, picked.match.index, picked.match.index + picked.match.text.length)
  const how =
    picked.source.kind === 'marker'
      ? `first number after the last ${JSON.stringify(picked.source.marker.trim())} in text`
      : 'final number in text'
  return { value: picked.value, where: `${how}: ${at}` }
}

function numberFromValue(value: unknown, path: string, opts: NumericOptions): Found {
  if (typeof value === 'number') {
    return Number.isFinite(value) ? { value, where: path } : { error: `${path} is ${show(value)}` }
  }
  if (typeof value === 'string') {
    const parsed = parseNumber(value, opts)
    return parsed === null
      ? { error: `${path} ${show(value)} is not a single number` }
      : { value: parsed, where: `${path} ${show(value)}` }
  }
  if (Array.isArray(value)) {
    if (value.length !== 1) return { error: `${path} is a list of ${value.length} items, not one number` }
    return numberFromValue(value[0], `${path}[0]`, opts)
  }
  if (kindOf(value) === 'table') {
    const { columns, rows } = value as { columns: unknown; rows: unknown }
    const cell = Array.isArray(rows) && rows.length === 1 && Array.isArray(rows[0]) ? rows[0] : undefined
    if (!Array.isArray(columns) || columns.length !== 1 || cell?.length !== 1) {
      const shape = Array.isArray(rows) && Array.isArray(columns) ? `${rows.length}×${columns.length}` : 'malformed'
      return { error: `${path} is a ${shape} table, not one cell` }
    }
    return numberFromValue(cell[0], `${path} cell [0][${show(columns[0])}]`, opts)
  }
  return { error: `${path} is a ${kindOf(value)} (${show(value)}), not a number` }
}
