import { join } from 'node:path'
import type { GroupDelta } from './baseline.js'
import type { EvalReport } from './build.js'
import { renderLeaderboard } from './leaderboard.js'
import { writeManifest } from './manifest.js'
import { writeReportFiles } from './write-report.js'

export type ReportFormat = 'markdown' | 'json' | 'jsonl'

/** Writes leaderboard.md, report.json, runs.jsonl (as asked) and the folder's manifest.json. */
export async function writeReportFolder(
  dir: string,
  report: EvalReport,
  opts: {
    formats?: readonly ReportFormat[]
    title?: string
    baselineDeltas?: readonly GroupDelta[]
    gateFailures?: readonly string[]
    gateNotes?: readonly string[]
    baselineNote?: string
    /** Significance level of the baseline comparison, for the verdict column. */
    alpha?: number
  },
): Promise<string[]> {
  const formats = new Set(opts.formats ?? ['markdown', 'json', 'jsonl'])
  const written = await writeReportFiles({
    report,
    ...(formats.has('markdown')
      ? {
          markdown: {
            path: join(dir, 'leaderboard.md'),
            text: renderLeaderboard(report, {
              ...(opts.title ? { title: opts.title } : {}),
              baselineDeltas: opts.baselineDeltas ?? [],
              gateFailures: opts.gateFailures ?? [],
              gateNotes: opts.gateNotes ?? [],
              ...(opts.baselineNote ? { baselineNote: opts.baselineNote } : {}),
              ...(opts.alpha !== undefined ? { alpha: opts.alpha } : {}),
            }),
          },
        }
      : {}),
    ...(formats.has('json') ? { jsonPath: join(dir, 'report.json') } : {}),
    ...(formats.has('jsonl') ? { runsPath: join(dir, 'runs.jsonl') } : {}),
  })
  const paths = [...written.keys()]
  await writeManifest(dir, paths, { configIds: [...new Set(report.records.map((r) => r.configId))].sort(), contents: written })
  return paths
}
