import { resolve } from 'node:path'
import pc from 'picocolors'
import type { Reporter, TestCase, TestModule, Vitest } from 'vitest/node'
import type { DatasetInfo } from '../core/dataset-info.js'
import type { RunRecord } from '../core/run-record.js'
import { formatDelta, groupDeltas, readBaseline, type BaselineOptions, type GroupDelta } from '../report/baseline.js'
import { buildReport, type EvalReport } from '../report/build.js'
import { checkThresholds, failClosed, validateThresholds, type Thresholds } from '../report/gates.js'
import { projectCommit } from '../report/reproducibility.js'
import { renderTerminalSummary } from '../report/terminal.js'
import { writeReportFolder, type ReportFormat } from '../report/write-folder.js'
import { writeFileAtomic } from '../report/write-atomic.js'
import { renderJsonReport } from '../report/write-report.js'
import { recordFromTest } from './record-from-test.js'

export interface DataforgeReporterOptions {
  /** Where leaderboard.md, report.json, runs.jsonl and manifest.json go. Default `evals/__reports__`. */
  outputDir?: string
  /** Group gates, e.g. `{ 'hospital*': { f1: 0.6 }, '*': { passRate: 0.9 } }`. */
  thresholds?: Thresholds
  /** Baseline comparison; `false` turns it off. Default: `<outputDir>/baseline.json` when it exists. */
  baseline?: false | (BaselineOptions & { path?: string })
  /** Which files to write. Default all three. */
  formats?: ReportFormat[]
  /** Seed of the bootstrap intervals. Default 0. */
  statsSeed?: number
  /** Print the compact leaderboard after each run. Default true. */
  print?: boolean
  /**
   * Which test files are evals. Default: files named `*.eval.*` or inside an `evals/` folder. Runs with no
   * eval file (e.g. `vitest run test/`) leave the reporter silent; eval files with no executed eval fail closed.
   */
  evalFiles?: RegExp[]
}

const DEFAULT_EVAL_FILES = [/\.eval\.[cm]?[jt]sx?$/, /(^|[\\/])evals[\\/]/]

export type { ReportFormat }

/**
 * The eval reporter: turns test runs into RunRecords, writes the report folder, prints a leaderboard and
 * gates the run (thresholds, fail-closed, significant regressions against the baseline).
 */
export default class DataforgeReporter implements Reporter {
  private vitest: Vitest | undefined
  private readonly options: DataforgeReporterOptions
  /** Records by test id, kept across watch reruns so groups that were not rerun stay in the files. */
  private readonly records = new Map<string, RunRecord>()
  private readonly datasets = new Map<string, DatasetInfo>()
  private previous: EvalReport | null = null

  constructor(options: DataforgeReporterOptions = {}) {
    if (options.thresholds) validateThresholds(options.thresholds)
    this.options = options
  }

  onInit(vitest: Vitest): void {
    this.vitest = vitest
  }

  private get root(): string {
    return this.vitest?.config.root ?? process.cwd()
  }

  private get outputDir(): string {
    return resolve(this.root, this.options.outputDir ?? 'evals/__reports__')
  }

  private get watching(): boolean {
    return Boolean(this.vitest?.config.watch)
  }

  async onTestRunEnd(testModules: ReadonlyArray<TestModule>): Promise<void> {
    const evalModules = testModules.filter((m) => this.isEvalFile(m.moduleId))
    if (evalModules.length === 0) return
    const runDateUtc = new Date().toISOString()
    const provenance = { projectCommit: projectCommit(this.root).commit, runDateUtc }
    for (const module of evalModules) {
      for (const testCase of module.children.allTests()) this.collect(testCase, provenance)
    }
    const report = buildReport({
      records: [...this.records.values()],
      datasets: [...this.datasets.values()],
      cwd: this.root,
      runDateUtc,
      statsSeed: this.options.statsSeed ?? 0,
      config: {
        command: 'vitest',
        thresholds: this.options.thresholds ?? {},
        watch: this.watching,
      },
    })

    const lines: string[] = []
    const failures: string[] = [...failClosed(report)]
    for (const f of checkThresholds(report.aggregates, this.options.thresholds ?? {})) failures.push(f.message)

    let baselineDeltas: GroupDelta[] = []
    const baselinePath = this.baselinePath()
    const updateBaseline = process.env.DATAFORGE_UPDATE_BASELINE === '1'
    if (baselinePath && !updateBaseline) {
      const baselineRecords = await readBaseline(baselinePath)
      if (baselineRecords) {
        const baselineReport = buildReport({ records: baselineRecords, datasets: [], cwd: this.root, runDateUtc, config: {} })
        try {
          baselineDeltas = groupDeltas(baselineReport, report, this.baselineOptions())
          for (const d of baselineDeltas) if (d.verdict?.failed) failures.push(d.verdict.message)
        } catch (error) {
          failures.push(
            `baseline ${baselinePath} is not comparable with this run (${(error as Error).message}); rerun with DATAFORGE_UPDATE_BASELINE=1 to replace it`,
          )
        }
      }
    }

    await writeReportFolder(this.outputDir, report, {
      formats: this.options.formats,
      title: 'dataforge-evals leaderboard',
      baselineDeltas,
      gateFailures: failures,
    })
    if (baselinePath && updateBaseline && failClosed(report).length === 0) {
      await writeFileAtomic(baselinePath, renderJsonReport(report))
      lines.push(`dataforge-evals: baseline updated: ${baselinePath}`)
    }

    if (this.options.print !== false) {
      const color = pc.isColorSupported
      lines.unshift(`\n${pc.bold('dataforge-evals leaderboard')}\n${renderTerminalSummary(report, { color })}`)
      if (baselineDeltas.length) lines.push(pc.bold('against the baseline'), ...baselineDeltas.map(deltaLine))
      if (this.watching && this.previous) {
        const rerun = groupDeltas(this.previous, report, this.baselineOptions())
        if (rerun.length) lines.push(pc.bold('since the previous run'), ...rerun.map(deltaLine))
      }
      lines.push(`reports: ${this.outputDir}`)
    }
    if (failures.length) {
      lines.push(pc.red(pc.bold('dataforge-evals gate failed:')), ...failures.map((f) => pc.red(`  ✗ ${f}`)))
      process.exitCode = 1
    }
    this.print(lines.join('\n'))
    this.previous = report
  }

  private collect(testCase: TestCase, provenance: { projectCommit: string | null; runDateUtc: string }): void {
    const meta = testCase.meta().dataforge
    if (!meta) return
    const result = testCase.result()
    // In watch mode a test filtered out of this rerun keeps its last real result.
    if (result.state === 'skipped' && this.records.get(testCase.id)?.status !== 'skipped' && this.records.has(testCase.id)) return
    const record = recordFromTest(
      {
        fullName: testCase.fullName,
        state: result.state,
        errors: result.errors ?? [],
        durationMs: testCase.diagnostic()?.duration ?? 0,
        meta,
      },
      provenance,
    )
    this.records.set(testCase.id, record)
    if (meta.datasetInfo) this.datasets.set(`${meta.datasetInfo.id}\u0000${meta.datasetInfo.seed ?? ''}`, meta.datasetInfo)
  }

  private isEvalFile(moduleId: string): boolean {
    const relative = moduleId.startsWith(this.root) ? moduleId.slice(this.root.length) : moduleId
    return (this.options.evalFiles ?? DEFAULT_EVAL_FILES).some((re) => re.test(relative))
  }

  private baselinePath(): string | null {
    if (this.options.baseline === false) return null
    return resolve(this.outputDir, this.options.baseline?.path ?? 'baseline.json')
  }

  private baselineOptions(): BaselineOptions {
    const b = this.options.baseline
    return b ? { ...(b.alpha !== undefined ? { alpha: b.alpha } : {}), ...(b.floor !== undefined ? { floor: b.floor } : {}) } : {}
  }

  private print(text: string): void {
    if (!text) return
    if (this.vitest) this.vitest.logger.log(text)
    else process.stdout.write(`${text}\n`)
  }
}

function deltaLine(d: GroupDelta): string {
  const sig = d.verdict ? (d.verdict.significantWorse ? pc.red(' significant regression') : d.verdict.p < 0.05 ? pc.green(' significant') : ' not significant') : ''
  const p = d.verdict ? ` (b=${d.verdict.b} c=${d.verdict.c} p=${d.verdict.p.toFixed(4)})` : ''
  return `  ${d.group}: F1 ${formatDelta(d.before.f1, d.after.f1)}, pass rate ${formatDelta(d.before.passRate, d.after.passRate)}${p}${sig}`
}

export { DataforgeReporter }
