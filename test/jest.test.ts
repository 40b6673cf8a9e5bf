import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunRecord } from '../src/core/run-record.js'
import { CRASHING_EVAL, installPackedWithJest, makeJestProject, runJest, typecheck } from './fixtures/jest/project.js'
import { type FixtureRun, reportFolder, runFixture } from './fixtures/vitest/run-fixture.js'

// Real Jest 30 (ts-jest) on the parity evals of test/fixtures/vitest/jest-parity, in a CommonJS project and a
// native-ESM project, with this package installed from its packed tarball; against the same evals under Vitest.

let work: string
let vitestRun: FixtureRun

/** A record without what differs between any two runs (time, date, commit). */
function stable(r: RunRecord): Partial<RunRecord> {
  const { runtimeS: _t, runDateUtc: _d, projectCommit: _c, ...rest } = r
  return rest
}

function byCase(records: RunRecord[]): Array<Partial<RunRecord>> {
  return records.map(stable).sort((a, b) => (a.caseId! < b.caseId! ? -1 : a.caseId! > b.caseId! ? 1 : 0))
}

/** The report's content apart from runtime, dates and which runner wrote it. */
function reportCore(dir: string) {
  const report = reportFolder(dir).report()
  return { records: byCase(report.records), aggregates: report.aggregates.map((a) => ({ ...a, runtimeS: undefined })), cases: report.cases }
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'dataforge-jest-'))
  const [, vitest] = await Promise.all([
    installPackedWithJest(work).then(() => Promise.all([makeJestProject(join(work, 'cjs'), 'cjs'), makeJestProject(join(work, 'esm'), 'esm')])),
    runFixture({ fixture: 'jest-parity', outputDir: join(work, 'vitest-reports'), cacheDir: join(work, 'vite-cache') }),
  ])
  vitestRun = vitest
}, 300_000)

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true })
})

describe('Jest with dataforge-evals/jest/setup and dataforge-evals/jest-reporter', () => {
  it('CommonJS (ts-jest): the same records and report as Vitest, the side files removed, a worker crash counts what it wrote', async () => {
    const project = join(work, 'cjs')
    expect(existsSync(join(work, 'node_modules/vitest')), 'a Jest project without Vitest').toBe(false)
    const jest = await runJest(work, project, [])
    expect(jest.code, jest.output).toBe(1) // two eval tests fail, as under Vitest
    expect(jest.output).toMatch(/dataforge-evals leaderboard[\s\S]*unspecified · answers .* 3\/5 +0.60 \[0.23, 0.88\] +5\/5/)
    expect(vitestRun.exitCode).toBe(1)
    const reports = join(project, 'evals/__reports__')
    expect(reportCore(reports)).toEqual(reportCore(vitestRun.reports.dir))
    for (const file of ['leaderboard.md', 'report.json', 'runs.jsonl', 'manifest.json']) expect(existsSync(join(reports, file)), file).toBe(true)
    expect(existsSync(join(reports, '.jest-runs')), 'side files removed').toBe(false)
    const records = reportFolder(reports).runs()
    expect(records.find((r) => r.caseId === 'wrong > scored, then threw')).toMatchObject({ status: 'ok', correct: false, validationError: 'the agent left a mess' })
    expect(reportFolder(reports).report().config).toMatchObject({ command: 'jest' })
    // evalCase and conversation: a test per trial and per turn, the same ids as under Vitest.
    expect(records.filter((r) => r.caseId === 'first cell').map((r) => [r.trial, r.seed, r.agent, r.correct])).toEqual([
      [0, 3, 'first-cell', true],
      [1, 4, 'first-cell', true],
    ])
    expect(records.find((r) => r.caseId === 'rate limited')).toMatchObject({ status: 'failed', failureKind: 'rate_limited', failureMessage: 'slow down' })
    expect(records.filter((r) => r.caseId === 'shop talk').map((r) => [r.turn, r.suite, r.correct])).toEqual([
      [1, 'shop', true],
      [2, 'shop', true],
    ])

    // The typings: the evals type-check against Jest's expect, and a wrong argument does not.
    const typed = await typecheck(work, project)
    expect(typed.code, typed.output).toBe(0)
    await writeFile(join(project, 'evals/mistyped.ts'), "import { expect } from '@jest/globals'\nimport 'dataforge-evals/jest'\nexpect(1).toBeNumeric('one')\n")
    const mistyped = await typecheck(work, project)
    await rm(join(project, 'evals/mistyped.ts'))
    expect(mistyped.output).toMatch(/mistyped\.ts.*error TS2345/)

    // Workers forced (a memory limit makes Jest use them even for quick files); one is killed mid-file.
    await writeFile(join(project, 'evals/crash.eval.ts'), CRASHING_EVAL)
    const crashed = await runJest(work, project, ['--maxWorkers=2', '--workerIdleMemoryLimit=1GB'])
    await rm(join(project, 'evals/crash.eval.ts'))
    expect(crashed.output).toMatch(/terminated by another process: signal=SIGKILL/)
    expect(crashed.code).toBe(1)
    const afterCrash = reportFolder(reports).runs()
    expect(afterCrash.filter((r) => r.suite === 'crash')).toEqual([expect.objectContaining({ caseId: 'before the crash', correct: true, metrics: { toBeNumeric: 1 } })])
    expect(afterCrash).toHaveLength(records.length + 1)
  }, 120_000)

  it('native ESM: the same records as Vitest; a failing gate alone exits 1', async () => {
    const project = join(work, 'esm')
    const env = { NODE_OPTIONS: '--experimental-vm-modules' }
    const jest = await runJest(work, project, [], env)
    expect(jest.code, jest.output).toBe(1)
    expect(reportCore(join(project, 'evals/__reports__'))).toEqual(reportCore(vitestRun.reports.dir))

    // Only the passing tests: Jest alone would exit 0; the repeat gate (2 passes per case, 1 trial each) fails.
    const passing = await runJest(work, project, ['-t', '^answers'], env)
    expect(passing.code, passing.output).toBe(0)
    const gated = await runJest(work, project, ['-t', '^answers'], { ...env, DF_REPORTER_OPTIONS: JSON.stringify({ minPassesPerCase: 2 }) })
    expect(gated.output).toMatch(/Tests:\s+8 skipped, 3 passed/)
    expect(gated.output).toMatch(/dataforge-evals gate failed:[\s\S]*passed 1 of 1 trials, the repeat gate needs 2/)
    expect(gated.code).toBe(1)
  }, 120_000)

  it('--shard: each shard reports its own files; together they hold the unsharded records', async () => {
    const project = join(work, 'cjs')
    const shards = await Promise.all(
      [1, 2].map(async (i) => {
        const outputDir = join(work, `shard-${i}`)
        const r = await runJest(work, project, [`--shard=${i}/2`], { DF_REPORTER_OPTIONS: JSON.stringify({ outputDir }) })
        return { run: r, records: existsSync(join(outputDir, 'runs.jsonl')) ? reportFolder(outputDir).runs() : [] }
      }),
    )
    const suites = shards.map((s) => [...new Set(s.records.map((r) => r.suite))])
    // Each file runs in one shard: no suite in both, every suite in one.
    expect(suites.flat().sort()).toEqual(['answers', 'budget', 'shop', 'synthetic'])
    expect(suites.every((s) => s.length > 0)).toBe(true)
    expect(byCase(shards.flatMap((s) => s.records))).toEqual(byCase(vitestRun.reports.runs()))
  }, 120_000)
})
