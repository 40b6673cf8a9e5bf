import { rmSync } from 'node:fs'
import { join, relative } from 'node:path'
import { type DataforgeReporterOptions, EvalReporterBase } from '../reporter-base.js'
import { projectCommit } from '../../report-builder/reproducibility.js'
import { finishJestRun } from './run-end.js'
import { type ShardSpec, shardOf, writeShardFile } from './shards.js'
import { collectSideFiles, SIDE_DIR_ENV } from '../../jest/side-file.js'
import { terminalText } from '../../core/escape-text.js'
import { brokenFilesNote } from '../broken-files-note.js'

/** The parts of Jest's reporter arguments this reporter reads. */
interface JestGlobalConfig {
  rootDir: string
  testNamePattern?: string | null
  shard?: unknown
  testPathPatterns?: unknown
}
interface JestAggregatedResult {
  testResults: ReadonlyArray<{ testFilePath: string; testExecError?: { message?: string } | null }>
}

/**
 * `reporters: ['default', ['dataforge-evals/jest-reporter', options]]`: the same report folder, gates and exit
 * code as the Vitest reporter (it is the Vitest reporter's report path, fed from the workers' side files).
 * Options are the Vitest reporter's. Under `--shard=i/n` it also keeps the shard's records for `merge-shards`.
 */
export default class DataforgeJestReporter extends EvalReporterBase {
  private readonly sideDir: string
  /** A name or path filter narrowed the run (a shard alone is not a filter once the shards are merged). */
  private readonly narrowed: boolean
  private readonly shard: ShardSpec | null
  private failure: Error | undefined
  /** When this run started: its records' `runDateUtc` (as under Vitest). */
  private runDateUtc: string | null = null

  constructor(globalConfig: JestGlobalConfig, options: DataforgeReporterOptions = {}) {
    super(options ?? {}, globalConfig.rootDir)
    this.narrowed = Boolean(globalConfig.testNamePattern) || hasPathFilter(globalConfig.testPathPatterns)
    this.shard = shardOf(globalConfig.shard)
    // One folder per run: a crashed earlier run's leftovers never mix into this one.
    this.sideDir = join(this.outputDir, '.jest-runs', `${process.pid}-${Date.now().toString(36)}`)
    rmSync(this.sideDir, { recursive: true, force: true })
    process.env[SIDE_DIR_ENV] = this.sideDir
  }

  onRunStart(): void {
    this.runDateUtc = new Date().toISOString()
  }

  async onRunComplete(_contexts: unknown, results: JestAggregatedResult): Promise<void> {
    const runDateUtc = this.runDateUtc ?? new Date().toISOString()
    this.runDateUtc = null
    const collected = collectSideFiles(this.sideDir)
    const evalFiles = new Set(results.testResults.map((r) => r.testFilePath).filter((path) => this.isEvalFile(path)))
    if (evalFiles.size === 0 && !this.shard) return
    for (const problem of collected.problems)
      process.stderr.write(`dataforge-evals: skipped a side-file line: ${terminalText(problem)}\n`)
    const brokenFiles = results.testResults.filter((r) => r.testExecError && evalFiles.has(r.testFilePath))
    if (brokenFiles.length)
      this.print(
        brokenFilesNote(
          brokenFiles.map((r) => ({
            path: relative(this.root, r.testFilePath),
            message: r.testExecError?.message ?? '',
          })),
        ),
      )
    const lines = collected.lines
      .filter((l) => evalFiles.has(l.testPath))
      .map((l) => ({ ...l, testPath: relative(this.root, l.testPath) }))
    const project = projectCommit(this.root)
    // A shard with no eval file still writes its (empty) part: the merge needs every shard.
    if (this.shard)
      await writeShardFile(this.outputDir, this.shard, {
        lines,
        filtered: this.narrowed,
        options: this.options,
        project,
        runDateUtc,
      })
    if (evalFiles.size === 0) return
    // A file that failed outside its tests leaves the run incomplete: its groups are neither reported nor dropped from the baseline.
    const partial = this.narrowed || this.shard !== null || brokenFiles.length > 0
    const { failures } = await finishJestRun(this, lines, { filtered: partial, runDateUtc, project })
    this.failure = failures.length ? new Error(`dataforge-evals gate failed: ${failures.join('; ')}`) : undefined
  }

  /** Jest fails the run (exit code 1) when a reporter reports an error. */
  getLastError(): Error | undefined {
    return this.failure
  }
}

/** Jest 30 keeps the CLI's path patterns as an object with `patterns`; older versions as an array. */
function hasPathFilter(patterns: unknown): boolean {
  if (Array.isArray(patterns)) return patterns.length > 0
  const list = (patterns as { patterns?: unknown[] } | null | undefined)?.patterns
  return Array.isArray(list) && list.length > 0
}

export { DataforgeJestReporter }
export type { DataforgeReporterOptions }
