import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunRecord } from '../../src/core/run-record.js'
import { loadDataset } from '../../src/datasets/index.js'
import type { Aggregate } from '../../src/report-builder/aggregate.js'
import { type FixtureRun, runFixture, TempDirs } from '../helpers/vitest-run.js'

// One real Vitest run over test/fixtures/vitest/features (evalCase, conversation, matchers, .only, .skip,
// .concurrent, failures) with Vitest's default and json reporters beside ours; every test below reads it back.

const temp = new TempDirs()
let run: FixtureRun
let jsonReporterFile: string
let runs: RunRecord[]

beforeAll(async () => {
  const outputDir = temp.make()
  jsonReporterFile = join(temp.make(), 'vitest.json')
  run = await runFixture({
    fixture: 'features',
    outputDir,
    cacheDir: temp.make(),
    allowOnly: true,
    isolate: true,
    extraReporters: ['default', ['json', { outputFile: jsonReporterFile }]],
  })
  runs = run.reports.runs()
}, 60_000)

afterAll(() => temp.removeAll())

const recordsOf = (caseId: string) => runs.filter((r) => r.caseId === caseId)
const group = (name: string): Aggregate => {
  const found = run.reports.report().aggregates.find((a) => a.group === name)
  if (!found)
    throw new Error(
      `no group "${name}": ${run.reports
        .report()
        .aggregates.map((a) => a.group)
        .join(', ')}`,
    )
  return found
}

describe('evalCase', () => {
  it('registers one test per trial, named `name [trial i/N · seed s]`, and hands the body its context', () => {
    const names = run.tests.tests.filter((t) => t.name.startsWith('context ')).map((t) => [t.name, t.state])
    expect(names).toEqual([
      ['context [trial 1/3 · seed 11]', 'passed'],
      ['context [trial 2/3 · seed 12]', 'passed'],
      ['context [trial 3/3 · seed 13]', 'passed'],
    ])
  })

  it('puts dataset id and sha256, agent, model, category, tags, trial and seed on the test meta', async () => {
    const meta = run.tests.byName('context [trial 2/3 · seed 12]').meta!
    const { info } = await loadDataset({ id: 'synthetic', rows: 30, seed: 12 })
    expect(meta).toMatchObject({
      caseId: 'context',
      dataset: 'synthetic',
      suite: 'synthetic',
      datasetSha256: { dirty: info.dirty.sha256, clean: info.clean.sha256 },
      agent: 'spy',
      // The spy answers with the oracle's fixes: a run that reads the truth is an oracle run, whatever it says.
      agentKind: 'oracle',
      model: 'spy-model-1',
      category: 'ctx',
      tags: ['smoke', 'ctx'],
      trial: 1,
      trials: 3,
      seed: 12,
      turn: null,
    })
    expect(meta.matchers).toEqual([
      expect.objectContaining({ matcher: 'toRepairCells', passed: true, negated: false, score: 1 }),
    ])
  })

  it('records custom metrics from record() and the exported record()', () => {
    expect(recordsOf('context').map((r) => r.metrics)).toEqual([
      { 'seed seen': 11, 'trial seen': 0 },
      { 'seed seen': 12, 'trial seen': 1 },
      { 'seed seen': 13, 'trial seen': 2 },
    ])
    expect(group('spy@spy-model-1 · synthetic · ctx').metrics).toEqual({ 'seed seen': 12, 'trial seen': 1 })
  })

  it('keeps .skip: skipped trials are reported as skipped runs', () => {
    expect(run.tests.tests.filter((t) => t.name.startsWith('skipped case')).map((t) => t.state)).toEqual([
      'skipped',
      'skipped',
    ])
    expect(recordsOf('skipped case').map((r) => [r.status, r.failureKind, r.correct])).toEqual([
      ['skipped', 'skipped', null],
      ['skipped', 'skipped', null],
    ])
  })

  it('keeps .only: other cases of the file are skipped', () => {
    expect(run.tests.tests.filter((t) => t.file.endsWith('only.eval.ts')).map((t) => [t.name, t.state])).toEqual([
      ['only case [trial 1/2 · seed 1]', 'passed'],
      ['only case [trial 2/2 · seed 2]', 'passed'],
      ['left out by only [trial 1/1 · seed 1]', 'skipped'],
    ])
  })

  it('keeps .concurrent: trials overlap and every verdict lands on its own trial', () => {
    const rows = recordsOf('concurrent case')
    expect(rows.map((r) => r.trial)).toEqual([0, 1, 2, 3])
    expect(Math.max(...rows.map((r) => r.metrics['max in flight']!))).toBeGreaterThanOrEqual(2)
    for (const r of rows) {
      expect(r.precision).toBe(1)
      if (r.trial % 2 === 0) expect(r.f1).toBe(1)
      else expect(r.f1).toBeLessThan(1)
    }
    const trial2 = run.tests.byName('concurrent case [trial 2/4 · seed 21]')
    expect(trial2.meta!.matchers.map((m) => m.summary)).toEqual([
      expect.stringMatching(/^F1 0\.\d{3} \(P 1\.000 R 0\.\d{3}\) tp \d+ fp 0 fn \d+$/),
    ])
    // A verdict that held is not annotated (DATAFORGE_ANNOTATE=all does that): it is on the meta.
    expect(trial2.annotations).toEqual([])
  })

  it('records matcher verdicts of plain concurrent tests (local expect) on their own test', () => {
    const slow = run.tests.byName('plain concurrent slow').meta!
    const fast = run.tests.byName('plain concurrent fast').meta!
    expect(slow.matchers.map((m) => [m.matcher, m.passed, m.negated])).toEqual([['toBeNumeric', true, false]])
    expect(fast.matchers.map((m) => [m.matcher, m.passed, m.negated])).toEqual([['toBeNumeric', true, true]])
  })

  it('records a timeout as a failed run of kind timeout, after aborting the signal', () => {
    const [hang] = recordsOf('hangs')
    expect(hang).toMatchObject({ status: 'failed', failureKind: 'timeout', completed: false, correct: null })
    expect(hang!.failureMessage).toBe('timed out after 0.3 s')
    expect(hang!.metrics).toEqual({ aborted: 1 })
  })

  it('records a throwing agent as an exception and an adapter failure under its own kind', () => {
    expect(recordsOf('throws')[0]).toMatchObject({
      status: 'failed',
      failureKind: 'exception',
      failureMessage: 'Error: agent exploded on purpose',
    })
    // a body that catches the agent's exception still leaves a failed trial, though its test passed
    expect(run.tests.byName('swallows [trial 1/1 · seed 1]').state).toBe('passed')
    expect(recordsOf('swallows')[0]).toMatchObject({
      status: 'failed',
      failureKind: 'exception',
      failureMessage: 'Error: agent exploded on purpose',
      correct: null,
    })
    expect(recordsOf('unparsable')[0]).toMatchObject({
      status: 'failed',
      failureKind: 'parse_failure',
      failureMessage: 'no JSON array in the reply',
    })
  })

  it('records a scored run below the matcher threshold as completed and not correct, failing the test', () => {
    expect(run.tests.byName('below the bar [trial 1/1 · seed 1]').state).toBe('failed')
    const [below] = recordsOf('below the bar')
    expect(below).toMatchObject({ status: 'ok', completed: true, correct: false, f1: 0, precision: 1, recall: 0 })
    expect(below!.validationError).toMatch(/^toRepairCells: F1 0\.000 is below 0\.5/)
  })

  it('evalCase.fails: a floor expected to miss its bar passes the test and is recorded as not correct', () => {
    expect(run.tests.byName('floor held to the bar [trial 1/1 · seed 1]').state).toBe('passed')
    const [floor] = recordsOf('floor held to the bar')
    expect(floor).toMatchObject({ status: 'ok', completed: true, correct: false, f1: 0 })
    expect(floor!.validationError).toMatch(/^toRepairCells: F1 0\.000/)
    // One that reaches the bar after all fails its test (the bar is too low for a floor) and counts as correct.
    expect(run.tests.byName('floor that reached the bar [trial 1/1 · seed 1]').state).toBe('failed')
    expect(recordsOf('floor that reached the bar')[0]).toMatchObject({
      status: 'ok',
      correct: true,
      f1: 1,
      validationError: null,
    })
  })
})

describe('conversation', () => {
  it('asks the turns in order in one session, each its own test; a failed turn does not stop the next', () => {
    const turns = run.tests.tests.filter((t) => t.name.startsWith('memory#'))
    expect(turns.map((t) => [t.name, t.state])).toEqual([
      ['memory#t1', 'passed'],
      ['memory#t2', 'failed'],
      ['memory#t3', 'passed'],
    ])
    expect(turns[1]!.errors[0]).toMatch(/^toBeNumeric: /)
    // The failed turn is annotated with its question and the failed verdict; the passing ones are not.
    expect(turns[1]!.annotations.map((a) => a.type).sort()).toEqual(['dataforge', 'dataforge-question'])
    expect(turns[1]!.annotations).toContainEqual({
      type: 'dataforge-question',
      message: expect.stringMatching(/^t2: /),
    })
    expect(turns[0]!.annotations).toEqual([])
    expect(recordsOf('memory').map((r) => [r.turn, r.status, r.correct, r.category, r.agent])).toEqual([
      [1, 'ok', true, 'multi-turn', 'memory-qa'],
      [2, 'ok', false, 'multi-turn', 'memory-qa'],
      [3, 'ok', true, 'multi-turn', 'memory-qa'],
    ])
  })

  it('gives each question a timeout and signal: a hung or failing question fails its turn only', () => {
    expect(run.tests.tests.filter((t) => t.name.startsWith('troubled#')).map((t) => [t.fullName, t.state])).toEqual([
      ['troubles > troubled#t1', 'failed'],
      ['troubles > troubled#t2', 'passed'],
      ['troubles > troubled#t3', 'failed'],
    ])
    expect(recordsOf('troubled').map((r) => [r.turn, r.status, r.failureKind, r.failureMessage])).toEqual([
      [1, 'failed', 'timeout', 'timed out after 2 s'],
      [2, 'ok', null, null],
      [3, 'failed', 'rate_limited', '429 from the provider'],
    ])
  })

  it('closes the session after the last turn', () => {
    expect(
      run.tests.byName('the troubled session was closed after its last turn, and the hung question aborted').state,
    ).toBe('passed')
  })
})

describe('matchers on the running test', () => {
  it('keep a one-line summary per matcher on the meta, and annotate only the verdicts that failed', () => {
    const repairTest = run.tests.byName('repair matcher annotates')
    expect(repairTest.meta!.matchers.map((m) => m.summary)).toEqual([
      expect.stringMatching(/^F1 1\.000 \(P 1\.000 R 1\.000\) tp \d+ fp 0 fn 0$/),
    ])
    expect(repairTest.annotations).toEqual([])
    const below = run.tests.byName('below the bar [trial 1/1 · seed 1]')
    expect(below.annotations).toEqual([
      { type: 'dataforge', message: expect.stringMatching(/^F1 0\.000 \(P 1\.000 R 0\.000\) tp 0 fp 0 fn \d+$/) },
    ])
    const answers = run.tests.byName('answer matchers annotate').meta!.matchers.map((m) => ({ message: m.summary }))
    expect(answers.map((a) => a.message.split(' ')[0])).toEqual([
      'toBeNumeric',
      'toContainAnswer',
      'toExactlyEqual',
      'toEqualTable',
      'toRefuse',
      'toProduceChart',
      'toPass',
      'toPass',
      'not.toBeNumeric',
    ])
    for (const a of answers) expect(a.message).not.toContain('\n')
  })

  it('give plain tests a neutral identity named after their file', () => {
    const [row] = recordsOf('repair matcher annotates')
    expect(row).toMatchObject({
      agent: 'plain test',
      dataset: 'matchers.eval.ts',
      suite: 'matchers',
      status: 'ok',
      correct: true,
      f1: 1,
    })
    // Grader scores become metrics (means over positive uses; `.not` uses left out).
    expect(recordsOf('answer matchers annotate')[0]!.metrics).toEqual({
      toBeNumeric: 1,
      toContainAnswer: 1,
      toExactlyEqual: 1,
      toEqualTable: 1,
      toRefuse: 1,
      toProduceChart: 1,
      toPass: 1,
    })
  })
})

describe('the reporter', () => {
  it('writes leaderboard.md, report.json, runs.jsonl, report.html and manifest.json by default, leaving no temp files', () => {
    const files = readdirSync(run.reports.dir).sort()
    expect(files).toEqual(['leaderboard.md', 'manifest.json', 'report.html', 'report.json', 'runs.jsonl'])
  })

  it('writes one row per attempted test run: passed, failed, timed-out and skipped', () => {
    const withMeta = run.tests.tests.filter((t) => t.meta)
    expect(withMeta).toHaveLength(31)
    expect(runs).toHaveLength(31)
    const byStatus = (s: string) => runs.filter((r) => r.status === s).length
    expect([byStatus('ok'), byStatus('failed'), byStatus('skipped')]).toEqual([22, 6, 3])
    expect(run.reports.report().records).toEqual(runs)
  })

  it('groups by agent/model × dataset/suite × category with pooled and macro repair metrics and breakdowns', () => {
    const ctx = group('spy@spy-model-1 · synthetic · ctx')
    expect(ctx).toMatchObject({
      agent: 'spy',
      model: 'spy-model-1',
      suite: 'synthetic',
      category: 'ctx',
      trialsRequested: 3,
      correct: 3,
      passRate: 1,
    })
    expect(ctx.pooled).toMatchObject({ precision: 1, recall: 1, f1: 1 })
    expect([ctx.f1Mean, ctx.f1Std]).toEqual([1, 0])
    const half = group('half · synthetic')
    const f1s = recordsOf('concurrent case').map((r) => r.f1!)
    const mean = f1s.reduce((a, b) => a + b, 0) / f1s.length
    expect(half.f1Mean).toBeCloseTo(mean, 12)
    expect(half.f1Std).toBeGreaterThan(0)
    const tp = recordsOf('concurrent case').reduce((a, r) => a + r.tp!, 0)
    const fn = recordsOf('concurrent case').reduce((a, r) => a + r.fn!, 0)
    expect(half.pooled).toMatchObject({ tp, fp: 0, fn, precision: 1, recall: tp / (tp + fn) })
    expect(Object.keys(half.perColumn).length).toBeGreaterThan(3)
    expect(Object.keys(half.perKind).length).toBeGreaterThan(0)
    for (const k of Object.values(half.perKind)) expect(k.tp).toBeLessThanOrEqual(k.total)
  })

  it('sums tokens, quota units and cost per group and shows them in the Markdown', () => {
    const metered = group('metered@fake-model-1 · synthetic')
    expect(metered.usage).toMatchObject({
      calls: 4,
      promptTokens: 200,
      completionTokens: 20,
      quotaUnits: 3,
      costUsd: 0.004,
    })
    expect(metered.quotaUnitsPerTrial).toBe(1.5)
    const md = run.reports.text('leaderboard.md')
    expect(md).toContain('## Tokens and cost')
    expect(md).toContain('| metered@fake-model-1 · synthetic | 4 | 220 | 0 | 0 | $0.00400 | — |')
  })

  it('fails the gate closed when evals errored rather than scored, and says so', () => {
    expect(run.exitCode).toBe(1)
    expect(run.output).toContain('dataforge-evals gate failed:')
    expect(run.output).toContain(
      '6 of 28 eval runs errored rather than scored (exception 2, parse_failure 1, rate_limited 1, timeout 2)',
    )
    expect(run.reports.text('leaderboard.md')).toContain('- 6 of 28 eval runs errored rather than scored')
  })

  it('prints a compact leaderboard after the run, beside the default reporter', () => {
    expect(run.output).toMatch(
      /dataforge-evals leaderboard\ngroup +units +F1 \(mean ± std\) +F1 \[95% CI\] +P +R +Score counts: assertions held +Score \[95% CI\] +trials done\/asked +failures\n/,
    )
    expect(run.output).toMatch(
      /\nspy@spy-model-1 · synthetic · ctx +\d generated datasets? +1\.000 ± 0\.000 +1\.000 \[1\.000, 1\.000\] +1\.000 +1\.000 +3\/3 +1\.00 \[0\.44, 1\.00\] +3\/3 +0\n/,
    )
    expect(run.output).toMatch(
      /\nexplodes · synthetic +\d (case|cases|generated datasets?) +— +— +— +— +0\/2 .* 0\/2 +2\n/,
    )
    expect(run.output).toContain(
      "Score is the share of attempted runs whose assertions held: in an eval file a run is correct when the eval's assertions passed",
    )
    expect(run.output).toContain(`reports: ${run.reports.dir}`)
    expect(run.output).toMatch(/Test Files .*6/)
  })

  it('works beside Vitest’s json reporter', () => {
    expect(existsSync(jsonReporterFile)).toBe(true)
    const json = JSON.parse(readFileSync(jsonReporterFile, 'utf8')) as { numTotalTests: number }
    expect(json.numTotalTests).toBe(run.tests.tests.length)
  })
})
