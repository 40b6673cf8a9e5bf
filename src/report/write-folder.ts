import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { GroupDelta } from './baseline.js'
import type { EvalReport } from './build.js'
import { renderLeaderboard } from './leaderboard.js'
import { commitReportFolderLocked, renderReportFiles } from './write-report.js'

export type ReportFormat = 'markdown' | 'json' | 'jsonl'

/** Writes leaderboard.md, report.json, runs.jsonl (as asked) and the folder's manifest.json, as one unit. */
export async function writeReportFolder(
  dir: string,
  report: EvalReport,
  opts: {
    formats?: readonly ReportFormat[]
    title?: string
    baselineDeltas?: readonly GroupDelta[]
    gateFailures?: readonly string[]
    /** Significance level of the baseline comparison, for the verdict column. */
    alpha?: number
  },
): Promise<string[]> {
  const formats = new Set(opts.formats ?? ['markdown', 'json', 'jsonl'])
  const contents = renderReportFiles({
    report,
    ...(formats.has('markdown')
      ? {
          markdown: {
            path: join(dir, 'leaderboard.md'),
            text: renderLeaderboard(report, {
              ...(opts.title ? { title: opts.title } : {}),
              baselineDeltas: opts.baselineDeltas ?? [],
              gateFailures: opts.gateFailures ?? [],
              ...(opts.alpha !== undefined ? { alpha: opts.alpha } : {}),
            }),
          },
        }
      : {}),
    ...(formats.has('json') ? { jsonPath: join(dir, 'report.json') } : {}),
    ...(formats.has('jsonl') ? { runsPath: join(dir, 'runs.jsonl') } : {}),
  })
  // The baseline kept beside the reports is part of the folder, so `verify` covers it too.
  const baseline = join(dir, 'baseline.json')
  const alsoList = existsSync(baseline) && !contents.has(baseline) ? [baseline] : []
  await commitReportFolderLocked(dir, contents, [...new Set(report.records.map((r) => r.configId))].sort(), alsoList)
  return [...contents.keys()]
}
