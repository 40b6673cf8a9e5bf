import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FixtureControl } from './fixtures/vitest/agents.js'
import { type FixtureRunOptions, runFixture, TempDirs } from './fixtures/vitest/run-fixture.js'

// Real Vitest runs of test/fixtures/vitest/baseline: `steady` always repairs everything; `drifting` (agent
// `drifty`, 8 trials) fails on the trials a control file lists. The baseline lives in one report folder.

const temp = new TempDirs()
let outputDir: string
let controlFile: string
let cacheDir: string

beforeAll(() => {
  outputDir = temp.make()
  cacheDir = temp.make()
  controlFile = join(temp.make(), 'control.json')
})
afterAll(() => temp.removeAll())

function runWith(control: FixtureControl, opts: Partial<FixtureRunOptions> = {}) {
  writeFileSync(controlFile, JSON.stringify(control))
  return runFixture({ fixture: 'baseline', outputDir, cacheDir, env: { DF_FIXTURE_CONTROL: controlFile }, ...opts })
}

const failedTests = (run: Awaited<ReturnType<typeof runWith>>) => run.tests.tests.filter((t) => t.state === 'failed').length

describe('baseline', () => {
  it('is written by the update mode (DATAFORGE_UPDATE_BASELINE=1) next to the reports', async () => {
    const run = await runWith({ failTrials: [] }, { updateBaseline: true })
    expect(run.exitCode).toBeFalsy()
    const path = join(outputDir, 'baseline.json')
    expect(existsSync(path)).toBe(true)
    expect(run.output).toContain(`dataforge-evals: baseline updated: ${path}`)
    expect(run.reports.text('leaderboard.md')).not.toContain('## Against the baseline')
  })

  it('does not fail the gate on a flake, and shows the per-group deltas in the Markdown and the terminal', async () => {
    const run = await runWith({ failTrials: [3] })
    expect(failedTests(run)).toBe(1)
    expect(run.output).not.toContain('gate failed')
    expect(run.output).toContain(
      'against the baseline\n' +
        '  drifty · synthetic: F1 -0.125, pass rate -0.125 (b=1 c=0 p=1.0000, 8 pairs) not significant\n' +
        '  steady · synthetic: F1 0.000, pass rate 0.000 (b=0 c=0 p=1.0000, 8 pairs) not significant\n',
    )
    const md = run.reports.text('leaderboard.md')
    expect(md).toContain('## Gate\n\nPassed: every threshold met, every eval scored, no significant regression.')
    expect(md).toContain('| drifty · synthetic | 1.000 → 0.875 | -0.125 | 1.000 → 0.875 | -0.125 | 1 | 0 | 1.0000 | ok |')
    expect(md).toContain('| steady · synthetic | 1.000 → 1.000 | 0.000 | 1.000 → 1.000 | 0.000 | 0 | 0 | 1.0000 | ok |')
  })

  it('fails the gate (exit code 1) on a significant regression, naming group, counts and p', async () => {
    const run = await runWith({ failTrials: [0, 1, 2, 3, 4, 5, 6] })
    expect(run.exitCode).toBe(1)
    expect(run.output).toContain('  drifty · synthetic: F1 -0.875, pass rate -0.875 (b=7 c=0 p=0.0156, 8 pairs) significant regression')
    expect(run.output).toContain(
      'dataforge-evals gate failed:\n  ✗ drifty · synthetic: significantly worse than baseline (α=0.05): b=7 c=0 p=0.0156 Δ=-0.875 (8 pairs)\n',
    )
    expect(run.output.match(/✗/g)).toHaveLength(1)
    expect(run.reports.text('leaderboard.md')).toContain('| drifty · synthetic | 1.000 → 0.125 | -0.875 | 1.000 → 0.125 | -0.875 | 7 | 0 | 0.0156 | **regression** |')
  })

  it('fails a group below the absolute floor even without a significant change', async () => {
    const run = await runWith({ failTrials: [3] }, { reporterOptions: { baseline: { floor: 0.95 } } })
    expect(run.output).toContain('(b=1 c=0 p=1.0000, 8 pairs) not significant, below the floor')
    expect(run.output).toContain('✗ drifty · synthetic: no significant change vs baseline: b=1 c=0 p=1.0000 Δ=-0.125 (8 pairs); Score 0.875 is below the floor 0.95')
    expect(run.reports.text('leaderboard.md')).toContain('| drifty · synthetic | 1.000 → 0.875 | -0.125 | 1.000 → 0.875 | -0.125 | 1 | 0 | 1.0000 | **below floor** |')
  })

  it('leaves groups filtered out by -t alone: skipped runs are no regression', async () => {
    const run = await runWith({ failTrials: [] }, { testNamePattern: '^steady' })
    expect(run.tests.tests.filter((t) => t.state === 'skipped')).toHaveLength(8)
    expect(run.exitCode).toBeFalsy()
    expect(run.output).not.toContain('gate failed')
    expect(run.output).toContain('against the baseline\n  steady · synthetic: F1 0.000, pass rate 0.000 (b=0 c=0 p=1.0000, 8 pairs) not significant\nreports:')
  })

  it('fails the gate with a clear message when the data changed since the baseline', async () => {
    const run = await runWith({ failTrials: [], rows: 31 })
    expect(failedTests(run)).toBe(0)
    expect(run.exitCode).toBe(1)
    expect(run.output).toMatch(
      /✗ baseline .*baseline\.json cannot be used: refusing to compare: dataset "synthetic" differs \(case "drifting", trial 0\): .*; refresh it with DATAFORGE_UPDATE_BASELINE=1/,
    )
  })

  it('warns when updated from a partial run', async () => {
    const run = await runWith({ failTrials: [] }, { updateBaseline: true, testNamePattern: '^steady' })
    expect(run.exitCode).toBeFalsy()
    expect(run.output).toContain('dataforge-evals: the baseline comes from a partial run: 8 skipped runs have no result in it and will not be compared')
  })

  it('is refused with a clear message when its options are out of range', async () => {
    const { default: DataforgeReporter } = await import('../src/reporter/index.js')
    expect(() => new DataforgeReporter({ baseline: { alpha: 5 } })).toThrow('baseline.alpha must be a number between 0 and 1 (exclusive), got 5')
    expect(() => new DataforgeReporter({ baseline: { floor: -1 } })).toThrow('baseline.floor must be a number between 0 and 1, got -1')
  })
})
