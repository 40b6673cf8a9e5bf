import { compareText } from '../../core/order.js'
import { groupName } from '../../report-builder/aggregate.js'
import type { EvalReporterBase } from '../reporter-base.js'
import { projectCommit } from '../../report-builder/reproducibility.js'
import type { SideLine } from '../../jest/side-file.js'

export type ProjectCommit = ReturnType<typeof projectCommit>

/**
 * The end of a Jest run from its side-file lines (`testPath` relative to the root): records in file order,
 * stamped with this run's commit and date, then the shared report, gates, folder and exit code. The Jest
 * reporter and the merge of sharded runs both end here, so a merged report is built as an unsharded one.
 */
export async function finishJestRun(
  reporter: EvalReporterBase,
  root: string,
  lines: readonly SideLine[],
  filtered: boolean,
  project: ProjectCommit = projectCommit(root),
): Promise<{ failures: string[] }> {
  const runDateUtc = new Date().toISOString()
  // A stable sort: within a file, the order its tests finished in.
  const ordered = [...lines].sort((a, b) => compareText(a.testPath, b.testPath))
  const records = ordered.map((l) => ({ ...l.record, projectCommit: project.commit, runDateUtc }))
  return reporter.finishRun({
    records,
    // The reproducibility block keeps one of each (id, seed).
    datasets: ordered.flatMap((l) => (l.datasetInfo ? [l.datasetInfo] : [])),
    runDateUtc,
    project,
    touched: new Set(records.filter((r) => r.status !== 'skipped').map(groupName)),
    filtered,
    command: 'jest',
    sources: new Map(ordered.map((l) => [groupName(l.record), { file: l.testPath.split('\\').join('/') }])),
    transcripts: ordered.flatMap((l) => (l.transcript ? [l.transcript] : [])),
  })
}
