import { describe, expect, it } from 'vitest'
import { noopQaAgent, refusingAgent, suiteOracle } from '../../src/adapters/suite-oracle.js'
import type { DataAgent } from '../../src/core/data-agent.js'
import {
  bespokeSuite,
  cleanSales,
  hardSuite,
  isConversationCase,
  LARGE_ROWS,
  largeEventsTable,
  largeReadingsTable,
  largeSuite,
  MESSY_CATEGORIES,
  messySalesTable,
  messySuite,
  type QaCase,
  READINGS_ROWS,
  SNAPSHOT_ROWS,
  turnsOf,
} from '../../src/datasets/questions/index.js'
import { wtqSuite } from '../../src/datasets/wtq/suite.js'
import { hashOf } from '../../src/core/hash.js'
import { AgentFailure } from '../../src/core/errors.js'
import { runQaTrial } from '../../src/run/run-qa-trial.js'

const provenance = { projectCommit: null, runDateUtc: '2026-01-01T00:00:00.000Z' }

async function score(agent: DataAgent, cases: QaCase[]) {
  const records = (
    await Promise.all(
      cases.map((qaCase) =>
        runQaTrial({ agent, qaCase, suite: 's', trial: 0, seed: 1, timeoutMs: 10_000, provenance }),
      ),
    )
  ).flat()
  return records
}

const SUITES = { bespoke: bespokeSuite, hard: hardSuite, large: largeSuite, messy: messySuite, wtq: wtqSuite }
const MIN_CASES = { bespoke: 14, hard: 12, large: 6, messy: 10, wtq: 200 }

describe('question suites', () => {
  for (const [name, suite] of Object.entries(SUITES)) {
    it(`${name}: enough cases, unique ids, the oracle scores 100%, refuse passes only refusals, noop-qa nothing`, async () => {
      const cases = await suite({ seed: 1 })
      expect(cases.length).toBeGreaterThanOrEqual(MIN_CASES[name as keyof typeof MIN_CASES])
      expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length)
      const oracle = await score(suiteOracle, cases)
      expect(oracle.filter((r) => r.correct !== true).map((r) => `${r.caseId}: ${r.validationError}`)).toEqual([])
      const refuse = await score(refusingAgent, cases)
      for (const r of refuse) expect(r.correct).toBe(r.category === 'refusal')
      const noop = await score(noopQaAgent, cases)
      expect(noop.filter((r) => r.correct !== false)).toEqual([])
    }, 30_000)
  }

  it('bespoke covers aggregation, filter, group-by, ranking, charts and refusals', () => {
    const categories = new Set(bespokeSuite({ seed: 1 }).map((c) => c.category))
    expect([...categories].sort()).toEqual(['aggregation', 'chart', 'filter', 'group-by', 'ranking', 'refusal'])
  })

  it('hard has joins over 2, 3 and 4 tables, three-step questions and conversations of 3+ turns', () => {
    const cases = hardSuite({ seed: 1 })
    for (const c of ['join-2', 'join-3', 'join-4', 'multi-step']) expect(cases.some((x) => x.category === c)).toBe(true)
    const conversations = cases.filter(isConversationCase)
    expect(conversations.length).toBeGreaterThanOrEqual(3)
    for (const c of conversations) {
      expect(c.turns.length).toBeGreaterThanOrEqual(3)
      expect(c.turns.slice(1).some((t) => /^Using \w+/.test(t.question))).toBe(true)
    }
  })

  it('suites are deterministic given the seed and differ across seeds', async () => {
    for (const suite of [bespokeSuite, hardSuite, messySuite]) {
      const fingerprint = (seed: number) =>
        suite({ seed }).map((c) => [c.id, turnsOf(c).map((t) => t.question), hashOf(c.data)])
      expect(fingerprint(7)).toEqual(fingerprint(7))
      expect(fingerprint(7)).not.toEqual(fingerprint(8))
    }
  })

  it('no seed in 1..30 produces an ambiguous (tied) question', () => {
    for (let seed = 1; seed <= 30; seed++) {
      expect(() => bespokeSuite({ seed })).not.toThrow()
      expect(() => hardSuite({ seed })).not.toThrow()
    }
  })

  it('case data is frozen: an agent that mutates it fails its own run and cannot change later trials', async () => {
    const cases = bespokeSuite({ seed: 1 }).filter((c) => c.id === 'bespoke-order-count')
    const vandal: DataAgent = {
      name: 'vandal',
      session: (tables) => ({
        ask: () => {
          tables.orders!.rows.length = 0
          return { value: 0 }
        },
      }),
    }
    const [record] = await score(vandal, cases)
    expect(record).toMatchObject({ status: 'failed', failureKind: 'exception' })
    expect(record!.failureMessage).toMatch(/TypeError/)
    const [after] = await score(suiteOracle, cases)
    expect(after!.correct).toBe(true)
  })

  it("an answer's counters (tool calls…) land in the record's metrics, also when the question fails", async () => {
    const cases = bespokeSuite({ seed: 1 }).filter((c) => c.id === 'bespoke-order-count')
    const counting: DataAgent = {
      name: 'counting',
      session: () => ({ ask: () => ({ value: 0, metrics: { toolCalls: 3, 'toolCalls.sql': 2 } }) }),
    }
    const [ok] = await score(counting, cases)
    expect(ok!.metrics).toMatchObject({ toolCalls: 3, 'toolCalls.sql': 2 })
    const failing: DataAgent = {
      name: 'failing',
      session: () => ({
        ask: () => {
          throw new AgentFailure('no_answer', 'ran out of steps', { metrics: { toolCalls: 16 } })
        },
      }),
    }
    const [failed] = await score(failing, cases)
    expect(failed).toMatchObject({ status: 'failed', failureKind: 'no_answer', metrics: { toolCalls: 16 } })
  })

  it('a wrong answer fails with the grader detail', async () => {
    const cases = bespokeSuite({ seed: 1 }).filter((c) => c.id === 'bespoke-order-count')
    const zero: DataAgent = { name: 'zero', session: () => ({ ask: () => ({ value: 0 }) }) }
    const [record] = await score(zero, cases)
    expect(record!.correct).toBe(false)
    expect(record!.validationError).toMatch(/^expected \d+, found 0/)
  })
})

describe('large suite', () => {
  it('builds tables of at least 100,000 rows in memory', () => {
    const readings = largeReadingsTable(1).table
    expect(readings.rows.length).toBe(READINGS_ROWS)
    expect(readings.rows[0]).toEqual(['S-001', '2024-01-01 00:00', expect.stringMatching(/^\d+\.\d$/)])
    expect(readings.rows.every((r) => /^S-\d{3}$/.test(r[0]!) && /^2024-\d\d-\d\d \d\d:\d\d$/.test(r[1]!))).toBe(true)
    expect(READINGS_ROWS).toBeGreaterThanOrEqual(100_000)
    const { table } = largeEventsTable(1)
    expect(table.rows.length).toBe(LARGE_ROWS)
    expect(LARGE_ROWS).toBeGreaterThanOrEqual(100_000)
    for (const c of largeSuite({ seed: 1 }))
      expect(Object.values(c.data)[0]!.rows.length).toBeGreaterThanOrEqual(100_000)
  })

  it('snapshot trap: answers computed from the first rows an agent is shown fail the grader', async () => {
    const cases = largeSuite({ seed: 1 })
    const head = Object.values(cases[0]!.data)[0]!.rows.slice(0, SNAPSHOT_ROWS)
    const readingsCase = cases.find((c) => 'readings' in c.data)!
    const readingsHead = readingsCase.data.readings!.rows.slice(0, SNAPSHOT_ROWS)
    const temps = readingsHead.map((r) => Number(r[2]))
    const amounts = head.map((r) => Number(r[4]))
    const sum = amounts.reduce((a, b) => a + b, 0)
    const decoys: Record<string, unknown> = {
      'large-total-amount': Math.round((sum / head.length) * LARGE_ROWS * 100) / 100, // head mean × row count
      'large-mean-amount': Math.round((sum / head.length) * 100) / 100,
      'large-distinct-users': new Set(head.map((r) => r[1])).size,
      'large-brazil-events': head.filter((r) => r[2] === 'BR').length,
      'large-top-country': 'US',
      'large-mobile-share': (100 * head.filter((r) => r[3] === 'mobile').length) / head.length,
      'large-refunded-amount': head.filter((r) => r[5] === 'refunded').reduce((s, r) => s + Number(r[4]), 0),
      'large-readings-mean': Math.round((temps.reduce((a, b) => a + b, 0) / temps.length) * 100) / 100,
      'large-readings-above-40': temps.filter((t) => t > 40).length,
      'large-readings-hot-sensors': new Set(readingsHead.filter((r) => Number(r[2]) > 40).map((r) => r[0])).size,
    }
    for (const c of cases) {
      expect(decoys, c.id).toHaveProperty([c.id])
      const verdict = await turnsOf(c)[0]!.grader({ value: decoys[c.id] as number | string })
      expect(verdict.passed, `${c.id}: decoy ${String(decoys[c.id])} — ${verdict.detail}`).toBe(false)
    }
  })
})

describe('messy suite', () => {
  // Worked out by hand from MESSY_RECORDS (12 orders, amounts of 1005 and 1009 missing, 3 duplicated rows):
  //   Electronics: 1200 + 899.99 + 2150 = 4249.99; Furniture: 350.50 + 780 + 1025 = 2155.50;
  //   Office Supplies: 45.25 + 12.75 + 64 + 8.50 = 130.50; total 4249.99 + 2155.50 + 130.50 = 6535.99
  //   mean over the 10 priced orders: 653.599 → 653.60; largest: 2150
  //   March: 1006, 1007, 1008, 1009 → 4 orders, 12.75 + 2150 + 780 = 2942.75
  //   Q1: January 1200 + 350.50 = 1550.50; February 45.25 + 899.99 = 945.24; March 2942.75 → 5438.49
  //   customers: Ana 1200 + 899.99 + 8.50 = 2108.49; Ben 350.50 + 2150 = 2500.50 → Ben
  const HAND: Record<string, number | string> = {
    'messy-total-amount': 6535.99,
    'messy-unique-orders': 12,
    'messy-duplicate-rows': 3,
    'messy-missing-amounts': 2,
    'messy-mean-amount': 653.6,
    'messy-largest-order': 2150,
    'messy-electronics-total': 4249.99,
    'messy-distinct-categories': 3,
    'messy-top-category': 'Electronics',
    'messy-march-orders': 4,
    'messy-march-amount': 2942.75,
    'messy-q1-amount': 5438.49,
    'messy-top-customer': 'Ben',
  }

  it('every expected answer (from the reference cleaner) matches the value worked out by hand, for several seeds', async () => {
    for (const seed of [1, 2, 3, 17]) {
      const cases = messySuite({ seed })
      expect(cases.map((c) => c.id).sort()).toEqual(Object.keys(HAND).sort())
      for (const c of cases) {
        const expected = await suiteOracle.session(c.data, { seed })
        const answer = await expected.ask(turnsOf(c)[0]!.question)
        expect(answer.value, `${c.id} seed ${seed}`).toBe(HAND[c.id])
      }
    }
  })

  it('the table really is messy: currency strings, mixed dates, label variants, missing tokens, duplicates', () => {
    const table = messySalesTable(3)
    const cells = table.rows.flat().join('\n')
    expect(cells).toMatch(/\$|USD|€/)
    expect(cells).toMatch(/\d,\d{3}/)
    expect(table.rows.length).toBe(15)
    const dates = table.rows.map((r) => r[1]!)
    expect(dates.some((d) => /^\d{4}-\d\d-\d\d$/.test(d)) && dates.some((d) => /[A-Za-z]/.test(d))).toBe(true)
    expect(new Set(table.rows.map((r) => r[3])).size).toBeGreaterThan(3)
    expect(cleanSales(table, MESSY_CATEGORIES).duplicatesRemoved).toBe(3)
  })
})
