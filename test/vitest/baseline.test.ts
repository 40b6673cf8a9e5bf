import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FixtureControl } from '../fixtures/vitest/agents.js'
import { type FixtureRunOptions, runFixture, TempDirs } from '../helpers/vitest-run.js'

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

const failedTests = (run: Awaited<ReturnType<typeof runWith>>) =>
  run.tests.tests.filter((t) => t.state === 'failed').length

describe('baseline', () => {
  it('is written by the update mode (DATAFORGE_UPDATE_BASELINE=1) next to the reports', async () => {
    const run = await runWith({ failTrials: [] }, { updateBaseline: true })
    expect(run.exitCode).toBeFalsy()
    const path = join(outputDir, 'baseline.json')
    expect(existsSync(path)).toBe(true)
    expect(run.output).toContain(`dataforge-evals: baseline updated: ${path}`)
    expect(run.reports.text('leaderboard.md')).not.toContain('## Against the baseline')
    // Written before the report folder, so the folder's manifest covers it and verify passes.
    const { verifyDir } = await import('../../src/report-builder/manifest.js')
    expect((await verifyDir(outputDir)).ok).toBe(true)
  })

  it('does not fail the gate on a flake, and shows the per-group deltas in the Markdown and the terminal', async () => {
    const run = await runWith({ failTrials: [3] })
    expect(failedTests(run)).toBe(1)
    expect(run.output).not.toContain('gate failed')
    expect(run.output).toContain(
      'against the baseline\n' +
        '  drifty · synthetic: F1 1.000 → 0.875, pass rate 1.000 → 0.875 · no significant change vs baseline (α=0.05): ' +
        'pass/fail McNemar exact b=1 c=0 p=1.0000 (shown, not gating) · F1 sign-flip exact p=1.0000 (8 generated datasets); Δscore -0.125, ΔF1 -0.125; Holm-corrected over 2 tests\n' +
        '  steady · synthetic: F1 1.000 → 1.000, pass rate 1.000 → 1.000 · no significant change vs baseline (α=0.05): ' +
        'pass/fail McNemar exact b=0 c=0 p=1.0000 (shown, not gating) · F1 sign-flip exact p=1.0000 (8 generated datasets); Δscore 0.000, ΔF1 0.000; Holm-corrected over 2 tests\n',
    )
    const md = run.reports.text('leaderboard.md')
    expect(md).toContain('## Gate\n\nPassed: every threshold met, every eval scored, no significant regression.')
    expect(md).toContain(
      '| group | F1 baseline → now | ΔF1 | F1 p | pass rate baseline → now | Δpass rate | units | b | c | pass/fail p | verdict |',
    )
    expect(md).toContain(
      '| drifty · synthetic | 1.000 → 0.875 | -0.125 | 1.0000 (sign-flip exact) | 1.000 → 0.875 | -0.125 | 8 generated datasets | 1 | 0 | 1.0000 (McNemar exact) | no significant change |',
    )
    expect(md).toContain(
      '| steady · synthetic | 1.000 → 1.000 | 0.000 | 1.0000 (sign-flip exact) | 1.000 → 1.000 | 0.000 | 8 generated datasets | 0 | 0 | 1.0000 (McNemar exact) | no significant change |',
    )
  })

  it('fails the gate (exit code 1) on a significant regression, naming group, counts and p', async () => {
    const run = await runWith({ failTrials: [0, 1, 2, 3, 4, 5, 6] })
    expect(run.exitCode).toBe(1)
    const verdict =
      // F1 gates (the group measures it); one test per group, Holm over the 2 groups
      'drifty · synthetic: regression (F1) vs baseline (α=0.05): pass/fail McNemar exact b=7 c=0 p=0.0156 (shown, not gating) · F1 sign-flip exact p=0.0156 (Holm 0.0313) (8 generated datasets); Δscore -0.875, ΔF1 -0.875; Holm-corrected over 2 tests'
    expect(run.output).toContain(`dataforge-evals gate failed:\n  ✗ ${verdict}\n`)
    expect(run.output.match(/✗/g)).toHaveLength(1)
    expect(run.reports.text('leaderboard.md')).toContain(
      '| drifty · synthetic | 1.000 → 0.125 | -0.875 | 0.0156 (sign-flip exact) | 1.000 → 0.125 | -0.875 | 8 generated datasets | 7 | 0 | 0.0156 (McNemar exact) | **regression (F1)** |',
    )
  })

  it('fails a group below the absolute floor even without a significant change', async () => {
    const run = await runWith({ failTrials: [3] }, { reporterOptions: { baseline: { floor: 0.95 } } })
    expect(run.output).toContain(
      '✗ drifty · synthetic: below floor vs baseline (α=0.05): pass/fail McNemar exact b=1 c=0 p=1.0000 (shown, not gating) · F1 sign-flip exact p=1.0000 (8 generated datasets); Δscore -0.125, ΔF1 -0.125; Score 0.875 is below the floor 0.95; Holm-corrected over 2 tests',
    )
    expect(run.reports.text('leaderboard.md')).toContain(
      '| 8 generated datasets | 1 | 0 | 1.0000 (McNemar exact) | **below floor** |',
    )
  })

  it('leaves groups filtered out by -t alone: skipped runs are no regression', async () => {
    const run = await runWith({ failTrials: [] }, { testNamePattern: '^steady' })
    expect(run.tests.tests.filter((t) => t.state === 'skipped')).toHaveLength(8)
    expect(run.exitCode).toBeFalsy()
    expect(run.output).not.toContain('gate failed')
    expect(run.output).toMatch(
      /against the baseline\n {2}steady · synthetic: F1 1\.000 → 1\.000, pass rate 1\.000 → 1\.000 · no significant change .*\ndataforge-evals note: not run: 1 group had no attempted run .*: drifty · synthetic\nreports:/,
    )
  })

  it('fails the gate with a clear message when the data changed since the baseline', async () => {
    const run = await runWith({ failTrials: [], rows: 31 })
    expect(failedTests(run)).toBe(0)
    expect(run.exitCode).toBe(1)
    expect(run.output).toMatch(
      /✗ baseline .*baseline\.json cannot be used: refusing to compare: dataset "synthetic" differs \(case "drifting", trial 1\): .*; refresh it with DATAFORGE_UPDATE_BASELINE=1/,
    )
  })

  it('warns when updated from a partial run', async () => {
    const run = await runWith({ failTrials: [] }, { updateBaseline: true, testNamePattern: '^steady' })
    expect(run.exitCode).toBeFalsy()
    expect(run.output).toContain(
      'dataforge-evals: the baseline comes from a partial run: 8 skipped runs have no result in it and will not be compared',
    )
  })

  it('is small and diff-stable: ids, judgments, F1 and counts, sorted; no dates, paths, fixes or values', async () => {
    const dir = temp.make()
    const update = () =>
      runFixture({
        fixture: 'baseline',
        outputDir: dir,
        cacheDir,
        env: { DF_FIXTURE_CONTROL: controlFile },
        updateBaseline: true,
      })
    writeFileSync(controlFile, JSON.stringify({ failTrials: [] }))
    await update()
    const first = readFileSync(join(dir, 'baseline.json'), 'utf8')
    await update()
    expect(readFileSync(join(dir, 'baseline.json'), 'utf8')).toBe(first)
    const file = JSON.parse(first)
    expect(Object.keys(file)).toEqual(['baselineVersion', 'groups'])
    expect(file.groups.map((g: { group: string }) => g.group)).toEqual(['drifty · synthetic', 'steady · synthetic'])
    expect(Object.keys(file.groups[0].runs[0])).toEqual([
      'case',
      'turn',
      'trial',
      'correct',
      'f1',
      'tp',
      'fp',
      'fn',
      'datasetSha256',
    ])
    expect(file.groups[0].runs.map((r: { trial: number }) => r.trial)).toEqual([0, 1, 2, 3, 4, 5, 6, 7])
    expect(first).not.toMatch(
      /runDateUtc|runtimeS|projectCommit|fixes|want|newValue|diagnostics|\/tmp|dataforge-vitest/,
    )
    // 3 opening lines, per group { + 6 identity lines + "runs": [ + 8 one-line runs + ] + }, 2 closing lines, final newline
    expect(first.split('\n')).toHaveLength(3 + 2 * 18 + 3)
  })

  it('is merged when updated from a filtered run: the groups not run are kept', async () => {
    const dir = temp.make()
    writeFileSync(controlFile, JSON.stringify({ failTrials: [] }))
    const run = (opts: Partial<FixtureRunOptions>) =>
      runFixture({ fixture: 'baseline', outputDir: dir, cacheDir, env: { DF_FIXTURE_CONTROL: controlFile }, ...opts })
    await run({ updateBaseline: true })
    const filtered = await run({ updateBaseline: true, files: ['evals/steady.eval.ts'] })
    expect(filtered.output).toContain(
      'dataforge-evals: kept 1 baseline group this run did not execute: drifty · synthetic',
    )
    const groups = JSON.parse(readFileSync(join(dir, 'baseline.json'), 'utf8')).groups.map(
      (g: { group: string }) => g.group,
    )
    expect(groups).toEqual(['drifty · synthetic', 'steady · synthetic'])
    // and the kept group still gates: losing 7 of 8 drifty trials fails
    writeFileSync(controlFile, JSON.stringify({ failTrials: [0, 1, 2, 3, 4, 5, 6] }))
    expect((await run({})).exitCode).toBe(1)
  })

  it('calls a group the baseline does not have "new", never a failure, and pairs each agent only with itself', async () => {
    const dir = temp.make()
    writeFileSync(controlFile, JSON.stringify({ failTrials: [] }))
    const run = (opts: Partial<FixtureRunOptions>) =>
      runFixture({ fixture: 'baseline', outputDir: dir, cacheDir, env: { DF_FIXTURE_CONTROL: controlFile }, ...opts })
    await run({ updateBaseline: true, files: ['evals/steady.eval.ts'] })
    const full = await run({})
    expect(full.exitCode).toBeFalsy()
    expect(full.output).not.toContain('gate failed')
    expect(full.output).not.toContain('--agents')
    expect(full.output).toContain('  drifty · synthetic: new (no counterpart in the baseline; not compared)')
    expect(full.reports.text('leaderboard.md')).toContain(
      '| drifty · synthetic | — → 1.000 | n/a | — | — → 1.000 | n/a | 0 | — | — | — | new (not in the baseline) |',
    )
  })

  it('says when the pairs cannot reach alpha: the smallest p and the pairs needed (terminal and leaderboard)', async () => {
    const run = await runWith(
      { failTrials: [0, 1, 2, 3, 4, 5, 6, 7] },
      { reporterOptions: { baseline: { alpha: 0.001 } } },
    )
    // 8 units (each trial's seed makes new data): the smallest p is 2/2^8 = 0.0078 > 0.001; 11 units reach 2/2^11 = 0.00098
    const power =
      'underpowered: with 8 generated datasets no paired test reaches α=0.001 (smallest possible p 0.0078); 11 generated datasets are needed'
    // The terminal says it once for the run, naming every such group with its units; not once per group.
    expect(run.output).toContain(
      '  underpowered: 2 groups have too few units for a paired test to reach α=0.001 (11 are needed), so they fail only through a threshold or the floor: ' +
        'drifty · synthetic (8 generated datasets), steady · synthetic (8 generated datasets)',
    )
    expect(run.output.match(/underpowered/g)).toHaveLength(1)
    expect(run.output).not.toContain('gate failed')
    const md = run.reports.text('leaderboard.md')
    expect(md).toContain('**Power.** These groups cannot fail on the tests, whatever happens, only through the floor:')
    expect(md).toContain(`- drifty · synthetic: ${power}`)
  })

  it('is refused with a clear message when its options are out of range', async () => {
    const { default: DataforgeReporter } = await import('../../src/reporter/vitest/index.js')
    expect(() => new DataforgeReporter({ baseline: { alpha: 5 } })).toThrow(
      'baseline.alpha must be a number between 0 and 1 (exclusive), got 5',
    )
    expect(() => new DataforgeReporter({ baseline: { floor: -1 } })).toThrow(
      'baseline.floor must be a number between 0 and 1, got -1',
    )
  })
})
