import type { DatasetInfo } from '../core/dataset-info.js'
import type { RunRecord } from '../core/run-record.js'
import { aggregate, type Aggregate } from './aggregate.js'
import { caseTrialStats, type CaseTrialStats } from '../stats/case-trials.js'
import { buildReproducibility, type Reproducibility } from './reproducibility.js'
import { toolVersion } from './tool-version.js'
import { type DabenchSummary, dabenchSummaries } from '../datasets/dabench/scores.js'

const REPORT_SCHEMA_VERSION = 1

/** The one report both front doors (CLI and Vitest reporter) produce. */
export interface EvalReport {
  schemaVersion: typeof REPORT_SCHEMA_VERSION
  tool: { name: 'dataforge-evals'; version: string }
  /** How the run was configured (command, trials, seed, timeout, pass threshold, comparator…). */
  config: Record<string, unknown>
  records: RunRecord[]
  aggregates: Aggregate[]
  /** Per case across its trials: pass@k, pass^k, and whether it is flaky (passed and failed). */
  cases: CaseTrialStats[]
  /** DABench's ABQ, PSAQ and UASQ per arm, by level and concept; present only when the runs hold DABench questions. */
  dabench?: DabenchSummary[]
  reproducibility: Reproducibility
}

interface BuildReportInput {
  records: readonly RunRecord[]
  datasets: readonly DatasetInfo[]
  config: Record<string, unknown>
  cwd: string
  runDateUtc: string
  /** Seed of the bootstrap intervals. Default 0. */
  statsSeed?: number
  /** The project's commit, when the caller already looked it up (saves running git again). */
  project?: { commit: string | null; dirty: boolean | null }
}

function compareRecords(a: RunRecord, b: RunRecord): number {
  const ka = [a.suite, a.caseId, a.agent, a.model ?? '', a.category ?? '']
  const kb = [b.suite, b.caseId, b.agent, b.model ?? '', b.category ?? '']
  for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i]! < kb[i]! ? -1 : 1
  return (a.turn ?? -1) - (b.turn ?? -1) || a.trial - b.trial || a.seed - b.seed
}

export function buildReport(input: BuildReportInput): EvalReport {
  const records = [...input.records].sort(compareRecords)
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    tool: { name: 'dataforge-evals', version: toolVersion() },
    config: input.config,
    records,
    aggregates: aggregate(records, { seed: input.statsSeed ?? 0 }),
    cases: caseTrialStats(records.filter((r) => r.status !== 'skipped')),
    ...dabenchOf(records, input.statsSeed ?? 0),
    reproducibility: buildReproducibility({
      records,
      datasets: input.datasets,
      cwd: input.cwd,
      runDateUtc: input.runDateUtc,
      ...(input.project ? { project: input.project } : {}),
    }),
  }
}

function dabenchOf(records: readonly RunRecord[], seed: number): { dabench?: DabenchSummary[] } {
  const dabench = dabenchSummaries(records, seed)
  return dabench.length ? { dabench } : {}
}
