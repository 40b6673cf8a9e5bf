import { existsSync } from 'node:fs'
import { counted } from '../stats/number-format.js'
import { relative } from 'node:path'
import pc from 'picocolors'
import { InputError } from '../core/errors.js'
import { writeFileAtomic } from '../files/write-atomic.js'
import type { BaselineFile, BaselineOptions, GroupDelta } from './baseline.js'
import { buildReport, type EvalReport } from './build.js'
import { dependencyVersions } from './reproducibility.js'
import { toolVersion } from './tool-version.js'
import type { DataforgeReporterOptions, FinishedRun } from './reporter-options.js'
import { checkThresholds, evaluateGates } from './gates.js'
import { githubOutputPlan } from './github/plan.js'
import { renderDeltaLine, renderRunEnd } from './terminal.js'
import { valueCutsOf } from './value-cuts.js'
import { writeReportFolder } from './write-folder.js'
import { asGateRow, gateGroupName, gatesPerSuite } from './gate-groups.js'
import { aggregate } from './aggregate.js'
import { exportRunTraces } from './tracing/run-traces.js'

/*
 * The end of a run for every runner's eval reporter: report, gates, baseline, report folder, printout and exit
 * code. Kept apart from EvalReporterBase, which the reporters import with the config: this graph (report
 * builder, renderers) loads while the tests run, not before the first worker starts. The baseline's reading,
 * comparisons and statistical tests (and zod, for checking the file) load only when a run has a baseline file,
 * updates it, or compares with the previous run in watch mode: the usual run needs none of them.
 */

const baselineModule = () => import('./baseline.js')

/** What the end of a run needs from its reporter. */
export interface RunEndHost {
  readonly options: DataforgeReporterOptions
  readonly root: string
  readonly outputDir: string
  readonly watching: boolean
  /** The previous run's report (watch mode's deltas). */
  readonly previous: EvalReport | null
  /** Where the baseline file is, or null when comparison is off. */
  readonly baselinePath: string | null
  readonly baselineOptions: BaselineOptions
  readonly alpha: number
  print(text: string): void
}

/**
 * Reads now what every report states and no result changes (this package's version, Node's and the installed
 * packages' versions; each read once per process), so the end of the run does not: the reporter calls it when
 * the run end has loaded, while the tests run.
 */
export function readVersionsAhead(): void {
  toolVersion()
  dependencyVersions()
}

/** Builds, gates, writes and prints one run's report; returns the gate failures. */
export async function endRun(host: RunEndHost, run: FinishedRun): Promise<{ report: EvalReport; failures: string[] }> {
  const { options } = host
  const report = buildReport({
    records: run.records,
    datasets: run.datasets,
    cwd: host.root,
    runDateUtc: run.runDateUtc,
    project: run.project,
    statsSeed: options.statsSeed ?? 0,
    config: {
      command: run.command,
      thresholds: options.thresholds ?? {},
      watch: host.watching,
      // The runner doors price calls from DATAFORGE_PRICES only; without it the report does not claim either way.
      ...(process.env.DATAFORGE_PRICES?.trim() ? { priced: true } : {}),
    },
  })

  const updating = process.env.DATAFORGE_UPDATE_BASELINE === '1'
  const existing = await loadBaseline(host.baselinePath)
  const baseline = updating || existing.problem ? { deltas: [], problem: updating ? null : existing.problem } : await compare(host, existing.file, report)
  const gate = evaluateGates({
    report,
    thresholds: options.thresholds ?? {},
    ...(options.minPassesPerCase === undefined ? {} : { minPassesPerCase: options.minPassesPerCase }),
    baseline,
    filtered: run.filtered,
  })

  // The baseline first: when it sits in the report folder, the folder's manifest then lists it as written.
  const baselineUpdate = updating ? await updateBaseline(host.baselinePath, report, existing.file, gate.closed.length === 0) : []
  await writeReportFolder(host.outputDir, report, {
    formats: options.formats,
    title: 'dataforge-evals leaderboard',
    baselineDeltas: baseline.deltas,
    gateFailures: gate.failures,
    gateNotes: gate.notes,
    alpha: host.alpha,
    baselineNote: baselineNote(host, existing.file, updating),
    ...(run.transcripts ? { transcripts: run.transcripts } : {}),
  })
  await exportRunTraces(options.otel, run.records, { cwd: host.root, env: process.env }, (line) => host.print(line))
  const color = pc.isColorSupported
  host.print(
    renderRunEnd({
      report,
      gate,
      baselineDeltas: baseline.deltas,
      alpha: host.alpha,
      sincePrevious: host.watching && host.previous ? await sincePrevious(host, host.previous, report, run.touched, color) : [],
      baselineUpdate,
      outputDir: host.outputDir,
      print: options.print !== false,
      color,
    }),
  )
  const github = githubOutputPlan(options.github, process.env)
  if (github) {
    const view = {
      aggregates: report.aggregates,
      failures: gate.failures,
      notes: gate.notes,
      thresholdFailures: checkThresholds(report.aggregates, options.thresholds ?? {}),
      deltas: baseline.deltas,
      alpha: host.alpha,
      floor: host.baselineOptions.floor ?? null,
      valueCuts: valueCutsOf(report.records),
      title: `dataforge-evals (${run.command})`,
      ...(run.sources ? { files: withGateGroups(run.sources, report) } : {}),
    }
    // Loaded only when GitHub output is on: most runs write none.
    const { writeGithubOutput } = await import('./github-output.js')
    const { annotations } = await writeGithubOutput(view, github, host.outputDir)
    host.print(annotations.join('\n'))
  }
  return { report, failures: gate.failures }
}

/** The eval files by group, with each gate group (a built-in suite) at the file of its first row. */
function withGateGroups(sources: ReadonlyMap<string, { file: string; line?: number }>, report: EvalReport): Map<string, { file: string; line?: number }> {
  const files = new Map(sources)
  for (const a of report.aggregates) {
    const at = sources.get(a.group)
    const name = gateGroupName(a)
    if (at && !files.has(name)) files.set(name, at)
  }
  return files
}

/** The baseline file, or why it cannot be used (which fails the gate unless the run updates it). */
async function loadBaseline(path: string | null): Promise<{ file: BaselineFile | null; problem: string | null }> {
  if (!path || !existsSync(path)) return { file: null, problem: null }
  try {
    const { readBaseline } = await baselineModule()
    return { file: await readBaseline(path), problem: null }
  } catch (error) {
    if (!(error instanceof InputError)) throw error
    return { file: null, problem: `baseline ${path} cannot be used: ${error.message}; refresh it with DATAFORGE_UPDATE_BASELINE=1` }
  }
}

async function compare(host: RunEndHost, file: BaselineFile | null, report: EvalReport): Promise<{ deltas: GroupDelta[]; problem: string | null }> {
  if (!file) return { deltas: [], problem: null }
  const { baselineRuns, groupDeltas } = await baselineModule()
  try {
    return { deltas: groupDeltas(baselineRuns(file).map(asGateRow), gateView(report, host), host.baselineOptions), problem: null }
  } catch (error) {
    if (!(error instanceof InputError)) throw error
    return { deltas: [], problem: `baseline ${host.baselinePath} cannot be used: ${error.message}; refresh it with DATAFORGE_UPDATE_BASELINE=1` }
  }
}

/** What the leaderboard says when there is no baseline comparison (no machine paths: the page is diffed). */
function baselineNote(host: RunEndHost, file: BaselineFile | null, updating: boolean): string {
  const path = host.baselinePath
  if (!path) return 'Baseline comparison is off (`baseline: false`).'
  const where = relative(host.outputDir, path)
  const name = where.startsWith('..') ? (host.options.baseline ? host.options.baseline.path : undefined) ?? path : `${where} next to these reports`
  if (updating) return `This run updates the baseline (${name}); it is not compared with it.`
  if (!file) return `No baseline to compare with: \`DATAFORGE_UPDATE_BASELINE=1\` writes ${name}.`
  return ''
}

/** Writes the merged baseline (groups not run are kept); nothing when the run failed closed. */
async function updateBaseline(path: string | null, report: EvalReport, existing: BaselineFile | null, scored: boolean): Promise<string[]> {
  if (!path) return []
  if (!scored) return [pc.yellow(`dataforge-evals: baseline not updated (the run failed closed): ${path}`)]
  const { baselineFromRecords, mergeBaseline, renderBaseline } = await baselineModule()
  const { file, kept } = mergeBaseline(existing, baselineFromRecords(report.records))
  await writeFileAtomic(path, renderBaseline(file))
  const lines = [`dataforge-evals: baseline updated: ${path}`]
  if (kept.length) lines.push(`dataforge-evals: kept ${counted(kept.length, 'baseline group')} this run did not execute: ${kept.join(', ')}`)
  const skipped = report.records.filter((r) => r.status === 'skipped').length
  if (skipped) lines.push(pc.yellow(`dataforge-evals: the baseline comes from a partial run: ${counted(skipped, 'skipped run has', 'skipped runs have')} no result in it and will not be compared`))
  return lines
}

/**
 * The report as the baseline gate groups it (gate-groups.ts): a built-in question suite is one group. The
 * report itself keeps its rows; only the comparison's groups change.
 */
function gateView(report: EvalReport, host: Pick<RunEndHost, 'options'>): Pick<EvalReport, 'aggregates' | 'records'> {
  if (!report.records.some(gatesPerSuite)) return report
  const records = report.records.map(asGateRow)
  return { records, aggregates: aggregate(records, { seed: host.options.statsSeed ?? 0 }) }
}

/**
 * Watch mode: per-group deltas of the groups this rerun ran, against the previous run. They inform and never
 * fail the run: a look after every save is many looks at one change, and each look at α adds false alarms.
 */
async function sincePrevious(host: RunEndHost, previous: EvalReport, report: EvalReport, touched: ReadonlySet<string>, color: boolean): Promise<string[]> {
  const { groupDeltas } = await baselineModule()
  try {
    const current = gateView(report, host)
    const ran = new Set(report.aggregates.filter((a) => touched.has(a.group)).map(gateGroupName))
    const before = previous.records.filter((r) => r.status !== 'skipped').map(asGateRow)
    const deltas = groupDeltas(before, current, { ...host.baselineOptions, against: 'previous run' }).filter((d) => ran.has(d.group) && d.status === 'compared')
    const why = pc.createColors(color).dim('  (informational: never fails the run; a look after every rerun adds false alarms, so only the baseline gates)')
    return deltas.length ? [pc.bold('since the previous run'), why, ...deltas.map((d) => renderDeltaLine({ ...d, failed: false }, { color }))] : []
  } catch (error) {
    if (!(error instanceof InputError)) throw error
    return [pc.bold('since the previous run'), `  not comparable: ${error.message}`]
  }
}
