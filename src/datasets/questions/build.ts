import type { Answer, Grader } from '../../core/answer.js'
import type { Table } from '../../core/schemas.js'
import { allOf } from '../../grading/answers/compose.js'
import { chartProduced } from '../../grading/answers/chart.js'
import { contains } from '../../grading/answers/contains.js'
import { exact } from '../../grading/answers/exact.js'
import { numeric } from '../../grading/answers/numeric.js'
import { refuses } from '../../grading/answers/refuses.js'
import { tableEquals } from '../../grading/answers/table-equals.js'
import { chartUsesFields } from './chart-fields.js'
import { registerCase, setExpectedAnswer } from './expected.js'
import type { ConversationQaCase, QaTurn, SingleQaCase } from './types.js'

/**
 * Helpers for writing suites: each pairs a grader with the answer a perfect agent gives, derived from the
 * same computed value, so no expected answer is ever typed in by hand.
 */
export interface Expectation {
  grader: Grader
  answer: Answer
}

/** A number, within `tol` (default: half of the last shown decimal when `decimals` is given, else float noise). */
export function expectNumber(value: number, opts: { decimals?: number; tol?: number } = {}): Expectation {
  const shown = opts.decimals === undefined ? value : round(value, opts.decimals)
  const tol = opts.tol ?? (opts.decimals === undefined ? undefined : 0.5 * 10 ** -opts.decimals + 1e-9)
  return {
    grader: numeric(shown, tol === undefined ? {} : { tol }),
    answer: { value: shown, text: `The answer is ${shown}.` },
  }
}

/** A name or label, matched as whole words in the value or the text. */
export function expectText(value: string): Expectation {
  return { grader: contains(value), answer: { value, text: value } }
}

/** An ordered list, compared exactly. */
export function expectList(values: string[]): Expectation {
  return { grader: exact(values), answer: { value: values, text: values.join(', ') } }
}

/** A table, row order ignored, numeric cells within `tol`. */
export function expectTable(table: Table, opts: { tol?: number } = {}): Expectation {
  return {
    grader: tableEquals(table, { ignoreRowOrder: true, ...(opts.tol === undefined ? {} : { tol: opts.tol }) }),
    answer: { value: table },
  }
}

/** A refusal: the data cannot answer the question. */
export function expectRefusal(reason: string): Expectation {
  return { grader: refuses(), answer: { refused: true, text: `I can't answer that: ${reason}.` } }
}

/** A valid Vega-Lite chart with this mark whose x and y encode these fields. */
export function expectChart(opts: {
  mark: string
  x: string
  y: string
  values: Record<string, unknown>[]
}): Expectation {
  const spec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    data: { values: opts.values },
    mark: opts.mark,
    encoding: { x: { field: opts.x, type: 'nominal' }, y: { field: opts.y, type: 'quantitative' } },
  }
  return {
    grader: allOf(chartProduced({ mark: opts.mark, encodings: ['x', 'y'] }), chartUsesFields({ x: opts.x, y: opts.y })),
    answer: { charts: [spec], text: `A ${opts.mark} chart of ${opts.y} by ${opts.x}.` },
  }
}

export function turn(question: string, expectation: Expectation): QaTurn {
  return setExpectedAnswer({ question, grader: expectation.grader }, expectation.answer)
}

export function singleCase(
  id: string,
  category: string,
  data: Record<string, Table>,
  question: string,
  expectation: Expectation,
): SingleQaCase {
  return registerCase(
    setExpectedAnswer({ id, category, data, question, grader: expectation.grader }, expectation.answer),
  )
}

export function conversationCase(
  id: string,
  category: string,
  data: Record<string, Table>,
  turns: QaTurn[],
): ConversationQaCase {
  return registerCase({ id, category, data, turns })
}

export function round(value: number, decimals: number): number {
  const f = 10 ** decimals
  return Math.round((value + Number.EPSILON * Math.sign(value)) * f) / f
}

/** Records → a Table of literal strings, columns in the given order. */
export function tableOf(columns: string[], rows: Array<Array<string | number>>): Table {
  return { columns, rows: rows.map((r) => r.map((v) => (typeof v === 'number' ? String(v) : v))) }
}

class TieError extends Error {}

/** The key with the largest value; a tie throws TieError, so suites can regenerate instead of asking an ambiguous question. */
export function strictArgMax(values: Map<string, number>): string {
  let best: string | null = null
  let bestValue = Number.NEGATIVE_INFINITY
  let tied = false
  for (const [key, value] of values) {
    if (Math.abs(value - bestValue) < 1e-9) tied = true
    else if (value > bestValue) {
      best = key
      bestValue = value
      tied = false
    }
  }
  if (best === null || tied) throw new TieError(`tie for the largest value (${bestValue})`)
  return best
}

/** Runs `build(attempt)` until it stops throwing TieError: deterministic for a seed, never an ambiguous question. */
export function withoutTies<T>(build: (attempt: number) => T, maxAttempts = 50): T {
  for (let attempt = 0; attempt < maxAttempts; attempt++) {
    try {
      return build(attempt)
    } catch (error) {
      if (!(error instanceof TieError)) throw error
    }
  }
  throw new Error(`suite data kept producing ties after ${maxAttempts} attempts`)
}

export function sumBy<T>(
  items: readonly T[],
  key: (item: T) => string,
  value: (item: T) => number,
): Map<string, number> {
  const out = new Map<string, number>()
  for (const item of items) out.set(key(item), (out.get(key(item)) ?? 0) + value(item))
  return out
}

/** Keys from largest to smallest; a tie among the first `top` places (or at the cut) throws, so no ranking question is ambiguous. */
export function rankStrict(values: Map<string, number>, top: number): string[] {
  const sorted = [...values].sort((a, b) => b[1] - a[1])
  for (let i = 1; i < Math.min(sorted.length, top + 1); i++) {
    if (Math.abs(sorted[i]![1] - sorted[i - 1]![1]) < 1e-9) strictArgMax(new Map([sorted[i - 1]!, sorted[i]!]))
  }
  return sorted.map(([k]) => k)
}
