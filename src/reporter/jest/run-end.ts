import { compareText } from '../../core/order.js'
import { groupName } from '../../report-builder/aggregate.js'
import type { EvalReporterBase } from '../reporter-base.js'
import type { projectCommit } from '../../report-builder/reproducibility.js'
import type { SideLine } from '../../jest/side-file.js'
import { recordFromTest } from '../../test-meta/to-run-record.js'

export type ProjectCommit = ReturnType<typeof projectCommit>

/** What a Jest run (or the merge of its shards) ends with, beside its tests. */
interface JestRunEnd {
  /** A filter, a shard or a broken file left some evals out. */
  filtered: boolean
  /** When the run started (Jest's `onRunStart`; the first shard's for a merge): each record's `runDateUtc`. */
  runDateUtc: string
  project: ProjectCommit
}

/**
 * The end of a Jest run from its side-file lines (`testPath` relative to the root): each test's record built, in
 * file order, with this run's commit and start date, then the shared report, gates, folder and exit code. The
 * Jest reporter and the merge of sharded runs both end here, so a merged report is built as an unsharded one.
 */
export async function finishJestRun(
  reporter: EvalReporterBase,
  lines: readonly SideLine[],
  { filtered, runDateUtc, project }: JestRunEnd,
): Promise<{ failures: string[] }> {
  // A stable sort: within a file, the order its tests finished in.
  const ordered = [...lines].sort((a, b) => compareText(a.testPath, b.testPath))
  const provenance = { projectCommit: project.commit, runDateUtc }
  const records = ordered.map((l) => recordFromTest(l.test, provenance))
  return reporter.finishRun({
    records,
    // The reproducibility block keeps one of each (id, seed).
    datasets: ordered.flatMap((l) => (l.test.meta.datasetInfo ? [l.test.meta.datasetInfo] : [])),
    runDateUtc,
    project,
    touched: new Set(records.filter((r) => r.status !== 'skipped').map(groupName)),
    filtered,
    command: 'jest',
    sources: new Map(ordered.map((l, i) => [groupName(records[i]!), { file: l.testPath.split('\\').join('/') }])),
    transcripts: ordered.flatMap((l) => (l.test.meta.llm?.transcript ? [l.test.meta.llm.transcript] : [])),
  })
}
