import { resolve } from 'node:path'
import pc from 'picocolors'
import type { Reporter, TestCase, TestModule, Vitest } from 'vitest/node'
import type { DatasetInfo } from '../core/dataset-info.js'
import { InputError } from '../core/errors.js'
import type { RunRecord } from '../core/run-record.js'
import { formatDelta, groupDeltas, readBaseline, type BaselineOptions, type GroupDelta } from '../report/baseline.js'
import { aggregate, groupName } from '../report/aggregate.js'
import { buildReport, type EvalReport } from '../report/build.js'
import { checkThresholds, failClosed, validateThresholds, type Thresholds } from '../report/gates.js'
import { parseDataforgeMeta } from '../core/test-meta.js'
import type { RecordProvenance } from '../report/records.js'
import { projectCommit } from '../report/reproducibility.js'
import { renderTerminalSummary } from '../report/terminal.js'
import { writeReportFolder, type ReportFormat } from '../report/write-folder.js'
import { writeFileAtomic } from '../report/write-atomic.js'
import { renderJsonReport } from '../report/write-report.js'
import { formatP } from '../stats/format.js'
import { recordFromTest } from './record-from-test.js'
import { repeatGate } from '../stats/case-trials.js'

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
  /** Repeat gate: every case must be correct in at least this many of its trials. */
  minPassesPerCase?: number
}

const REPORT_FORMATS: readonly ReportFormat[] = ['markdown', 'json', 'jsonl']
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
  private readonly records = new Map<string, { record: RunRecord; moduleId: string }>()
  private readonly datasets = new Map<string, DatasetInfo>()
  private previous: EvalReport | null = null

  /** `root` is for runners other than Vitest (whose config gives the root): paths resolve against it. */
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

  onInit(vitest: Vitest): void {
    this.vitest = vitest
  }

  private get root(): string {
    return this.vitest?.config.root ?? this.rootDir ?? process.cwd()
  }

  get outputDir(): string {
    return resolve(this.root, this.options.outputDir ?? 'evals/__reports__')
  }

  private get watching(): boolean {
    return Boolean(this.vitest?.config.watch)
  }

  async onTestRunEnd(testModules: ReadonlyArray<TestModule>): Promise<void> {
    const evalModules = testModules.filter((m) => this.isEvalFile(m.moduleId))
    if (evalModules.length === 0) return
    const runDateUtc = new Date().toISOString()
    const project = projectCommit(this.root)
    const provenance = { projectCommit: project.commit, runDateUtc }
    const touched = new Set<string>()
    for (const module of evalModules) this.collectModule(module, provenance, touched)
    await this.finishRun({
      records: [...this.records.values()].map((e) => e.record),
      datasets: [...this.datasets.values()],
      runDateUtc,
      project,
      touched,
      command: 'vitest',
    })
  }

  /**
   * Builds, gates, writes and prints one run's report from its RunRecords; sets a failing exit code when a
   * gate fails. Every runner's reporter ends here (the Jest reporter feeds it the records its workers wrote).
   */
  async finishRun(run: {
    records: RunRecord[]
    datasets: DatasetInfo[]
    runDateUtc: string
    project: ReturnType<typeof projectCommit>
    touched: ReadonlySet<string>
    command: string
  }): Promise<{ failures: string[] }> {
    const { runDateUtc, project, touched } = run
    const report = buildReport({
      records: run.records,
      datasets: run.datasets,
      cwd: this.root,
      runDateUtc,
      project,
      statsSeed: this.options.statsSeed ?? 0,
      config: {
        command: run.command,
        thresholds: this.options.thresholds ?? {},
        watch: this.watching,
      },
    })

    const lines: string[] = []
    const closed = failClosed(report)
    const failures: string[] = [...closed]
    for (const f of checkThresholds(report.aggregates, this.options.thresholds ?? {})) failures.push(f.message)
    if (this.options.minPassesPerCase !== undefined) {
      for (const c of repeatGate(report.cases, { atLeast: this.options.minPassesPerCase }).failing) {
        failures.push(`${c.agent} · ${c.dataset} · ${c.caseId}${c.turn === null ? '' : `#t${c.turn}`}: passed ${c.passes} of ${c.n} trials, the repeat gate needs ${this.options.minPassesPerCase}`)
      }
    }

    const updateBaseline = process.env.DATAFORGE_UPDATE_BASELINE === '1'
    const baseline = updateBaseline ? { deltas: [], problem: null } : await this.compareWithBaseline(report)
    if (baseline.problem) failures.push(baseline.problem)
    for (const d of baseline.deltas) if (d.verdict?.failed) failures.push(d.verdict.message)

    await writeReportFolder(this.outputDir, report, {
      formats: this.options.formats,
      title: 'dataforge-evals leaderboard',
      baselineDeltas: baseline.deltas,
      gateFailures: failures,
      alpha: this.alpha,
    })
    const baselinePath = this.baselinePath()
    if (baselinePath && updateBaseline) {
      if (closed.length === 0) {
        await writeFileAtomic(baselinePath, renderJsonReport(report))
        lines.push(`dataforge-evals: baseline updated: ${baselinePath}`)
        const skipped = report.records.filter((r) => r.status === 'skipped').length
        if (skipped) lines.push(pc.yellow(`dataforge-evals: the baseline comes from a partial run: ${skipped} skipped runs have no result in it and will not be compared`))
      } else {
        lines.push(pc.yellow(`dataforge-evals: baseline not updated (the run failed closed): ${baselinePath}`))
      }
    }

    if (this.options.print !== false) {
      const color = pc.isColorSupported
      lines.unshift(`\n${pc.bold('dataforge-evals leaderboard')}\n${renderTerminalSummary(report, { color })}`)
      if (baseline.deltas.length) lines.push(pc.bold('against the baseline'), ...baseline.deltas.map((d) => deltaLine(d, this.alpha)))
      if (this.watching && this.previous) lines.push(...this.sincePrevious(this.previous, report, touched))
      lines.push(`reports: ${this.outputDir}`)
    }
    if (failures.length) {
      lines.push(pc.red(pc.bold('dataforge-evals gate failed:')), ...failures.map((f) => pc.red(`  ✗ ${f}`)))
      process.exitCode = 1
    }
    this.print(lines.join('\n'))
    this.previous = report
    return { failures }
  }

  /** Deltas against the baseline file, or the reason the baseline cannot be used (which fails the gate). */
  private async compareWithBaseline(report: EvalReport): Promise<{ deltas: GroupDelta[]; problem: string | null }> {
    const path = this.baselinePath()
    if (!path) return { deltas: [], problem: null }
    try {
      const records = await readBaseline(path)
      if (!records) return { deltas: [], problem: null }
      return { deltas: groupDeltas({ records, aggregates: aggregate(records) }, report, this.baselineOptions()), problem: null }
    } catch (error) {
      if (!(error instanceof InputError)) throw error
      return { deltas: [], problem: `baseline ${path} cannot be used: ${error.message}; refresh it with DATAFORGE_UPDATE_BASELINE=1` }
    }
  }

  /** Watch mode: per-group deltas of the groups this rerun ran, against the previous run. */
  private sincePrevious(previous: EvalReport, report: EvalReport, touched: ReadonlySet<string>): string[] {
    try {
      const deltas = groupDeltas(previous, report, this.baselineOptions()).filter((d) => touched.has(d.group))
      return deltas.length ? [pc.bold('since the previous run'), ...deltas.map((d) => deltaLine(d, this.alpha))] : []
    } catch (error) {
      if (!(error instanceof InputError)) throw error
      return [pc.bold('since the previous run'), `  not comparable: ${error.message}`]
    }
  }

  /**
   * Collects a module's tests. Records are kept by test id across watch reruns, so groups that were not rerun
   * stay in the files; tests that no longer exist in a rerun module are dropped.
   */
  private collectModule(module: TestModule, provenance: RecordProvenance, touched: Set<string>): void {
    const present = new Set<string>()
    for (const testCase of module.children.allTests()) {
      present.add(testCase.id)
      const record = this.collect(testCase, module.moduleId, provenance)
      if (record && record.status !== 'skipped') touched.add(groupName(record))
    }
    for (const [id, entry] of this.records) if (entry.moduleId === module.moduleId && !present.has(id)) this.records.delete(id)
  }

  private collect(testCase: TestCase, moduleId: string, provenance: RecordProvenance): RunRecord | null {
    const raw = testCase.meta().dataforge
    if (!raw) return null
    const meta = parseDataforgeMeta(raw, testCase.fullName)
    const result = testCase.result()
    // In watch mode a test filtered out of this rerun keeps its last real result.
    const kept = this.records.get(testCase.id)?.record
    if (result.state === 'skipped' && kept && kept.status !== 'skipped') return null
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
    this.records.set(testCase.id, { record, moduleId })
    if (meta.datasetInfo) this.datasets.set(`${meta.datasetInfo.id}\u0000${meta.datasetInfo.seed ?? ''}`, meta.datasetInfo)
    return record
  }

  isEvalFile(moduleId: string): boolean {
    const relative = moduleId.startsWith(this.root) ? moduleId.slice(this.root.length) : moduleId
    return (this.options.evalFiles ?? DEFAULT_EVAL_FILES).some((re) => re.test(relative))
  }

  private baselinePath(): string | null {
    if (this.options.baseline === false) return null
    return resolve(this.outputDir, this.options.baseline?.path ?? 'baseline.json')
  }

  private get alpha(): number {
    return this.baselineOptions().alpha ?? 0.05
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

function validateBaselineOptions(b: BaselineOptions): void {
  if (b.alpha !== undefined && !(typeof b.alpha === 'number' && b.alpha > 0 && b.alpha < 1)) {
    throw new InputError(`baseline.alpha must be a number between 0 and 1 (exclusive), got ${JSON.stringify(b.alpha)}`)
  }
  if (b.floor !== undefined && !(typeof b.floor === 'number' && b.floor >= 0 && b.floor <= 1)) {
    throw new InputError(`baseline.floor must be a number between 0 and 1, got ${JSON.stringify(b.floor)}`)
  }
}

function deltaLine(d: GroupDelta, alpha: number): string {
  const v = d.verdict
  let verdict = ''
  if (v && v.n > 0) {
    const counts = ` (b=${v.b} c=${v.c} p=${formatP(v.p)}, ${v.n} pairs)`
    const label = v.significantWorse
      ? pc.red('significant regression')
      : v.p < alpha
        ? pc.green('significant improvement')
        : 'not significant'
    verdict = `${counts} ${label}${v.belowFloor ? pc.red(', below the floor') : ''}`
  } else if (v) {
    verdict = ' (no paired runs)'
  }
  return `  ${d.group}: F1 ${formatDelta(d.before.f1, d.after.f1)}, pass rate ${formatDelta(d.before.passRate, d.after.passRate)}${verdict}`
}

export { DataforgeReporter }
