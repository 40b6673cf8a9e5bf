import type { DatasetInfo } from '../core/dataset-info.js'
import { groupName } from '../report/aggregate.js'
import type { EvalReporterBase } from '../report/eval-reporter-base.js'
import { projectCommit } from '../report/reproducibility.js'
import type { SideLine } from './side-file.js'

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
  const ordered = [...lines].sort((a, b) => compareKeys(a.testPath, b.testPath))
  const records = ordered.map((l) => ({ ...l.record, projectCommit: project.commit, runDateUtc }))
  const datasets = new Map<string, DatasetInfo>()
  for (const { datasetInfo } of ordered) if (datasetInfo) datasets.set(`${datasetInfo.id}\u0000${datasetInfo.seed ?? ''}`, datasetInfo)
  return reporter.finishRun({
    records,
    datasets: [...datasets.values()],
    runDateUtc,
    project,
    touched: new Set(records.filter((r) => r.status !== 'skipped').map(groupName)),
    filtered,
    command: 'jest',
  })
}

function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
