import { rmSync } from 'node:fs'
import { join, relative } from 'node:path'
import type { DatasetInfo } from '../core/dataset-info.js'
import { projectCommit } from '../report/reproducibility.js'
import { groupName } from '../report/aggregate.js'
import { type DataforgeReporterOptions, EvalReporterBase } from '../report/eval-reporter-base.js'
import { collectSideFiles, SIDE_DIR_ENV } from './side-file.js'

/** The parts of Jest's reporter arguments this reporter reads. */
interface JestGlobalConfig {
  rootDir: string
  testNamePattern?: string | null
  shard?: unknown
  testPathPatterns?: unknown
}
interface JestAggregatedResult {
  testResults: ReadonlyArray<{ testFilePath: string }>
}

/**
 * `reporters: ['default', ['dataforge-evals/jest-reporter', options]]`: the same report folder, gates and exit
 * code as the Vitest reporter (it is the Vitest reporter's report path, fed from the workers' side files).
 * Options are the Vitest reporter's.
 */
export default class DataforgeJestReporter extends EvalReporterBase {
  private readonly sideDir: string
  private readonly filtered: boolean
  private failure: Error | undefined

  constructor(globalConfig: JestGlobalConfig, options: DataforgeReporterOptions = {}) {
    super(options ?? {}, globalConfig.rootDir)
    this.filtered = Boolean(globalConfig.testNamePattern) || Boolean(globalConfig.shard) || hasPathFilter(globalConfig.testPathPatterns)
    // One folder per run: a crashed earlier run's leftovers never mix into this one.
    this.sideDir = join(this.outputDir, '.jest-runs', `${process.pid}-${Date.now().toString(36)}`)
    rmSync(this.sideDir, { recursive: true, force: true })
    process.env[SIDE_DIR_ENV] = this.sideDir
  }

  async onRunComplete(_contexts: unknown, results: JestAggregatedResult): Promise<void> {
    const collected = collectSideFiles(this.sideDir)
    const evalFiles = new Set(results.testResults.map((r) => r.testFilePath).filter((path) => this.isEvalFile(path)))
    if (evalFiles.size === 0) return
    for (const problem of collected.problems) process.stderr.write(`dataforge-evals: skipped a side-file line: ${problem}\n`)
    const runDateUtc = new Date().toISOString()
    const project = projectCommit(this.root)
    const lines = collected.lines.filter((l) => evalFiles.has(l.testPath))
    lines.sort((a, b) => compareKeys(relative(this.root, a.testPath), relative(this.root, b.testPath)))
    const records = lines.map((l) => ({ ...l.record, projectCommit: project.commit, runDateUtc }))
    const datasets = new Map<string, DatasetInfo>()
    for (const { datasetInfo } of lines) if (datasetInfo) datasets.set(`${datasetInfo.id}\u0000${datasetInfo.seed ?? ''}`, datasetInfo)
    const { failures } = await this.finishRun({
      records,
      datasets: [...datasets.values()],
      runDateUtc,
      project,
      touched: new Set(records.filter((r) => r.status !== 'skipped').map(groupName)),
      filtered: this.filtered,
      command: 'jest',
    })
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

function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

export { DataforgeJestReporter }
export type { DataforgeReporterOptions }
