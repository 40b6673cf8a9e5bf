import type { RepairAgent } from '../core/agent.js'
import type { DatasetInfo } from '../core/dataset-info.js'
import type { RepairScore } from '../core/repair-score.js'
import type { RunRecord } from '../core/run-record.js'
import type { AgentTask } from '../core/schemas.js'
import type { Transcript } from '../core/transcript.js'
import { loadDataset, type DatasetRequest } from '../datasets/load.js'
import { gradeRepair, type Comparator } from '../grading/index.js'
import { buildRunRecord, type RecordProvenance } from '../core/build-run-record.js'
import { agentIdentity } from '../core/trial-identity.js'
import type { LlmConfig } from '../gateway/trial-llm.js'
import type { Containment } from './contain.js'
import type { TrialCell } from './resume.js'
import { runRepairTrial } from './run-repair-trial.js'

export interface EvaluationPlan {
  agents: RepairAgent[]
  /** Dataset requests without the seed: the trial seed is filled in per trial. */
  datasets: Omit<DatasetRequest, 'seed'>[]
  trials: number
  seed: number
  timeoutMs: number | null
  passF1: number
  comparator?: Comparator
  generation?: string | null
  category?: string | null
  provenance: RecordProvenance
  onTrialDone?: (event: TrialEvent) => void
  signal?: AbortSignal
  /** Called with every loaded dataset before the first trial (a resumed run checks its hashes here). */
  beforeTrials?: (datasets: DatasetInfo[]) => void | Promise<void>
  /** Cells already done (a resumed run): not run, not counted in `total`. */
  skip?: (cell: TrialCell) => boolean
  /** Called with each graded trial's full score (clean values included), for `--reveal-truth`. */
  onScored?: (record: RunRecord, score: RepairScore) => void
  /** Catches escaped errors and `process.exit` of in-process agents (the CLI sets it). */
  containment?: Containment
  /** The run's model upstream (`--llm`): every trial goes through the gateway. */
  llm?: LlmConfig | null
}

interface TrialEvent {
  index: number
  total: number
  record: RunRecord
  /** The trial's transcript (the one `record.transcriptId` names), null when it kept none. */
  transcript: Transcript | null
}

/**
 * Runs every agent on every dataset for `trials` trials with seeds seed … seed+trials−1. Datasets are loaded
 * (and validated) before the first agent runs, so bad input fails fast with nothing run and nothing written.
 */
export async function runEvaluation(plan: EvaluationPlan): Promise<{ records: RunRecord[]; datasets: DatasetInfo[] }> {
  const seeds = Array.from({ length: plan.trials }, (_, i) => plan.seed + i)
  const loaded: Array<{
    request: Omit<DatasetRequest, 'seed'>
    perTrial: Array<{ task: AgentTask; info: DatasetInfo }>
  }> = []
  for (const request of plan.datasets) {
    const perTrial = []
    for (const seed of seeds) perTrial.push(await loadDataset({ ...request, seed }))
    loaded.push({ request, perTrial })
  }
  const infos = loaded.flatMap((l) => l.perTrial.map((p) => p.info))
  await plan.beforeTrials?.(infos)
  const skipped = (agent: RepairAgent, info: DatasetInfo, trial: number) =>
    plan.skip?.({ agent: agent.name, dataset: info.id, trial, seed: seeds[trial]! }) ?? false
  let total = 0
  for (const { perTrial } of loaded)
    for (const agent of plan.agents)
      for (let t = 0; t < seeds.length; t++) if (!skipped(agent, perTrial[t]!.info, t)) total++
  const records: RunRecord[] = []
  let index = 0
  for (const { perTrial } of loaded) {
    for (const agent of plan.agents) {
      for (let trial = 0; trial < seeds.length; trial++) {
        const { task, info } = perTrial[trial]!
        const seed = seeds[trial]!
        if (skipped(agent, info, trial)) continue
        const { outcome, model, oracle } = await runRepairTrial({
          agent,
          task,
          info,
          trial,
          seed,
          timeoutMs: plan.timeoutMs,
          passF1: plan.passF1,
          grade: (t, fixes) => gradeRepair(t, fixes, plan.comparator ? { comparator: plan.comparator } : {}),
          signal: plan.signal,
          containment: agent.provenance?.isolated ? undefined : plan.containment,
          llm: plan.llm ?? null,
          caseId: info.id,
        })
        const record = buildRunRecord(
          {
            caseId: info.id,
            dataset: info.id,
            suite: info.id,
            category: plan.category ?? null,
            ...agentIdentity(agent, oracle),
            model,
            trial,
            seed,
            generation: plan.generation ?? null,
            datasetSha256: { dirty: info.dirty.sha256, clean: info.clean.sha256 },
          },
          outcome,
          plan.provenance,
        )
        records.push(record)
        if (outcome.score) plan.onScored?.(record, outcome.score)
        plan.onTrialDone?.({ index: ++index, total, record, transcript: outcome.transcript ?? null })
      }
    }
  }
  return { records, datasets: infos }
}
