import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunRecord } from '../../src/core/run-record.js'
import { type FixtureRun, runFixture, TempDirs } from '../helpers/vitest-run.js'

// One real Vitest run of test/fixtures/vitest/conformance: toMatchDistribution in plain tests, with field,
// function and model classifiers (the model is a chat-completions server on 127.0.0.1).

const temp = new TempDirs()
let run: FixtureRun
let runs: RunRecord[]

beforeAll(async () => {
  run = await runFixture({ fixture: 'conformance', outputDir: temp.make(), cacheDir: temp.make() })
  runs = run.reports.runs()
}, 60_000)
afterAll(() => temp.removeAll())

const recordOf = (name: string) => {
  const found = runs.find((r) => r.caseId === name)
  if (!found) throw new Error(`no record "${name}": ${runs.map((r) => r.caseId).join(', ')}`)
  return found
}

describe('toMatchDistribution', () => {
  it('passes an exact mix (no bar: score 100) and records score and metrics on the run', () => {
    const t = run.tests.byName('exact mix')
    expect(t.state).toBe('passed')
    expect(t.meta!.matchers).toEqual([
      expect.objectContaining({ matcher: 'toMatchDistribution', passed: true, negated: false, score: 1 }),
    ])
    // A verdict that held is on the meta, not annotated (only failures are; README, Matchers).
    expect(t.meta!.matchers.map((m) => m.summary)).toEqual([
      'toMatchDistribution passed: conformance 100.0 · worst sentiment 100.0 · p sentiment 1.0000',
    ])
    expect(t.annotations).toEqual([])
    expect(recordOf('exact mix')).toMatchObject({
      status: 'ok',
      correct: true,
      suite: 'conformance',
      metrics: {
        conformanceScore: 100,
        'conformance.sentiment.score': 100,
        'conformance.sentiment.analyzed': 10,
        toMatchDistribution: 1,
      },
    })
  })

  it('fails below minScore with the reason and the generated explanation; the record carries the score', () => {
    const t = run.tests.byName('worked example below the bar')
    expect(t.state).toBe('failed')
    expect(t.errors[0]).toContain(
      'toMatchDistribution: score 95.0 is below 99.0. Conformance score 95.0 of 100 over 100 samples.',
    )
    const r = recordOf('worked example below the bar')
    expect(r).toMatchObject({ status: 'ok', correct: false })
    expect(r.metrics['conformanceScore']).toBe(95)
    expect(r.metrics['conformance.sentiment.p']).toBeCloseTo(0.6106345802, 8)
  })

  it('works under .not', () => {
    const t = run.tests.byName('worked example, negated bar')
    expect(t.state).toBe('passed')
    expect(t.meta!.matchers[0]).toMatchObject({ passed: true, negated: true })
    expect(t.meta!.matchers[0]!.summary).toMatch(/^not\.toMatchDistribution passed: conformance 95\.0/)
  })

  it('fails on a significant departure at alpha even without minScore', () => {
    const t = run.tests.byName('significant departure')
    expect(t.state).toBe('failed')
    expect(t.errors[0]).toMatch(/sentiment departs from the request \(p < 0\.001 < α = 0\.05\)/)
  })

  it('a classifier failing on every sample is a failed run, not a wrong answer', () => {
    const t = run.tests.byName('classifier fails on every sample')
    expect(t.state).toBe('failed')
    expect(t.errors[0]).toContain(
      'the evaluation failed: the classifier function:classify labelled none of the 3 samples',
    )
    expect(recordOf('classifier fails on every sample')).toMatchObject({
      status: 'failed',
      failureKind: 'exception',
      correct: null,
      failureMessage: expect.stringContaining('labeller offline'),
    })
  })

  it('awaits a model classifier over HTTP: labels normalized, an answer outside the labels unclassified, usage recorded', () => {
    const t = run.tests.byName('model classifier on loopback')
    expect(t.state).toBe('passed')
    // 20 samples; the judge answers "Positive." style labels (normalized) and "banana" for one negative review.
    // Analyzed 8/5/6 of 19 against 40/30/30: TVD = ½(|.4211 − .4| + |.2632 − .3| + |.3158 − .3|) = 0.0368 → 96.3.
    expect(t.meta!.matchers[0]!.summary).toMatch(
      /^toMatchDistribution passed: conformance 96\.3 · worst sentiment 96\.3 · p sentiment [0-9.]+ · 1 unclassified$/,
    )
    const r = recordOf('model classifier on loopback')
    expect(r.usage.calls).toBe(20)
    expect(r.metrics['conformance.sentiment.analyzed']).toBe(19)
  })

  it('puts a conformance section in the leaderboard: score, worst property, p-values', () => {
    const md = run.reports.text('leaderboard.md')
    expect(md).toContain('## Synthetic-data conformance')
    expect(md).toContain('| plain test | exact mix | 100.0 | sentiment 100.0 | sentiment 1.0000 | — | pass |')
    expect(md).toContain(
      '| plain test | worked example below the bar | 95.0 | sentiment 95.0 | sentiment 0.6106 | — | fail |',
    )
    expect(md).toContain(
      '| plain test | classifier fails on every sample | FAILED | — | sentiment n/a | — | failed: exception |',
    )
  })
})
