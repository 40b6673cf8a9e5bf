import { execFile } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EvalReport } from '../../src/report-builder/build.js'
import { fixturesDir, type ReportFolder, repoRoot, reportFolder, stripAnsi, TempDirs } from '../helpers/vitest-run.js'
import { withoutVolatile } from '../helpers/runs.js'

// The Vitest CLI in child processes over test/fixtures/vitest/shard (its vitest.config.ts sets the reporter):
// `vitest run --shard=1/2 --reporter=blob` and `--shard=2/2`, then `vitest run --merge-reports` with our
// reporter, against one unsharded `vitest run`. Also the real exit code of a failed gate.

const vitestBin = resolve(repoRoot, 'node_modules/vitest/vitest.mjs')
const fixtureRoot = resolve(fixturesDir, 'shard')
// Every pooled group misses this bar, while every test passes: the gate alone fails the run.
const thresholds = JSON.stringify({ 'baseline*': { f1: 0.99 } })

interface CliRun {
  code: number
  output: string
}

function vitestCli(args: string[], env: Record<string, string>): Promise<CliRun> {
  // A clean environment: the parent is itself a Vitest worker.
  const base = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^(VITEST|TEST$|NODE_ENV$|FORCE_COLOR$)/.test(k)),
  )
  return new Promise((done) => {
    execFile(
      process.execPath,
      [vitestBin, 'run', ...args],
      { cwd: fixtureRoot, env: { ...base, NO_COLOR: '1', DF_THRESHOLDS: thresholds, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0
        done({ code, output: stripAnsi(`${stdout}\n${stderr}`) })
      },
    )
  })
}

const temp = new TempDirs()
let shard1: CliRun
let shard2: CliRun
let merged: CliRun
let single: CliRun
let mergedReports: ReportFolder
let singleReports: ReportFolder
let blobDir: string
let shardReportDir: string

beforeAll(async () => {
  blobDir = temp.make()
  const cacheDir = temp.make()
  const mergedDir = temp.make()
  const singleDir = temp.make()
  shardReportDir = temp.make()
  const shardEnv = { DF_REPORT_DIR: shardReportDir, DF_CACHE_DIR: cacheDir }
  // `--reporter=default` beside the blob only to see which files each shard ran.
  const shard = (n: number) => [
    `--shard=${n}/2`,
    '--reporter=blob',
    '--reporter=default',
    `--outputFile.blob=${join(blobDir, `blob-${n}-2.json`)}`,
  ]
  ;[shard1, shard2, single] = await Promise.all([
    vitestCli(shard(1), shardEnv),
    vitestCli(shard(2), shardEnv),
    vitestCli([], { DF_REPORT_DIR: singleDir, DF_CACHE_DIR: cacheDir }),
  ])
  merged = await vitestCli([`--merge-reports=${blobDir}`], { DF_REPORT_DIR: mergedDir, DF_CACHE_DIR: cacheDir })
  mergedReports = reportFolder(mergedDir)
  singleReports = reportFolder(singleDir)
}, 120_000)

afterAll(() => temp.removeAll())

/** A report without what differs between two runs of the same evals: dates, durations, commit and tree state. */
function metricsOf(report: EvalReport): unknown {
  return JSON.parse(
    JSON.stringify({ ...report, config: undefined }, (key, value) =>
      ['runtimeS', 'startedAt', 'runDateUtc', 'projectCommit', 'projectDirty'].includes(key) ? '<volatile>' : value,
    ),
  )
}

describe('--shard + --merge-reports', () => {
  it('splits the files over the two shards, each writing a blob and no report', () => {
    expect(shard1.code).toBe(0)
    expect(shard2.code).toBe(0)
    expect(readdirSync(blobDir).sort()).toEqual(['blob-1-2.json', 'blob-2-2.json'])
    expect(shard1.output).toMatch(/✓ evals\/alpha\.eval\.ts \(5 tests\)/)
    expect(shard1.output).toMatch(/Test Files +1 passed \(1\)/)
    expect(shard2.output).toMatch(/✓ evals\/beta\.eval\.ts \(5 tests\)/)
    expect(shard2.output).toMatch(/Test Files +1 passed \(1\)/)
    expect(readdirSync(shardReportDir)).toEqual([])
  })

  it('gives the same metrics as one unsharded run', () => {
    const a = mergedReports.report()
    const b = singleReports.report()
    expect(a.records).toHaveLength(10)
    expect(a.aggregates.map((g) => [g.group, g.trialsRequested])).toEqual([
      ['baseline · synthetic', 6],
      ['metered@fake-model-1 · synthetic', 2],
      ['mock-qa · talk · qa', 2],
    ])
    // The pooled group holds runs of both shards.
    expect(new Set(a.records.filter((r) => r.agent === 'baseline').map((r) => r.caseId))).toEqual(
      new Set(['alpha', 'beta']),
    )
    expect(metricsOf(a)).toEqual(metricsOf(b))
    expect(mergedReports.runs().map(withoutVolatile)).toEqual(singleReports.runs().map(withoutVolatile))
    const volatileBlock = (md: string) =>
      md.replace(/\n### Dates and durations\n[\s\S]*?\n(?=\n> )/, '\n').replace(/^- project commit: .*$/m, '')
    expect(volatileBlock(mergedReports.text('leaderboard.md'))).toBe(
      volatileBlock(singleReports.text('leaderboard.md')),
    )
  })

  it('gates the merged run like the unsharded one: exit code 1 with the message, though every test passed', () => {
    const message = '✗ baseline · synthetic: f1 0.'
    for (const run of [merged, single]) {
      expect(run.output).toMatch(/Tests +10 passed \(10\)/)
      expect(run.output).toContain('dataforge-evals gate failed:')
      expect(run.output).toContain(message)
      expect(run.output).toMatch(/is below the threshold 0\.99 \(pattern "baseline\*"\)/)
      expect(run.code).toBe(1)
    }
  })
})
