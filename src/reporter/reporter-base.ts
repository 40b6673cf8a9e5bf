import { resolve } from 'node:path'
import { InputError } from '../core/errors.js'
import type { EvalReport } from '../report-builder/build.js'
import { REPORT_FORMATS, type ReportFormat } from '../report-builder/report-formats.js'
import type { BaselineOptions } from '../report-builder/baseline.js'
import type { DataforgeReporterOptions, FinishedRun } from '../report-builder/reporter-options.js'
import { validateThresholds } from '../report-builder/thresholds.js'
import { terminalOutput } from '../core/escape-text.js'

const DEFAULT_EVAL_FILES = [/\.eval\.[cm]?[jt]sx?$/, /(^|[\\/])evals[\\/]/]

export type { DataforgeReporterOptions, ReportFormat }

/**
 * What every runner's eval reporter shares, with no test runner in it: the options, and the end of a run —
 * report, gates, baseline, report folder, printout and exit code — from the run's RunRecords. The Vitest
 * reporter and the Jest reporter only gather those records. The end of a run lives in run-end.ts and loads
 * on demand (`preloadRunEnd`): this module is imported with the config, before any test starts.
 */
export abstract class EvalReporterBase {
  protected readonly options: DataforgeReporterOptions
  protected previous: EvalReport | null = null

  /** `rootDir`: where relative paths resolve (a runner with a config root may override `root`). */
  constructor(
    options: DataforgeReporterOptions = {},
    private readonly rootDir?: string,
  ) {
    if (options.thresholds) validateThresholds(options.thresholds)
    const k = options.minPassesPerCase
    if (k !== undefined && !(Number.isInteger(k) && k >= 1))
      throw new Error(`minPassesPerCase must be a positive integer, got ${k}`)
    if (options.baseline) validateBaselineOptions(options.baseline)
    for (const format of options.formats ?? []) {
      if (!REPORT_FORMATS.includes(format))
        throw new InputError(`formats: unknown format ${JSON.stringify(format)}; use ${REPORT_FORMATS.join(', ')}`)
    }
    const g = options.github
    if (
      g !== undefined &&
      typeof g !== 'boolean' &&
      !(g && typeof g === 'object' && (g.reportUrl === undefined || typeof g.reportUrl === 'string'))
    ) {
      throw new InputError(`github must be true, false or { reportUrl: string }, got ${JSON.stringify(g)}`)
    }
    this.options = options
  }

  protected get root(): string {
    return this.rootDir ?? process.cwd()
  }

  get outputDir(): string {
    return resolve(this.root, this.options.outputDir ?? 'evals/__reports__')
  }

  protected get watching(): boolean {
    return false
  }

  protected print(text: string): void {
    if (text) process.stdout.write(`${terminalOutput(text)}\n`)
  }

  /**
   * Starts loading the end of a run (report builder, renderers, report folder) in the background; a runner's
   * reporter calls it once the tests are under way, so the import is not paid at the run's end.
   */
  preloadRunEnd(): Promise<typeof import('../report-builder/run-end.js')> {
    this.runEnd ??= import('../report-builder/run-end.js').then((runEnd) => {
      runEnd.readVersionsAhead()
      return runEnd
    })
    return this.runEnd
  }

  private runEnd: Promise<typeof import('../report-builder/run-end.js')> | null = null

  private chartsPreloaded = false

  /**
   * Starts loading the HTML report's chart renderer (Vega and Vega-Lite) in the background; a runner's reporter
   * calls it once its collected tests name two groups, when the page will draw a Score chart.
   */
  protected preloadCharts(): void {
    if (this.chartsPreloaded || !(this.options.formats ?? REPORT_FORMATS).includes('html')) return
    this.chartsPreloaded = true
    preloadVega()
  }

  /** Builds, gates, writes and prints one run's report; sets a failing exit code when a gate fails. */
  async finishRun(run: FinishedRun): Promise<{ failures: string[] }> {
    const { endRun } = await this.preloadRunEnd()
    const { report, failures } = await endRun(
      {
        options: this.options,
        root: this.root,
        outputDir: this.outputDir,
        watching: this.watching,
        previous: this.previous,
        baselinePath: this.baselinePath(),
        baselineOptions: this.baselineOptions(),
        alpha: this.alpha,
        print: (text) => this.print(text),
      },
      run,
    )
    this.previous = report
    if (failures.length) this.failRun()
    return { failures }
  }

  /** A reporter fails its runner's process (exit code 1); a command that returns its exit code overrides this. */
  protected failRun(): void {
    process.exitCode = 1
  }

  isEvalFile(moduleId: string): boolean {
    const relative = moduleId.startsWith(this.root) ? moduleId.slice(this.root.length) : moduleId
    return (this.options.evalFiles ?? DEFAULT_EVAL_FILES).some((re) => re.test(relative))
  }

  protected baselinePath(): string | null {
    if (this.options.baseline === false) return null
    return resolve(this.outputDir, this.options.baseline?.path ?? 'baseline.json')
  }

  protected get alpha(): number {
    return this.baselineOptions().alpha ?? 0.05
  }

  protected baselineOptions(): BaselineOptions {
    const b = this.options.baseline
    return b
      ? {
          ...(b.alpha !== undefined ? { alpha: b.alpha } : {}),
          ...(b.floor !== undefined ? { floor: b.floor } : {}),
          ...(b.minDelta !== undefined ? { minDelta: b.minDelta } : {}),
        }
      : {}
  }
}

/**
 * Vega and Vega-Lite (the HTML report's charts) load while the tests run: they are most of the HTML report's cost
 * in a short run. Only when a chart is likely: a page of one group has no Score chart, and loading them for
 * nothing cost that run ~50 ms of CPU (other charts of such a page load them at its end). A failure is not lost:
 * the chart rendering awaits the same load and reports it. No chart is drawn ahead: a warm-up drawing saved
 * ~15 ms at the run's end and cost ~60 ms of CPU while the tests ran, which on two cores the tests pay
 * (BENCHMARKS.md).
 */
function preloadVega(): void {
  import('../report-builder/html/vega-svg.js').then(
    ({ loadVega }) => loadVega().catch(() => {}),
    () => {},
  )
}

function validateBaselineOptions(b: BaselineOptions): void {
  if (b.alpha !== undefined && !(typeof b.alpha === 'number' && b.alpha > 0 && b.alpha < 1)) {
    throw new InputError(`baseline.alpha must be a number between 0 and 1 (exclusive), got ${JSON.stringify(b.alpha)}`)
  }
  if (b.floor !== undefined && !(typeof b.floor === 'number' && b.floor >= 0 && b.floor <= 1)) {
    throw new InputError(`baseline.floor must be a number between 0 and 1, got ${JSON.stringify(b.floor)}`)
  }
  if (b.minDelta !== undefined && !(typeof b.minDelta === 'number' && b.minDelta >= 0 && b.minDelta <= 1)) {
    throw new InputError(`baseline.minDelta must be a number between 0 and 1, got ${JSON.stringify(b.minDelta)}`)
  }
}
