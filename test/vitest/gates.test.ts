import { readdirSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import type { EvalReport } from '../../src/report-builder/build.js'
import { type FixtureRun, runFixture, TempDirs } from '../helpers/vitest-run.js'
import { markdownText } from '../../src/core/escape-text.js'

// Real Vitest runs of test/fixtures/vitest/{gates,filters}: group thresholds, fail-closed, -t filters,
// report formats and diffable output.

const temp = new TempDirs()
afterAll(() => temp.removeAll())

const gatesRun = (thresholds: Record<string, Record<string, number>>, files = ['evals/'], extra = {}) =>
  runFixture({
    fixture: 'gates',
    files,
    outputDir: temp.make(),
    cacheDir: temp.make(),
    reporterOptions: { thresholds, ...extra },
  })

/** leaderboard.md without the lines that are meant to change between identical runs. */
function stableMarkdown(md: string): string {
  return md
    .replace(/\n### Dates and durations\n[\s\S]*?\n(?=\n> )/, '\n')
    .replace(/^- project commit: .*$/m, '- project commit: <commit>')
}

/** report.json without its volatile fields (dates, durations, the commit and tree state). */
function stableReport(report: EvalReport): unknown {
  return JSON.parse(
    JSON.stringify(report, (key, value) =>
      ['runtimeS', 'startedAt', 'runDateUtc', 'projectCommit', 'projectDirty'].includes(key) ? '<volatile>' : value,
    ),
  )
}

describe('group thresholds', () => {
  it('fail the run (exit code 1) naming group, metric, value and threshold, even when every test passed', async () => {
    const run = await gatesRun({ 'noop*': { f1: 0.6 }, '*': { passRate: 0.9 } })
    expect(run.tests.tests.map((t) => t.state)).toEqual(['passed', 'passed', 'passed', 'passed'])
    expect(run.exitCode).toBe(1)
    const message = 'noop · synthetic: f1 0.000 is below the threshold 0.6 (pattern "noop*")'
    expect(run.output).toContain(`dataforge-evals gate failed:\n  ✗ ${message}\n`)
    expect(run.output.match(/✗/g)).toHaveLength(1)
    const md = run.reports.text('leaderboard.md')
    // The Markdown shows the message through markdownText: `noop\*` there renders as `noop*`.
    expect(md).toContain(`## Gate\n\nThe gate failed:\n\n- ${markdownText(message)}\n`)
  })

  it('pass the run when every group meets them; two identical runs write identical reports but for dates and durations', async () => {
    const thresholds = {
      'mock*': { f1: 1, pooledF1: 1, precision: 1, recall: 1 },
      '*': { passRate: 0.9, completionRate: 1 },
    }
    const first = await gatesRun(thresholds)
    const second = await gatesRun(thresholds)
    expect(first.exitCode).toBeFalsy()
    expect(first.output).not.toContain('gate failed')
    const md = first.reports.text('leaderboard.md')
    expect(md).toContain('## Gate\n\nPassed: every threshold met, every eval scored, no significant regression.\n')
    // Durations and the run date live in their own block only.
    const timing = md.slice(md.indexOf('### Dates and durations'))
    expect(timing).toMatch(
      /^### Dates and durations\n\n- run date \(UTC\): \d{4}-\d\d-\d\dT[\d:.]+Z\n- mock · synthetic: \d+\.\d\d s total, \d+\.\d\d s per trial \(2 trials\)\n- noop · synthetic: \d+\.\d\d s total, \d+\.\d\d s per trial \(2 trials\)\n/,
    )
    expect(md.slice(0, md.indexOf('### Dates and durations'))).not.toMatch(/\d{4}-\d\d-\d\dT|\d s\b/)
    expect(stableMarkdown(second.reports.text('leaderboard.md'))).toBe(stableMarkdown(md))
    expect(stableReport(second.reports.report())).toEqual(stableReport(first.reports.report()))
    // Fixed number formatting: every number in the summary table has three decimals or is a count.
    const summary = md.slice(md.indexOf('| agent |'), md.indexOf('\n\n', md.indexOf('| agent |')))
    expect(summary.split('\n').slice(2)).toEqual([
      '| mock | oracle | synthetic | 2 generated datasets | 1.000 ± 0.000 | 1.000 [1.000, 1.000] | 1.000 | 1.000 | 1.000 | 1.000 [0.342, 1.000] (2/2) | 2/2 | 1.0 | 0 | 0 | 0 |',
      '| noop | baseline | synthetic | 2 generated datasets | 0.000 ± 0.000 | 0.000 [0.000, 0.000] | 0.000 | 1.000 | 0.000 | 1.000 [0.342, 1.000] (2/2) | 2/2 | 1.0 | 0 | 0 | 0 |',
    ])
  })

  it('a pattern that matches no group (a typo) fails the gate, naming the pattern and the groups that exist', async () => {
    const run = await gatesRun({ synthetci: { f1: 0.5 } }, [])
    expect(run.exitCode).toBe(1)
    const message =
      'threshold pattern "synthetci" matches no group, so its bar checks nothing; a pattern matches a group\'s name, suite, dataset, agent or category; groups: '
    expect(run.output).toContain(`✗ ${message}`)
    expect(run.output).toMatch(/groups: .*mock · synthetic.*noop · synthetic/)
    expect(run.reports.text('leaderboard.md')).toContain(`- ${message}`)
    // In a run filtered to some files the pattern may name a group that was not run: a note, not a failure.
    const filtered = await gatesRun({ synthetci: { f1: 0.5 } }, ['evals/'])
    expect(filtered.exitCode).toBeFalsy()
    expect(filtered.output).toContain('dataforge-evals note: threshold pattern "synthetci" matches no group')
    expect(filtered.output).toContain('(not checked: this run was filtered)')
  })

  it('are checked when the reporter is made: unknown metrics, out-of-range values and unknown formats are refused', async () => {
    const { default: DataforgeReporter } = await import('../../src/reporter/vitest/index.js')
    expect(() => new DataforgeReporter({ thresholds: { '*': { f2: 0.5 } as never } })).toThrow(
      'thresholds["*"].f2: unknown metric; use one of f1, pooledF1, precision, recall, passRate, completionRate',
    )
    expect(() => new DataforgeReporter({ thresholds: { 'hospital*': { f1: 60 } } })).toThrow(
      'thresholds["hospital*"].f1: must be a number between 0 and 1, got 60',
    )
    expect(() => new DataforgeReporter({ formats: ['pdf' as never] })).toThrow(
      'formats: unknown format "pdf"; use markdown, json, jsonl, html',
    )
  })
})

describe('fail closed', () => {
  it('fails a run in which no eval executed, and writes only the formats asked for', async () => {
    const run = await gatesRun({}, ['skipped/'], { formats: ['markdown'] })
    expect(run.tests.tests.map((t) => t.state)).toEqual(['skipped', 'skipped'])
    expect(run.exitCode).toBe(1)
    expect(run.output).toContain('✗ no eval executed: all 2 eval runs were skipped; the gate fails closed')
    expect(readdirSync(run.reports.dir).sort()).toEqual(['leaderboard.md', 'manifest.json'])
  })
})

describe('groups left without runs (a -t filter, .skip)', () => {
  const notRunRun = (thresholds: Record<string, Record<string, number>>, testNamePattern?: string) =>
    runFixture({
      fixture: 'not-run',
      outputDir: temp.make(),
      cacheDir: temp.make(),
      reporterOptions: { thresholds },
      ...(testNamePattern ? { testNamePattern } : {}),
    })
  /** Each test's name without its trial label, and its state. */
  const states = (run: FixtureRun) => run.tests.tests.map((t) => `${t.name.split(' [')[0]}: ${t.state}`)

  it('.skip: the parked group is "not run" once, never below its threshold; the run passes when the groups that ran pass', async () => {
    const run = await notRunRun({ parked: { passRate: 1 }, '*': { completionRate: 1 } })
    expect(states(run)).toEqual(['kept: passed', 'parked: skipped', 'other: passed'])
    expect(run.exitCode).toBeFalsy()
    expect(run.output).not.toContain('no completed run')
    expect(run.output).not.toContain('gate failed')
    const note =
      'not run: 1 group had no attempted run (a -t or file filter, a shard, .skip or .todo left them out), so their thresholds and baseline are not checked: noop · synthetic · parked'
    expect(run.output).toContain(`dataforge-evals note: ${note}`)
    expect(run.output.match(/not run: /g)).toHaveLength(1)
    expect(run.reports.text('leaderboard.md')).toContain(`- note: ${markdownText(note)}`)
  })

  it('-t: the groups it left out are "not run" in one note; exit 0 when the group that ran passes; a threshold on the ran group still gates', async () => {
    const run = await notRunRun({ '*': { f1: 0.9, completionRate: 1 } }, '^kept')
    expect(states(run)).toEqual(['kept: passed', 'parked: skipped', 'other: skipped'])
    expect(run.exitCode).toBeFalsy()
    expect(run.output).not.toContain('no completed run')
    expect(run.output).toContain('not run: 2 groups had no attempted run')
    expect(run.output).toContain('are not checked: noop · synthetic · other, noop · synthetic · parked')
    // The same filter with a bar the group that ran misses: the gate still fails, on that group alone.
    const failing = await notRunRun({ '*': { f1: 0.9 } }, '^other')
    expect(failing.exitCode).toBe(1)
    expect(gateFailures(failing.output)).toEqual([
      'noop · synthetic · other: f1 0.000 is below the threshold 0.9 (pattern "*")',
    ])
  })
})

/** The ✗ lines under "dataforge-evals gate failed:". */
function gateFailures(output: string): string[] {
  const at = output.indexOf('dataforge-evals gate failed:')
  return at < 0 ? [] : [...output.slice(at).matchAll(/^ {2}✗ (.*)$/gm)].map((m) => m[1]!)
}

describe('an eval file that does not load', () => {
  it('is named by the reporter; the files that loaded are reported', async () => {
    const run = await runFixture({ fixture: 'broken-file', outputDir: temp.make(), cacheDir: temp.make() })
    expect(run.output).toMatch(
      /1 eval file failed outside its tests \(a load error or a dead worker\); the report holds only what they recorded:\n {2}broken\.eval\.ts: .*no-such-module/,
    )
    expect(run.reports.runs().map((r) => [r.caseId, r.status])).toEqual([['loads and runs', 'ok']])
    expect(run.exitCode).toBe(1)
  })
})

describe('-t filters', () => {
  it('run only the matching trials and turns; the others are reported as skipped; turns are still asked in order', async () => {
    const run = await runFixture({
      fixture: 'filters',
      outputDir: temp.make(),
      cacheDir: temp.make(),
      testNamePattern: 'trial 2/3|ordered#t3',
    })
    expect(run.tests.tests.map((t) => [t.name, t.state])).toEqual([
      ['filtered [trial 1/3 · seed 1]', 'skipped'],
      ['filtered [trial 2/3 · seed 2]', 'passed'],
      ['filtered [trial 3/3 · seed 3]', 'skipped'],
      ['ordered#t1', 'skipped'],
      ['ordered#t2', 'skipped'],
      ['ordered#t3', 'passed'],
    ])
    // Rows in the report's stable order: suite (the conversation's is its name), case, turn, trial.
    expect(run.reports.runs().map((r) => [r.caseId, r.turn ?? r.trial, r.status])).toEqual([
      ['ordered', 1, 'skipped'],
      ['ordered', 2, 'skipped'],
      ['ordered', 3, 'ok'],
      ['filtered', 0, 'skipped'],
      ['filtered', 1, 'ok'],
      ['filtered', 2, 'skipped'],
    ])
    expect(run.exitCode).toBeFalsy()
  })
})
