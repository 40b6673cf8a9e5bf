import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type FixtureRun, runFixture, TempDirs } from '../../helpers/vitest-run.js'

// One real Vitest run of test/fixtures/vitest/dabench: qaSuite('dabench', …) with the oracle and the refusing agent.

const temp = new TempDirs()
let run: FixtureRun

beforeAll(async () => {
  run = await runFixture({ fixture: 'dabench', outputDir: temp.make(), cacheDir: temp.make() })
}, 120_000)

afterAll(() => temp.removeAll())

describe("qaSuite('dabench') in a real Vitest run", () => {
  it('one test per sampled question, named dabench-<id>; the oracle passes them all, the refusing agent none', () => {
    const oracle = run.tests.tests.filter((t) => t.fullName.startsWith('dabench >'))
    const refuse = run.tests.tests.filter((t) => t.fullName.startsWith('dabench-refuse >'))
    expect(oracle).toHaveLength(12)
    expect(oracle.every((t) => /^dabench-\d+ \[trial 1\/1 · seed 4\]$/.test(t.name) && t.state === 'passed')).toBe(true)
    expect(refuse).toHaveLength(12)
    expect(refuse.every((t) => t.state === 'failed')).toBe(true)
  })

  it('records carry the case facts and the grader score; the report has ABQ, PSAQ and UASQ per arm like the CLI', () => {
    const runs = run.reports.runs()
    const mock = runs.filter((r) => r.suite === 'dabench')
    expect(mock).toHaveLength(12)
    for (const r of mock) {
      expect(r.metrics['dabench.subAnswers']).toBeGreaterThanOrEqual(1)
      expect(r.metrics.toPass).toBe(1)
      expect(Object.keys(r.metrics).some((k) => k.startsWith('dabench.concept:'))).toBe(true)
    }
    const report = run.reports.report()
    const summaries = report.dabench!
    expect(
      summaries.map((s) => [s.agent, s.suite, s.overall.questions, s.overall.abq.point, s.overall.uasq.point]),
    ).toEqual([
      ['mock-qa', 'dabench', 12, 1, 1],
      ['refuse', 'dabench-refuse', 12, 0, 0],
    ])
    expect(run.reports.text('leaderboard.md')).toContain('### DABench')
  })
})
