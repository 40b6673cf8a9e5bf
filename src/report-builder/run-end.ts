import { existsSync } from 'node:fs'
import pc from 'picocolors'
import { InputError } from '../core/errors.js'
import { writeFileAtomic } from '../files/write-atomic.js'
import type { BaselineFile, BaselineOptions, GroupDelta } from './baseline.js'
import { buildReport, type EvalReport } from './build.js'
import { dependencyVersions } from './reproducibility.js'
import { toolVersion } from './tool-version.js'
import type { DataforgeReporterOptions, FinishedRun } from './reporter-options.js'
import { renderDeltaLine, renderRunEnd } from './terminal.js'
import { writeReportFolder } from './write-folder.js'
import { asGateRow, gateGroupName } from './gate-groups.js'
import { baselineProblem, baselineUpdateLines, decideRunEnd, gateView, runEndSettings } from './run-end-plan.js'
import { exportRunTraces } from './tracing/run-traces.js'

/*
 * The end of a run for every runner's eval reporter, its writing half: it reads the environment and the baseline
 * file, builds the report, and writes what run-end-plan.ts decides (gates, folder, printout, GitHub output) to the
 * baseline file, the report folder, the terminal and GitHub's files. Kept apart from EvalReporterBase, which the reporters import with the config: this graph (report
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

/** Builds the report, then writes what `decideRunEnd` decided: baseline, folder, printout, GitHub; returns the gate failures. */
export async function endRun(host: RunEndHost, run: FinishedRun): Promise<{ report: EvalReport; failures: string[] }> {
  const { options } = host
  const settings = runEndSettings(options, process.env)
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
      ...(settings.priced ? { priced: true } : {}),
    },
  })

  const existing = await loadBaseline(host.baselinePath)
  const baseline =
    settings.updating || existing.problem
      ? { deltas: [], problem: settings.updating ? null : existing.problem }
      : await compare(host, existing.file, report)
  const color = pc.isColorSupported
  const decided = decideRunEnd({ place: host, settings, report, run, baselineFile: existing.file, baseline, color })

  // The baseline first: when it sits in the report folder, the folder's manifest then lists it as written.
  const baselineUpdate = settings.updating
    ? await updateBaseline(host.baselinePath, report, existing.file, decided.gate.closed.length === 0)
    : []
  await writeReportFolder(host.outputDir, report, {
    ...decided.folder,
    ...(run.transcripts ? { transcripts: run.transcripts } : {}),
  })
  const sinceBefore =
    host.watching && host.previous ? await sincePrevious(host, host.previous, report, run.touched, color) : []
  await exportRunTraces(options.otel, run.records, { cwd: host.root, env: process.env }, (line) => host.print(line))
  host.print(renderRunEnd({ ...decided.view, sincePrevious: sinceBefore, baselineUpdate }))
  if (settings.github && decided.github) {
    // Loaded only when GitHub output is on: most runs write none.
    const { writeGithubOutput } = await import('./github-output.js')
    const { annotations } = await writeGithubOutput(decided.github, settings.github, host.outputDir)
    host.print(annotations.join('\n'))
  }
  return { report, failures: decided.gate.failures }
}

/** The baseline file, or why it cannot be used (which fails the gate unless the run updates it). */
async function loadBaseline(path: string | null): Promise<{ file: BaselineFile | null; problem: string | null }> {
  if (!path || !existsSync(path)) return { file: null, problem: null }
  try {
    const { readBaseline } = await baselineModule()
    return { file: await readBaseline(path), problem: null }
  } catch (error) {
    if (!(error instanceof InputError)) throw error
    return { file: null, problem: baselineProblem(path, error.message) }
  }
}

async function compare(
  host: RunEndHost,
  file: BaselineFile | null,
  report: EvalReport,
): Promise<{ deltas: GroupDelta[]; problem: string | null }> {
  if (!file) return { deltas: [], problem: null }
  const { baselineRuns, groupDeltas } = await baselineModule()
  try {
    return {
      deltas: groupDeltas(baselineRuns(file).map(asGateRow), gateView(report, host.options), host.baselineOptions),
      problem: null,
    }
  } catch (error) {
    if (!(error instanceof InputError)) throw error
    return { deltas: [], problem: baselineProblem(host.baselinePath, error.message) }
  }
}

/** Writes the merged baseline (groups not run are kept); nothing when the run failed closed. */
async function updateBaseline(
  path: string | null,
  report: EvalReport,
  existing: BaselineFile | null,
  scored: boolean,
): Promise<string[]> {
  if (!path) return []
  if (!scored) return [pc.yellow(`dataforge-evals: baseline not updated (the run failed closed): ${path}`)]
  const { baselineFromRecords, mergeBaseline, renderBaseline } = await baselineModule()
  const { file, kept } = mergeBaseline(existing, baselineFromRecords(report.records))
  await writeFileAtomic(path, renderBaseline(file))
  const skipped = report.records.filter((r) => r.status === 'skipped').length
  return baselineUpdateLines(path, kept, skipped).map((line) => (line.warn ? pc.yellow(line.text) : line.text))
}

/**
 * Watch mode: per-group deltas of the groups this rerun ran, against the previous run. They inform and never
 * fail the run: a look after every save is many looks at one change, and each look at α adds false alarms.
 */
async function sincePrevious(
  host: RunEndHost,
  previous: EvalReport,
  report: EvalReport,
  touched: ReadonlySet<string>,
  color: boolean,
): Promise<string[]> {
  const { groupDeltas } = await baselineModule()
  try {
    const current = gateView(report, host.options)
    const ran = new Set(report.aggregates.filter((a) => touched.has(a.group)).map(gateGroupName))
    const before = previous.records.filter((r) => r.status !== 'skipped').map(asGateRow)
    const deltas = groupDeltas(before, current, { ...host.baselineOptions, against: 'previous run' }).filter(
      (d) => ran.has(d.group) && d.status === 'compared',
    )
    const why = pc
      .createColors(color)
      .dim(
        '  (informational: never fails the run; a look after every rerun adds false alarms, so only the baseline gates)',
      )
    return deltas.length
      ? [
          pc.bold('since the previous run'),
          why,
          ...deltas.map((d) => renderDeltaLine({ ...d, failed: false }, { color })),
        ]
      : []
  } catch (error) {
    if (!(error instanceof InputError)) throw error
    return [pc.bold('since the previous run'), `  not comparable: ${error.message}`]
  }
}
