import { describe, expect, it } from 'vitest'
import type { Table } from '../../src/core/schemas.js'
import { createRepairTask } from '../../src/datasets/create-repair-task.js'
import { allOf, anyOf, contains, numeric } from '../../src/grading/index.js'
import { dataforgeMatchers } from '../../src/vitest/index.js'
import type { MatcherRecord } from '../../src/vitest/meta.js'
import { failureOf } from '../helpers/assertion-failure.js'

// The matchers in this very process: the repo's vitest.config.ts registers them through src/vitest/setup.ts.

const clean: Table = {
  columns: ['id', 'city', 'state', 'zip'],
  rows: [
    ['1', 'Boston', 'MA', '02108'],
    ['2', 'Austin', 'TX', '73301'],
    ['3', 'Denver', 'CO', '80202'],
    ['4', 'Seattle', 'WA', '98101'],
    ['5', 'Miami', 'FL', '33101'],
    ['6', 'Dallas', 'TX', '75201'],
    ['7', 'Tulsa', 'OK', '74103'],
  ],
}
const dirty: Table = {
  columns: clean.columns,
  rows: [
    ['1', 'Bostn', 'MA', '02108'],
    ['2', 'Austin', 'tx', '73301'],
    ['3', 'Denvr', 'CO', '8020'],
    ['4', 'Seattle', 'WA', '98101'],
    ['5', 'Maimi', 'FL', '33101'],
    ['6', 'Dalas', 'TX', '75201'],
    ['7', 'Tusla', 'OK', '74103'],
  ],
}
// Seven errors: (0,city) (1,state) (2,city) (2,zip) (4,city) (5,city) (6,city).
const { task } = createRepairTask({ name: 'cities', dirty, clean })
const allFixes = [
  { row: 0, column: 'city', newValue: 'Boston' },
  { row: 1, column: 'state', newValue: 'TX' },
  { row: 2, column: 'city', newValue: 'Denver' },
  { row: 2, column: 'zip', newValue: '80202' },
  { row: 4, column: 'city', newValue: 'Miami' },
  { row: 5, column: 'city', newValue: 'Dallas' },
  { row: 6, column: 'city', newValue: 'Tulsa' },
]
// Two right, one wrong value, one over-repair; five errors missed.
const partial = [
  { row: 0, column: 'city', newValue: 'Boston' },
  { row: 1, column: 'state', newValue: 'TX' },
  { row: 2, column: 'city', newValue: 'Denver, CO' },
  { row: 3, column: 'city', newValue: 'Seatle' },
]

const verdicts = (meta: { dataforge?: { matchers: MatcherRecord[] } }) =>
  (meta.dataforge?.matchers ?? []).map((m) => [m.matcher, m.passed, m.negated])

describe('toRepairCells', () => {
  it('passes on a perfect repair and stores the full score on the running test', ({ task: test }) => {
    expect(allFixes).toRepairCells(task)
    expect({ fixes: allFixes }).toRepairCells(task)
    const [first] = test.meta.dataforge!.matchers
    expect(first).toMatchObject({
      matcher: 'toRepairCells',
      passed: true,
      negated: false,
      score: 1,
      summary: 'F1 1.000 (P 1.000 R 1.000) tp 7 fp 0 fn 0',
    })
    expect(first!.repair).toMatchObject({ tp: 7, fp: 0, fn: 0 })
  })

  it('defaults to F1 = 1 and names metric, value and threshold, then lists wrong and missed cells', ({
    task: test,
  }) => {
    const message = failureOf(() => expect(partial).toRepairCells(task))
    expect(message.split('\n')).toEqual([
      'toRepairCells: F1 0.364 is below 1 — F1 0.364 (P 0.500 R 0.286) tp 2 fp 2 fn 5',
      'wrong values:',
      '  2, city: "Denver, CO" → "Denver"',
      'missed cells:',
      '  2, zip: (left as "8020") → "80202"',
      '  4, city: (left as "Maimi") → "Miami"',
      '  5, city: (left as "Dalas") → "Dallas"',
      '  6, city: (left as "Tusla") → "Tulsa"',
      'over-repairs:',
      '  3, city: "Seatle" → (no error; was "Seattle")',
    ])
    expect(verdicts(test.meta)).toEqual([['toRepairCells', false, false]])
  })

  it('lists only the first five cells of a long list', () => {
    const message = failureOf(() => expect([]).toRepairCells(task))
    expect(message).toContain('missed cells (first 5 of 7):')
    expect(message.split('\n').filter((l) => l.startsWith('  '))).toHaveLength(5)
  })

  it('checks each given bar and reports every one that is missed', () => {
    expect(partial).toRepairCells(task, { minPrecision: 0.5 })
    expect(partial).toRepairCells(task, { minF1: 0.35, minRecall: 0.25 })
    const message = failureOf(() =>
      expect(partial).toRepairCells(task, { minPrecision: 0.9, minRecall: 0.5, minF1: 0.3 }),
    )
    expect(message.split('\n')[0]).toBe(
      'toRepairCells: precision 0.500 is below 0.9; recall 0.286 is below 0.5 — F1 0.364 (P 0.500 R 0.286) tp 2 fp 2 fn 5',
    )
  })

  it('works with .not, and says so when the repair unexpectedly reaches the bar', ({ task: test }) => {
    expect(partial).not.toRepairCells(task)
    const message = failureOf(() => expect(allFixes).not.toRepairCells(task, { minF1: 0.9 }))
    expect(message).toBe(
      'toRepairCells: expected the grader to reject, but it passed: F1 1.000 (P 1.000 R 1.000) tp 7 fp 0 fn 0',
    )
    expect(verdicts(test.meta)).toEqual([
      ['toRepairCells', true, true],
      ['toRepairCells', false, true],
    ])
  })

  it('refuses thresholds that are not numbers between 0 and 1, naming the option', () => {
    expect(() => expect(allFixes).toRepairCells(task, { minF1: 1.5 })).toThrow(
      'toRepairCells: minF1 must be a number between 0 and 1, got 1.5',
    )
    expect(() => expect(allFixes).toRepairCells(task, { minRecall: '0.5' as unknown as number })).toThrow(
      'toRepairCells: minRecall must be a number between 0 and 1, got "0.5"',
    )
  })

  it('counts malformed output as false positives instead of crashing', () => {
    const message = failureOf(() => expect([{ row: 'x' }, ...allFixes]).toRepairCells(task))
    expect(message).toMatch(/^toRepairCells: F1 0\.933 is below 1 .* tp 7 fp 1 fn 0\n/)
    expect(message).toContain('malformed fixes: ')
  })
})

describe('answer matchers', () => {
  const chart = { mark: 'bar', data: { values: [{ a: 1 }] }, encoding: { x: { field: 'a', type: 'quantitative' } } }

  it('pass on right answers and fail on wrong ones with the grader detail, both ways round with .not', ({
    task: test,
  }) => {
    expect({ value: 42 }).toBeNumeric(42)
    expect({ text: 'The answer is 42.' }).toBeNumeric(42)
    expect({ value: 41 }).not.toBeNumeric(42)
    expect(failureOf(() => expect({ value: 41 }).toBeNumeric(42))).toMatch(/^toBeNumeric: .*42.*41/)

    expect('The top customer is Cara.').toContainAnswer('Cara')
    expect({ text: 'It is Ben.' }).not.toContainAnswer('Cara')
    expect(failureOf(() => expect({ text: 'It is Ben.' }).toContainAnswer('Cara'))).toMatch(/^toContainAnswer: .*Cara/)

    expect({ value: ['a', 'b'] }).toExactlyEqual(['a', 'b'])
    expect({ value: ['a', 'b'] }).not.toExactlyEqual(['b', 'a'])
    expect(failureOf(() => expect({ value: 'x' }).toExactlyEqual('y'))).toMatch(/^toExactlyEqual: /)

    expect({ value: { columns: ['x'], rows: [['1']] } }).toEqualTable([{ x: 1 }])
    expect({ value: { columns: ['x'], rows: [['2']] } }).not.toEqualTable([{ x: 1 }])

    expect({ refused: true, text: "I can't answer that." }).toRefuse()
    expect({ value: 3 }).not.toRefuse()
    expect(failureOf(() => expect({ value: 3, text: '3' }).toRefuse())).toMatch(/^toRefuse: /)

    expect({ charts: [chart] }).toProduceChart({ mark: 'bar', encodings: ['x'] })
    expect({ text: 'no chart' }).not.toProduceChart()
    expect(failureOf(() => expect({ charts: [chart] }).toProduceChart({ mark: 'line' }))).toMatch(
      /^toProduceChart: .*"line"/,
    )

    const rows = verdicts(test.meta)
    expect(rows).toHaveLength(18)
    expect(rows.filter(([, passed]) => !passed).map(([m]) => m)).toEqual([
      'toBeNumeric',
      'toContainAnswer',
      'toExactlyEqual',
      'toRefuse',
      'toProduceChart',
    ])
    expect(rows.filter(([, , negated]) => negated)).toHaveLength(6)
    const summaries = test.meta.dataforge!.matchers.map((m) => m.summary)
    expect(summaries[2]).toBe('not.toBeNumeric passed: expected 42, found 41 (value)')
    expect(summaries[3]).toBe('toBeNumeric failed: expected 42, found 41 (value)')
  })

  it('toPass takes any grader, including allOf and anyOf compositions, and works with .not', async ({ task: test }) => {
    const answer = { value: 567.75, text: 'Total revenue is $567.75.' }
    await expect(answer).toPass(allOf(numeric(567.75), contains('revenue')))
    await expect(answer).toPass(anyOf(numeric(1), contains('revenue')))
    await expect(answer).not.toPass(allOf(numeric(567.75), contains('profit')))
    expect(answer).toPass(numeric(567.75))
    await expect(expect(answer).toPass(allOf(numeric(1), contains('revenue')))).rejects.toThrow(
      /^toPass: all of 2: 1 passed — \[1\] FAIL: .*\| \[2\] pass: /,
    )
    expect(() => expect(answer).toPass('numeric' as never)).toThrow('toPass(grader): grader must be a function')
    const passes = test.meta.dataforge!.matchers.map((m) => [m.passed, m.negated, m.score])
    expect(passes).toEqual([
      [true, false, 1],
      [true, false, 1],
      [true, true, 0.5],
      [true, false, 1],
      [false, false, 0.5],
    ])
  })

  it('toStayWithinBudget checks a run’s usage and names the metric, value and limit', ({ task: test }) => {
    const run = {
      fixes: [],
      usage: { calls: 2, promptTokens: 100, completionTokens: 10, quotaUnits: 1.5, costUsd: 0.002 },
    }
    expect(run).toStayWithinBudget({ tokens: 200, calls: 2 })
    expect(run).not.toStayWithinBudget({ usd: 0.001 })
    expect(failureOf(() => expect(run).toStayWithinBudget({ tokens: 100, quotaUnits: 2 }))).toBe(
      'toStayWithinBudget: over budget: tokens 110 > 100, quotaUnits 1.5 <= 2',
    )
    expect(test.meta.dataforge!.matchers.map((m) => [m.matcher, m.passed, m.negated])).toEqual([
      ['toStayWithinBudget', true, false],
      ['toStayWithinBudget', true, true],
      ['toStayWithinBudget', false, false],
    ])
  })

  it('are all registered by the setup entry', () => {
    for (const name of Object.keys(dataforgeMatchers))
      expect(typeof (expect('x') as unknown as Record<string, unknown>)[name]).toBe('function')
  })
})
