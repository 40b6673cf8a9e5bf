import type { ReportPaths } from '../files/output-paths.js'
import type { EvalReport } from '../report-builder/build.js'
import { renderHtmlReport } from '../report-builder/html/index.js'
import { renderMarkdownReport } from '../report-builder/markdown/report.js'
import { renderTerminalSummary } from '../report-builder/terminal.js'
import { commitReportFolder, commitReportFolderLocked, renderReportFiles } from '../report-builder/write-report.js'
import { type CliIO, colorOn, shownPath } from './io.js'

export interface CliReportOptions {
  /** Title of the Markdown and HTML reports; default the renderers'. */
  title?: string
  /** Take the folder's lock for the write (a command that does not hold it already). */
  lock: boolean
  io: CliIO
  /** Printed paths are relative to this folder (the user's working directory). */
  shownFrom: string
}

/**
 * How `run` and `qa` end: the report files rendered from one report, written with the folder's manifest as one
 * unit, then the terminal summary and the paths written.
 */
export async function writeCliReports(report: EvalReport, paths: ReportPaths, opts: CliReportOptions): Promise<void> {
  const titled = opts.title ? { title: opts.title } : {}
  const contents = renderReportFiles({
    report,
    markdown: { path: paths.markdown, text: renderMarkdownReport(report, { ...titled, runtimeInSummary: true }) },
    html: { path: paths.html, text: await renderHtmlReport(report, titled) },
    jsonPath: paths.json,
    runsPath: paths.runs,
  })
  const folder = { dir: paths.dir, contents, records: report.records, recordFiles: [paths.json, paths.runs] }
  const written = opts.lock ? await commitReportFolderLocked(folder) : await commitReportFolder(folder)
  opts.io.stdout(renderTerminalSummary(report, { color: colorOn(opts.io) }))
  opts.io.stdout(`\nwrote ${written.map((path) => shownPath(opts.shownFrom, path)).join(', ')}\n`)
}
