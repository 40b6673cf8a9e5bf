import { relative, resolve } from 'node:path'
import pc from 'picocolors'
import type { DatasetInfo } from '../core/dataset-info.js'
import type { RunRecord } from '../core/run-record.js'
import { InputError } from '../core/errors.js'
import {
  type BaselineFile,
  type BaselineOptions,
  baselineFromRecords,
  baselineRuns,
  type GroupDelta,
  groupDeltas,
  mergeBaseline,
  readBaseline,
  renderBaseline,
} from './baseline.js'
import { buildReport, type EvalReport } from './build.js'
import { evaluateGates, type Thresholds, validateThresholds } from './gates.js'
import type { projectCommit } from './reproducibility.js'
import { renderDeltaLine, renderRunEnd } from './terminal.js'
import { writeFileAtomic } from '../files/write-atomic.js'
import { REPORT_FORMATS, type ReportFormat, writeReportFolder } from './write-folder.js'

export interface DataforgeReporterOptions {
  /** Where leaderboard.md, report.json, runs.jsonl and manifest.json go. Default `evals/__reports__`. */
  outputDir?: string
  /** Group gates, e.g. `{ 'hospital*': { f1: 0.6 }, '*': { passRate: 0.9 } }`. */
  thresholds?: Thresholds
  /** Baseline comparison; `false` turns it off. Default: `<outputDir>/baseline.json` when it exists. */
  baseline?: false | (BaselineOptions & { path?: string })
  /** Which files to write (`REPORT_FORMATS`: markdown, json, jsonl, html). Default all but 'html' (`report.html`, charts). */
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
  /** Repeat gate: every case must be correct in at least this many of its trials. */
  minPassesPerCase?: number
}

const DEFAULT_EVAL_FILES = [/\.eval\.[cm]?[jt]sx?$/, /(^|[\\/])evals[\\/]/]

export type { ReportFormat }

/** One run's RunRecords and what the report needs to know about the run. */
export interface FinishedRun {
  records: RunRecord[]
  datasets: DatasetInfo[]
  runDateUtc: string
  project: ReturnType<typeof projectCommit>
  /** Groups that executed in this run (watch mode's deltas against the previous run). */
  touched: ReadonlySet<string>
  /** Some eval of the project did not run (a name, file or shard filter). */
  filtered: boolean
  command: string
}

/**
 * What every runner's eval reporter shares, with no test runner in it: the options, and the end of a run —
 * report, gates, baseline, report folder, printout and exit code — from the run's RunRecords. The Vitest
 * reporter and the Jest reporter only gather those records.
 */
export abstract class EvalReporterBase {
  protected readonly options: DataforgeReporterOptions
  protected previous: EvalReport | null = null

  /** `rootDir`: where relative paths resolve (a runner with a config root may override `root`). */
  constructor(options: DataforgeReporterOptions = {}, private readonly rootDir?: string) {
    if (options.thresholds) validateThresholds(options.thresholds)
    const k = options.minPassesPerCase
    if (k !== undefined && !(Number.isInteger(k) && k >= 1)) throw new Error(`minPassesPerCase must be a positive integer, got ${k}`)
    if (options.baseline) validateBaselineOptions(options.baseline)
    for (const format of options.formats ?? []) {
      if (!REPORT_FORMATS.includes(format)) throw new InputError(`formats: unknown format ${JSON.stringify(format)}; use ${REPORT_FORMATS.join(', ')}`)
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
    if (text) process.stdout.write(`${text}\n`)
  }

  /** Builds, gates, writes and prints one run's report; sets a failing exit code when a gate fails. */
  async finishRun(run: FinishedRun): Promise<{ failures: string[] }> {
    const report = buildReport({
      records: run.records,
      datasets: run.datasets,
      cwd: this.root,
      runDateUtc: run.runDateUtc,
      project: run.project,
      statsSeed: this.options.statsSeed ?? 0,
      config: { command: run.command, thresholds: this.options.thresholds ?? {}, watch: this.watching },
    })

    const updating = process.env.DATAFORGE_UPDATE_BASELINE === '1'
    const existing = await this.loadBaseline()
    const baseline = updating || existing.problem ? { deltas: [], problem: updating ? null : existing.problem } : this.compare(existing.file, report)
    const gate = evaluateGates({
      report,
      thresholds: this.options.thresholds ?? {},
      ...(this.options.minPassesPerCase === undefined ? {} : { minPassesPerCase: this.options.minPassesPerCase }),
      baseline,
      filtered: run.filtered,
    })

    // The baseline first: when it sits in the report folder, the folder's manifest then lists it as written.
    const baselineUpdate = updating ? await this.updateBaseline(report, existing.file, gate.closed.length === 0) : []
    await writeReportFolder(this.outputDir, report, {
      formats: this.options.formats,
      title: 'dataforge-evals leaderboard',
      baselineDeltas: baseline.deltas,
      gateFailures: gate.failures,
      gateNotes: gate.notes,
      alpha: this.alpha,
      baselineNote: this.baselineNote(existing.file, updating),
    })
    const color = pc.isColorSupported
    this.print(
      renderRunEnd({
        report,
        gate,
        baselineDeltas: baseline.deltas,
        sincePrevious: this.watching && this.previous ? this.sincePrevious(this.previous, report, run.touched, color) : [],
        baselineUpdate,
        outputDir: this.outputDir,
        print: this.options.print !== false,
        color,
      }),
    )
    if (gate.failures.length) process.exitCode = 1
    this.previous = report
    return { failures: gate.failures }
  }

  /** The baseline file, or why it cannot be used (which fails the gate unless the run updates it). */
  private async loadBaseline(): Promise<{ file: BaselineFile | null; problem: string | null }> {
    const path = this.baselinePath()
    if (!path) return { file: null, problem: null }
    try {
      return { file: await readBaseline(path), problem: null }
    } catch (error) {
      if (!(error instanceof InputError)) throw error
      return { file: null, problem: `baseline ${path} cannot be used: ${error.message}; refresh it with DATAFORGE_UPDATE_BASELINE=1` }
    }
  }

  protected compare(file: BaselineFile | null, report: EvalReport): { deltas: GroupDelta[]; problem: string | null } {
    if (!file) return { deltas: [], problem: null }
    try {
      return { deltas: groupDeltas(baselineRuns(file), report, this.baselineOptions()), problem: null }
    } catch (error) {
      if (!(error instanceof InputError)) throw error
      return { deltas: [], problem: `baseline ${this.baselinePath()} cannot be used: ${error.message}; refresh it with DATAFORGE_UPDATE_BASELINE=1` }
    }
  }

  /** What the leaderboard says when there is no baseline comparison (no machine paths: the page is diffed). */
  protected baselineNote(file: BaselineFile | null, updating: boolean): string {
    const path = this.baselinePath()
    if (!path) return 'Baseline comparison is off (`baseline: false`).'
    const where = relative(this.outputDir, path)
    const name = where.startsWith('..') ? (this.options.baseline ? this.options.baseline.path : undefined) ?? path : `${where} next to these reports`
    if (updating) return `This run updates the baseline (${name}); it is not compared with it.`
    if (!file) return `No baseline to compare with: \`DATAFORGE_UPDATE_BASELINE=1\` writes ${name}.`
    return ''
  }

  /** Writes the merged baseline (groups not run are kept); nothing when the run failed closed. */
  protected async updateBaseline(report: EvalReport, existing: BaselineFile | null, scored: boolean): Promise<string[]> {
    const path = this.baselinePath()
    if (!path) return []
    if (!scored) return [pc.yellow(`dataforge-evals: baseline not updated (the run failed closed): ${path}`)]
    const { file, kept } = mergeBaseline(existing, baselineFromRecords(report.records))
    await writeFileAtomic(path, renderBaseline(file))
    const lines = [`dataforge-evals: baseline updated: ${path}`]
    if (kept.length) lines.push(`dataforge-evals: kept ${kept.length} baseline groups this run did not execute: ${kept.join(', ')}`)
    const skipped = report.records.filter((r) => r.status === 'skipped').length
    if (skipped) lines.push(pc.yellow(`dataforge-evals: the baseline comes from a partial run: ${skipped} skipped runs have no result in it and will not be compared`))
    return lines
  }

  /** Watch mode: per-group deltas of the groups this rerun ran, against the previous run. */
  protected sincePrevious(previous: EvalReport, report: EvalReport, touched: ReadonlySet<string>, color: boolean): string[] {
    try {
      const deltas = groupDeltas(previous.records.filter((r) => r.status !== 'skipped'), report, { ...this.baselineOptions(), against: 'previous run' }).filter(
        (d) => touched.has(d.group) && d.status === 'compared',
      )
      return deltas.length ? [pc.bold('since the previous run'), ...deltas.map((d) => renderDeltaLine(d, { color }))] : []
    } catch (error) {
      if (!(error instanceof InputError)) throw error
      return [pc.bold('since the previous run'), `  not comparable: ${error.message}`]
    }
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
    return b ? { ...(b.alpha !== undefined ? { alpha: b.alpha } : {}), ...(b.floor !== undefined ? { floor: b.floor } : {}) } : {}
  }
}

function validateBaselineOptions(b: BaselineOptions): void {
  if (b.alpha !== undefined && !(typeof b.alpha === 'number' && b.alpha > 0 && b.alpha < 1)) {
    throw new InputError(`baseline.alpha must be a number between 0 and 1 (exclusive), got ${JSON.stringify(b.alpha)}`)
  }
  if (b.floor !== undefined && !(typeof b.floor === 'number' && b.floor >= 0 && b.floor <= 1)) {
    throw new InputError(`baseline.floor must be a number between 0 and 1, got ${JSON.stringify(b.floor)}`)
  }
}
