import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { GroupDelta } from './baseline.js'
import type { EvalReport } from './build.js'
import { type LeaderboardExtras, renderLeaderboard } from './markdown/leaderboard.js'
import type { ReportFormat } from './report-formats.js'
import type { Transcript } from '../core/transcript.js'
import { LEGACY_STEM, stemFiles } from '../files/output-paths.js'
import { renderTranscriptsJsonl } from './transcripts-file.js'
import { commitReportFolderLocked, type ReportFolderFile, renderJsonReport, renderRunsJsonl } from './write-report.js'

export interface FolderOptions {
  formats?: readonly ReportFormat[]
  title?: string
  baselineDeltas?: readonly GroupDelta[]
  gateFailures?: readonly string[]
  gateNotes?: readonly string[]
  baselineNote?: string
  /** Significance level of the baseline comparison, for the verdict column. */
  alpha?: number
  /** The runs' transcripts: written as transcripts.jsonl when a record names one. */
  transcripts?: readonly Transcript[]
}

/** The files a report folder can hold: format → file name and renderer. Add a format here to add a file. */
const REPORT_FILES = {
  markdown: {
    file: 'leaderboard.md',
    render: (report: EvalReport, opts: FolderOptions) => renderLeaderboard(report, leaderboardExtras(opts)),
  },
  json: { file: 'report.json', render: (report: EvalReport) => renderJsonReport(report) },
  jsonl: { file: 'runs.jsonl', render: (report: EvalReport) => renderRunsJsonl(report.records) },
  // Loaded at the run's end: the reporter imports this module with the config, and a run may leave HTML out.
  html: {
    file: 'report.html',
    render: async (report: EvalReport, opts: FolderOptions) =>
      (await import('./html/index.js')).renderHtmlReport(report, opts),
  },
} as const satisfies Record<
  ReportFormat,
  { file: string; render: (report: EvalReport, opts: FolderOptions) => string | Promise<string> }
>

const RENDER_ORDER: readonly ReportFormat[] = ['json', 'jsonl', 'html', 'markdown']
const renderRank = (format: ReportFormat) =>
  RENDER_ORDER.includes(format) ? RENDER_ORDER.indexOf(format) : RENDER_ORDER.length

/** Written when no formats are given: every format, report.html included (the README's promise). */
const DEFAULT_REPORT_FORMATS: readonly ReportFormat[] = ['markdown', 'json', 'jsonl', 'html']

function leaderboardExtras(opts: FolderOptions): LeaderboardExtras {
  return {
    ...(opts.title ? { title: opts.title } : {}),
    baselineDeltas: opts.baselineDeltas ?? [],
    gateFailures: opts.gateFailures ?? [],
    gateNotes: opts.gateNotes ?? [],
    ...(opts.baselineNote ? { baselineNote: opts.baselineNote } : {}),
    ...(opts.alpha !== undefined ? { alpha: opts.alpha } : {}),
  }
}

/**
 * Writes the asked formats (default all) and the folder's manifest.json as one unit, under the
 * folder's lock; each file is written while the next renders, and nothing is renamed into place before all are.
 */
export async function writeReportFolder(dir: string, report: EvalReport, opts: FolderOptions): Promise<string[]> {
  const formats = [...new Set(opts.formats ?? DEFAULT_REPORT_FORMATS)]
  const outputs = new Map<string, ReportFolderFile>()
  // The largest files render first, so their writes and flushes (the slowest) overlap the most rendering.
  for (const format of [...formats].sort((a, b) => renderRank(a) - renderRank(b))) {
    const { file, render } = REPORT_FILES[format]
    outputs.set(join(dir, file), () => render(report, opts))
  }
  // The baseline kept beside the reports is part of the folder, so `verify` covers it too.
  const baseline = join(dir, 'baseline.json')
  const alsoList = existsSync(baseline) && !outputs.has(baseline) ? [baseline] : []
  // report.json's `records` and runs.jsonl's rows are the report's records, as the manifest counts them.
  const recordFiles = (['json', 'jsonl'] as const)
    .map((format) => join(dir, REPORT_FILES[format].file))
    .filter((path) => outputs.has(path))
  // A folder's transcripts are this run's: one left by an earlier run goes when this one kept none.
  const transcriptsPath = join(dir, stemFiles(LEGACY_STEM).transcripts)
  const transcripts = renderTranscriptsJsonl(report.records, opts.transcripts ?? [])
  if (transcripts) outputs.set(transcriptsPath, transcripts)
  const replaces = !transcripts && existsSync(transcriptsPath) ? [transcriptsPath] : []
  await commitReportFolderLocked({ dir, contents: outputs, records: report.records, recordFiles, alsoList, replaces })
  return formats.map((format) => join(dir, REPORT_FILES[format].file))
}
