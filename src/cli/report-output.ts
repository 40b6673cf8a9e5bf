import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { Transcript } from '../core/transcript.js'
import { renderTranscriptsJsonl } from '../report-builder/transcripts-file.js'
import type { ManifestUse } from '../report-builder/manifest.js'
import { type ReportPaths, stemFiles, timestampedStem } from '../files/output-paths.js'
import type { EvalReport } from '../report-builder/build.js'
import { renderHtmlReport } from '../report-builder/html/index.js'
import { renderMarkdownReport } from '../report-builder/markdown/report.js'
import { renderTerminalSummary } from '../report-builder/terminal.js'
import {
  commitReportFolder,
  commitReportFolderLocked,
  legacyRunsOf,
  renderReportFiles,
} from '../report-builder/write-report.js'
import { type CliIO, colorOn, shownPath } from './io.js'
import type { Comparison } from '../report-builder/compare.js'
import type { GroupDelta } from '../report-builder/baseline.js'
import { verdictLine } from '../report-builder/comparison-verdict.js'
import { githubOutputPlan, writeGithubOutput } from '../report-builder/github-output.js'
import { valueCutsOf } from '../report-builder/value-cuts.js'
import { exportRunTraces } from '../report-builder/tracing/run-traces.js'

interface CliReportOptions {
  /** Title of the Markdown and HTML reports; default the renderers'. */
  title?: string
  /** Take the folder's lock for the write (a command that does not hold it already). */
  lock: boolean
  io: CliIO
  /** Printed paths are relative to this folder (the user's working directory). */
  shownFrom: string
  /** `--timestamp`: also write dated copies of the Markdown and JSON report (`timestampedStem`). */
  timestamp?: boolean
  /** `--otel`: where the run's traces go (default `DATAFORGE_OTEL`; none: no tracing). */
  otel?: string
  /** The runs' transcripts: STEM.transcripts.jsonl holds those the records name. */
  transcripts?: Iterable<Transcript>
}

/**
 * How `run` and `qa` end: the report files rendered from one report, written with the folder's manifest as one
 * unit, then the terminal summary and the paths written.
 */
export async function writeCliReports(report: EvalReport, paths: ReportPaths, opts: CliReportOptions): Promise<void> {
  const titled = opts.title ? { title: opts.title } : {}
  const markdown = renderMarkdownReport(report, { ...titled, runtimeInSummary: true })
  const contents = renderReportFiles({
    report,
    markdown: { path: paths.markdown, text: markdown },
    html: { path: paths.html, text: await renderHtmlReport(report, titled) },
    jsonPath: paths.json,
    runsPath: paths.runs,
  })
  if (opts.timestamp) {
    // Dated, diffable copies beside the latest: the Markdown and the JSON report (which holds the records).
    const dated = stemFiles(timestampedStem(paths.stem, report.reproducibility.runDateUtc))
    contents.set(join(paths.dir, dated.markdown), markdown)
    contents.set(join(paths.dir, dated.json), contents.get(paths.json)!)
  }
  const transcriptsPath = join(paths.dir, stemFiles(paths.stem).transcripts)
  const transcripts = renderTranscriptsJsonl(report.records, opts.transcripts ?? [])
  if (transcripts) contents.set(transcriptsPath, transcripts)
  // A transcripts file of this stem from an earlier run goes when this run kept none.
  const replaces = [
    ...(await legacyRunsOf(paths.dir, paths.stem)),
    ...(!transcripts && existsSync(transcriptsPath) ? [transcriptsPath] : []),
  ]
  const folder = { dir: paths.dir, contents, records: report.records, recordFiles: [paths.json, paths.runs], replaces }
  const written = opts.lock ? await commitReportFolderLocked(folder) : await commitReportFolder(folder)
  opts.io.stdout(renderTerminalSummary(report, { color: colorOn(opts.io) }))
  opts.io.stdout(`\nwrote ${written.map((path) => shownPath(opts.shownFrom, path)).join(', ')}\n`)
  await exportRunTraces(opts.otel, report.records, { cwd: opts.shownFrom, env: opts.io.env }, (line) =>
    opts.io.stderr(`${line}\n`),
  )
}

interface CliGithubInput {
  command: 'run' | 'qa' | 'compare'
  /** `--github` (on), or undefined: on when `GITHUB_ACTIONS=true`. */
  flag: boolean | undefined
  /** The report folder (pr-comment.md goes there). */
  dir: string
  /** Every gate failure line of the command (the exit code is 1 when there is any). */
  failures: readonly string[]
  report?: EvalReport
  comparison?: Comparison
  io: CliIO
}

/**
 * GitHub Actions output of `run`, `qa` and `compare` (with `--github`, or on when `GITHUB_ACTIONS=true`): the job
 * summary appended to `$GITHUB_STEP_SUMMARY`, `pr-comment.md` in the report folder, the `::error` lines on stdout.
 */
export async function writeCliGithubOutput(input: CliGithubInput): Promise<void> {
  const plan = githubOutputPlan(input.flag ? true : undefined, input.io.env)
  if (!plan) return
  const cmp = input.comparison
  const view = {
    aggregates: input.report?.aggregates ?? [],
    failures: input.failures,
    notes: [],
    thresholdFailures: [],
    deltas: cmp ? comparisonDeltas(cmp) : [],
    alpha: cmp?.alpha ?? 0.05,
    floor: cmp?.floor ?? null,
    valueCuts: input.report ? valueCutsOf(input.report.records) : null,
    title: `dataforge-evals ${input.command}`,
  }
  const { annotations, written } = await writeGithubOutput(view, plan, input.dir)
  for (const line of annotations) input.io.stdout(`${line}\n`)
  input.io.stderr(`github: wrote ${written.map((p) => shownPath(input.io.cwd, p)).join(', ')}\n`)
}

/** `compare`'s groups in the shape the GitHub renderers read (A = before, B = after), with the verdict lines compare prints. */
function comparisonDeltas(cmp: Comparison): GroupDelta[] {
  const settings = { alpha: cmp.alpha, floor: cmp.floor, against: 'A' }
  return [...cmp.groups, cmp.overall].map((g) => ({
    group: g.key === null ? 'overall' : g.group,
    before: g.isNew ? null : { f1: g.f1?.meanA ?? null, passRate: g.scoreA },
    after: { f1: g.f1?.meanB ?? null, passRate: g.scoreB },
    verdict: g,
    status: g.isNew ? 'new' : 'compared',
    failed: g.failed,
    message: verdictLine(g, settings),
  }))
}

/**
 * The tail of `export`'s and `report`'s line after the file they wrote: what became of the folder's manifest.
 * `; updated out/manifest.json`, `; created out/manifest.json`, or why none was written.
 */
export function manifestNote(cwd: string, written: { manifest: ManifestUse; manifestPath: string }): string {
  const path = shownPath(cwd, written.manifestPath)
  if (written.manifest === 'updated') return `; updated ${path}`
  if (written.manifest === 'created') return `; created ${path}`
  const dir = dirname(written.manifestPath)
  return `; no manifest written: ${dir === cwd ? '.' : shownPath(cwd, dir)} holds other files and no manifest.json, so it is not a report folder (verify does not cover this file)`
}
