import { rmSync } from 'node:fs'
import { join, relative } from 'node:path'
import type { DatasetInfo } from '../core/dataset-info.js'
import { projectCommit } from '../report/reproducibility.js'
import { groupName } from '../report/aggregate.js'
import DataforgeReporter, { type DataforgeReporterOptions } from '../reporter/index.js'
import { collectSideFiles, SIDE_DIR_ENV } from './side-file.js'

/** The parts of Jest's reporter arguments this reporter reads. */
interface JestGlobalConfig {
  rootDir: string
}
interface JestAggregatedResult {
  testResults: ReadonlyArray<{ testFilePath: string }>
}

/**
 * `reporters: ['default', ['dataforge-evals/jest-reporter', options]]`: the same report folder, gates and exit
 * code as the Vitest reporter (it is the Vitest reporter's report path, fed from the workers' side files).
 * Options are the Vitest reporter's.
 */
export default class DataforgeJestReporter {
  private readonly reporter: DataforgeReporter
  private readonly root: string
  private readonly sideDir: string
  private failure: Error | undefined

  constructor(globalConfig: JestGlobalConfig, options: DataforgeReporterOptions = {}) {
    this.root = globalConfig.rootDir
    this.reporter = new DataforgeReporter(options ?? {}, this.root)
    // One folder per run: a crashed earlier run's leftovers never mix into this one.
    this.sideDir = join(this.reporter.outputDir, '.jest-runs', `${process.pid}-${Date.now().toString(36)}`)
    rmSync(this.sideDir, { recursive: true, force: true })
    process.env[SIDE_DIR_ENV] = this.sideDir
  }

  async onRunComplete(_contexts: unknown, results: JestAggregatedResult): Promise<void> {
    const collected = collectSideFiles(this.sideDir)
    const evalFiles = new Set(results.testResults.map((r) => r.testFilePath).filter((path) => this.reporter.isEvalFile(path)))
    if (evalFiles.size === 0) return
    for (const problem of collected.problems) process.stderr.write(`dataforge-evals: skipped a side-file line: ${problem}\n`)
    const runDateUtc = new Date().toISOString()
    const project = projectCommit(this.root)
    const lines = collected.lines.filter((l) => evalFiles.has(l.testPath))
    lines.sort((a, b) => compareKeys(relative(this.root, a.testPath), relative(this.root, b.testPath)))
    const records = lines.map((l) => ({ ...l.record, projectCommit: project.commit, runDateUtc }))
    const datasets = new Map<string, DatasetInfo>()
    for (const { datasetInfo } of lines) if (datasetInfo) datasets.set(`${datasetInfo.id}\u0000${datasetInfo.seed ?? ''}`, datasetInfo)
    const { failures } = await this.reporter.finishRun({
      records,
      datasets: [...datasets.values()],
      runDateUtc,
      project,
      touched: new Set(records.filter((r) => r.status !== 'skipped').map(groupName)),
      command: 'jest',
    })
    this.failure = failures.length ? new Error(`dataforge-evals gate failed: ${failures.join('; ')}`) : undefined
  }

  /** Jest fails the run (exit code 1) when a reporter reports an error. */
  getLastError(): Error | undefined {
    return this.failure
  }
}

function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

export { DataforgeJestReporter }
export type { DataforgeReporterOptions }
