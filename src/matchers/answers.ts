import type { Answer, GradeResult, Grader } from '../core/answer.js'
import type { Table } from '../core/schemas.js'
import { chartProduced, contains, exact, numeric, refuses, tableEquals } from '../grading/answers/index.js'
import type { ContainsOptions, NumericOptions, TableEqualsOptions } from '../grading/answers/index.js'
import { concludeGrade, type MatcherContext, type MatcherOutcome } from './conclude.js'

const ANSWER_KEYS = ['value', 'text', 'charts', 'refused']

function isAnswer(x: unknown): x is Answer {
  return typeof x === 'object' && x !== null && !Array.isArray(x) && ANSWER_KEYS.some((k) => k in x)
}

/** An Answer as is; a bare string is prose for text graders and a value for value graders; anything else a value. */
function toAnswer(received: unknown, bareStringAs: 'text' | 'value'): Answer {
  if (isAnswer(received)) return received
  if (typeof received === 'string') return bareStringAs === 'text' ? { text: received } : { value: received }
  return { value: received as Answer['value'] }
}

function grade(
  ctx: MatcherContext,
  matcher: string,
  grader: Grader,
  answer: Answer,
): MatcherOutcome | Promise<MatcherOutcome> {
  const result = grader(answer)
  return isPromise(result) ? result.then((r) => concludeGrade(ctx, matcher, r)) : concludeGrade(ctx, matcher, result)
}

function isPromise(x: GradeResult | Promise<GradeResult>): x is Promise<GradeResult> {
  return typeof (x as Promise<GradeResult>).then === 'function'
}

export function toBeNumeric(this: MatcherContext, received: unknown, expected: number, opts: NumericOptions = {}) {
  return grade(this, 'toBeNumeric', numeric(expected, opts), toAnswer(received, 'value'))
}

export function toContainAnswer(
  this: MatcherContext,
  received: unknown,
  expected: string | string[],
  opts: ContainsOptions = {},
) {
  return grade(this, 'toContainAnswer', contains(expected, opts), toAnswer(received, 'text'))
}

export function toExactlyEqual(this: MatcherContext, received: unknown, expected: unknown) {
  return grade(this, 'toExactlyEqual', exact(expected), toAnswer(received, 'value'))
}

export function toEqualTable(
  this: MatcherContext,
  received: unknown,
  expected: Table | Record<string, unknown>[],
  opts: TableEqualsOptions = {},
) {
  return grade(this, 'toEqualTable', tableEquals(expected, opts), toAnswer(received, 'value'))
}

export function toRefuse(this: MatcherContext, received: unknown) {
  return grade(this, 'toRefuse', refuses(), toAnswer(received, 'text'))
}

export function toProduceChart(
  this: MatcherContext,
  received: unknown,
  opts: Parameters<typeof chartProduced>[0] = {},
) {
  return grade(this, 'toProduceChart', chartProduced(opts), toAnswer(received, 'value'))
}

/** Any grader, including `allOf(...)` / `anyOf(...)` compositions; async graders need `await expect(…)`. */
export function toPass(this: MatcherContext, received: unknown, grader: Grader) {
  if (typeof grader !== 'function')
    throw new TypeError('toPass(grader): grader must be a function (answer) => { passed, detail }')
  return grade(this, 'toPass', grader, toAnswer(received, 'text'))
}
