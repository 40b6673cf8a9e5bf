import { existsSync } from 'node:fs'
import type { RunRecord } from '../core/run-record.js'
import type { Aggregate } from './aggregate.js'
import { regressionVerdict, type GroupVerdict } from './compare.js'
import { readRunRecords } from './read-runs.js'

export interface BaselineOptions {
  /** Significance level of the regression test. Default 0.05. */
  alpha?: number
  /** Absolute Score floor: a group below it fails whatever the test says. */
  floor?: number
}

export interface GroupDelta {
  group: string
  before: { f1: number | null; passRate: number | null }
  after: { f1: number | null; passRate: number | null }
  verdict: GroupVerdict | null
}

export async function readBaseline(path: string): Promise<RunRecord[] | null> {
  if (!existsSync(path)) return null
  return readRunRecords(path)
}

/**
 * Per-group deltas of the current run against earlier records, each with its paired significance test.
 * Skipped runs take no part on either side: a group filtered out of this run (`-t`, `.skip`) is not compared,
 * and a skipped trial is neither a regression nor a missing judgment. Throws the comparison's InputError when
 * the two sides cannot be compared (a dataset's sha256 changed).
 */
export function groupDeltas(
  before: { aggregates: readonly Aggregate[]; records: readonly RunRecord[] },
  after: { aggregates: readonly Aggregate[]; records: readonly RunRecord[] },
  options: BaselineOptions = {},
): GroupDelta[] {
  const executed = (records: readonly RunRecord[]) => records.filter((r) => r.status !== 'skipped')
  const beforeRecords = executed(before.records)
  const afterRecords = executed(after.records)
  const verdicts = new Map<string, GroupVerdict>()
  if (beforeRecords.length && afterRecords.length) {
    for (const v of regressionVerdict(beforeRecords, afterRecords, options)) verdicts.set(v.group, v)
  }
  const previous = new Map(before.aggregates.filter(ran).map((a) => [a.group, a]))
  return after.aggregates
    .filter((a) => ran(a) && previous.has(a.group))
    .map((a) => {
      const p = previous.get(a.group)!
      return {
        group: a.group,
        before: { f1: p.f1Mean, passRate: p.passRate },
        after: { f1: a.f1Mean, passRate: a.passRate },
        verdict: verdicts.get(a.group) ?? null,
      }
    })
}

function ran(a: Aggregate): boolean {
  return a.trialsRequested > a.trialsSkipped
}

export function formatDelta(before: number | null, after: number | null): string {
  if (before === null || after === null) return 'n/a'
  const d = after - before
  const text = d.toFixed(3)
  return d > 0 && text !== '0.000' ? `+${text}` : text === '-0.000' ? '0.000' : text
}
