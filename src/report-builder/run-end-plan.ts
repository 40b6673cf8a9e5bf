import { relative } from 'node:path'
import type { BaselineFile, BaselineOptions, GroupDelta } from './baseline.js'
import type { EvalReport } from './build.js'
import { checkThresholds, evaluateGates, type GateResult } from './gates.js'
import { aggregate } from './aggregate.js'
import { asGateRow, gateGroupName, gatesPerSuite } from './gate-groups.js'
import type { GithubGateView } from './github/gate-view.js'
import { type GithubOutputPlan, githubOutputPlan } from './github/plan.js'
import type { DataforgeReporterOptions, FinishedRun } from './reporter-options.js'
import type { RunEndView } from './terminal.js'
import { valueCutsOf } from './value-cuts.js'
import type { FolderOptions } from './write-folder.js'
import { counted } from '../stats/number-format.js'

/*
 * The deciding half of a run's end, pure: from the report, the baseline comparison and the environment's
 * settings, what the gate concludes, what the report folder holds, what is printed and what GitHub is told.
 * run-end.ts does the writing (the baseline file, the folder, the terminal, GitHub's files).
 */

/** What the end of a run reads from the environment, read once by the writer. */
interface RunEndSettings {
  /** `DATAFORGE_UPDATE_BASELINE=1`: this run writes the baseline instead of comparing with it. */
  updating: boolean
  /** `DATAFORGE_PRICES` is set: the report may say its calls were priced. */
  priced: boolean
  /** Where GitHub output goes, or null when it is off. */
  github: GithubOutputPlan | null
}

export function runEndSettings(
  options: DataforgeReporterOptions,
  env: Readonly<Record<string, string | undefined>>,
): RunEndSettings {
  return {
    updating: env['DATAFORGE_UPDATE_BASELINE'] === '1',
    priced: Boolean(env['DATAFORGE_PRICES']?.trim()),
    github: githubOutputPlan(options.github, env),
  }
}

/** What the run end knows of where it writes and compares. */
export interface RunEndPlace {
  readonly options: DataforgeReporterOptions
  readonly outputDir: string
  readonly baselinePath: string | null
  readonly baselineOptions: BaselineOptions
  readonly alpha: number
}

/** The comparison with the baseline file: the groups' deltas, or why the file cannot be used. */
interface BaselineComparison {
  deltas: GroupDelta[]
  problem: string | null
}

/** Everything the writer does at a run's end, decided. */
interface RunEndDecision {
  gate: GateResult
  /** The report folder's contents besides the report. */
  folder: FolderOptions
  /** The printout, but for the lines only the writer knows (watch mode's deltas, the baseline update). */
  view: Omit<RunEndView, 'sincePrevious' | 'baselineUpdate'>
  /** What GitHub is told, when GitHub output is on. */
  github: Omit<GithubGateView, 'reportUrl'> | null
}

export function decideRunEnd(input: {
  place: RunEndPlace
  settings: RunEndSettings
  report: EvalReport
  run: FinishedRun
  baselineFile: BaselineFile | null
  baseline: BaselineComparison
  color: boolean
}): RunEndDecision {
  const { place, settings, report, run, baseline } = input
  const { options } = place
  const gate = evaluateGates({
    report,
    thresholds: options.thresholds ?? {},
    ...(options.minPassesPerCase === undefined ? {} : { minPassesPerCase: options.minPassesPerCase }),
    baseline,
    filtered: run.filtered,
  })
  const folder: FolderOptions = {
    formats: options.formats,
    title: 'dataforge-evals leaderboard',
    baselineDeltas: baseline.deltas,
    gateFailures: gate.failures,
    gateNotes: gate.notes,
    alpha: place.alpha,
    baselineNote: baselineNote(place, input.baselineFile, settings.updating),
  }
  const view = {
    report,
    gate,
    baselineDeltas: baseline.deltas,
    alpha: place.alpha,
    outputDir: place.outputDir,
    print: options.print !== false,
    color: input.color,
  }
  const github = settings.github
    ? {
        aggregates: report.aggregates,
        failures: gate.failures,
        notes: gate.notes,
        thresholdFailures: checkThresholds(report.aggregates, options.thresholds ?? {}),
        deltas: baseline.deltas,
        alpha: place.alpha,
        floor: place.baselineOptions.floor ?? null,
        valueCuts: valueCutsOf(report.records),
        title: `dataforge-evals (${run.command})`,
        viewCommand:
          place.baselinePath && baseline.deltas.length ? viewAgainst(place.outputDir, place.baselinePath) : null,
        ...(run.sources ? { files: withGateGroups(run.sources, report) } : {}),
      }
    : null
  return { gate, folder, view, github }
}

/** `npx dataforge-evals view DIR --against BASELINE`, with both paths relative to the working directory. */
function viewAgainst(dir: string, baseline: string): string {
  const rel = (path: string) => relative(process.cwd(), path) || '.'
  return `npx dataforge-evals view ${rel(dir)} --against ${rel(baseline)}`
}

/** The eval files by group, with each gate group (a built-in suite) at the file of its first row. */
function withGateGroups(
  sources: ReadonlyMap<string, { file: string; line?: number }>,
  report: EvalReport,
): Map<string, { file: string; line?: number }> {
  const files = new Map(sources)
  for (const a of report.aggregates) {
    const at = sources.get(a.group)
    const name = gateGroupName(a)
    if (at && !files.has(name)) files.set(name, at)
  }
  return files
}

/** What the leaderboard says when there is no baseline comparison (no machine paths: the page is diffed). */
function baselineNote(place: RunEndPlace, file: BaselineFile | null, updating: boolean): string {
  const path = place.baselinePath
  if (!path) return 'Baseline comparison is off (`baseline: false`).'
  const where = relative(place.outputDir, path)
  const name = where.startsWith('..')
    ? ((place.options.baseline ? place.options.baseline.path : undefined) ?? path)
    : `${where} next to these reports`
  if (updating) return `This run updates the baseline (${name}); it is not compared with it.`
  if (!file) return `No baseline to compare with: \`DATAFORGE_UPDATE_BASELINE=1\` writes ${name}.`
  return ''
}

/** Why a baseline file cannot be used, as the gate and the printout say it. */
export function baselineProblem(path: string | null, message: string): string {
  return `baseline ${path} cannot be used: ${message}; refresh it with DATAFORGE_UPDATE_BASELINE=1`
}

/** The lines after a baseline update: where it went, the groups it kept, and whether the run was partial. */
export function baselineUpdateLines(
  path: string,
  kept: readonly string[],
  skipped: number,
): { text: string; warn: boolean }[] {
  const lines = [{ text: `dataforge-evals: baseline updated: ${path}`, warn: false }]
  if (kept.length)
    lines.push({
      text: `dataforge-evals: kept ${counted(kept.length, 'baseline group')} this run did not execute: ${kept.join(', ')}`,
      warn: false,
    })
  if (skipped) {
    const runs = counted(skipped, 'skipped run has', 'skipped runs have')
    lines.push({
      text: `dataforge-evals: the baseline comes from a partial run: ${runs} no result in it and will not be compared`,
      warn: true,
    })
  }
  return lines
}

/**
 * The report as the baseline gate groups it (gate-groups.ts): a built-in question suite is one group. The
 * report itself keeps its rows; only the comparison's groups change.
 */
export function gateView(
  report: EvalReport,
  options: Pick<DataforgeReporterOptions, 'statsSeed'>,
): Pick<EvalReport, 'aggregates' | 'records'> {
  if (!report.records.some(gatesPerSuite)) return report
  const records = report.records.map(asGateRow)
  return { records, aggregates: aggregate(records, { seed: options.statsSeed ?? 0 }) }
}
