import { IN_PROCESS } from './agent.js'
import { hashOf, sha256Hex } from './hash.js'
import type { CellIssue, RepairDiagnostics, RepairScore } from './repair-score.js'
import type { RunRecord } from './run-record.js'
import { RUN_RECORD_VERSION } from './run-record-version.js'
import type { FailureKind } from './failure-kind.js'
import type { LlmCall, UsageSource } from './llm.js'
import type { RecordToolCall, Transcript } from './transcript.js'
import type { Usage } from './schemas.js'
import { emptyUsage } from './usage.js'
import { ValueCuts } from './value-cap.js'
import { type TrialIdentity, type TrialIdentityInput, trialIdentity } from './trial-identity.js'

export interface RecordOutcome {
  status: 'ok' | 'failed' | 'skipped'
  failureKind?: FailureKind | null
  failureMessage?: string | null
  /** Judgment for non-repair runs (answer graders). For repair runs it is derived from F1 and `passF1`. */
  correct?: boolean | null
  validationError?: string | null
  score?: RepairScore | null
  /** A repair run is correct when its F1 reaches this (default 1.0: every error fixed, nothing else touched). */
  passF1?: number
  metrics?: Record<string, number>
  steps?: number
  runtimeS?: number
  /** When the run started (ISO 8601 UTC). */
  startedAt?: string | null
  usage?: Usage
  warnings?: string[]
  /** The model gateway's upstream for this run (`applyLlmOutcome` in src/gateway/); null without one. */
  llmUpstream?: string | null
  /** Whose count `usage` is (see `applyLlmOutcome` in src/gateway/). */
  usageSource?: UsageSource | null
  /** The gateway's trace of each model call. */
  llmCalls?: LlmCall[]
  /** Each tool call of the run, in order (core/transcript.ts). */
  toolCalls?: RecordToolCall[]
  /** The id of the run's transcript in the report's transcripts file. */
  transcriptId?: string | null
  /** The transcript itself: not part of the record; whoever writes the record keeps it for the transcripts file. */
  transcript?: Transcript | null
}

export interface RecordProvenance {
  projectCommit: string | null
  runDateUtc: string
}

const armIds = new Map<string, string>()

/** Arm = what is being compared (agent configuration); config = arm × case × data. */
export function armIdOf(id: TrialIdentity): string {
  // A lookup key, not a hash input: each part is typed (`s` string, `n` null) so no two identities share it.
  let key = `s${id.agent}\u0000s${id.agentKind}`
  for (const part of [id.model, id.provider, id.generation]) key += part === null ? '\u0000n' : `\u0000s${part}`
  let armId = armIds.get(key)
  if (armId === undefined) {
    armId = hashOf({
      agent: id.agent,
      agentKind: id.agentKind,
      model: id.model,
      provider: id.provider,
      generation: id.generation,
    })
    armIds.set(key, armId)
  }
  return armId
}

/**
 * The sha256 of `canonicalJson({ arm, caseId, turn, suite, dataset, category, datasetSha256 })`, written with
 * its keys already in canonical (sorted) order: one per record, and sorting them each time cost more than the
 * hash.
 */
export function configIdOf(id: TrialIdentity, armId = armIdOf(id)): string {
  const digests = id.datasetSha256 ? { clean: id.datasetSha256.clean, dirty: id.datasetSha256.dirty } : null
  return sha256Hex(
    JSON.stringify({
      arm: armId,
      caseId: id.caseId,
      category: id.category,
      dataset: id.dataset,
      datasetSha256: digests,
      suite: id.suite,
      turn: id.turn,
    }),
  )
}

/**
 * The record of one trial, built once, with the run's real provenance: the door's identity of the trial
 * (`trialIdentity`'s defaults for what it left out), what the trial did, and the run's commit and date.
 */
export function buildRunRecord(
  given: TrialIdentityInput,
  outcome: RecordOutcome,
  provenance: RecordProvenance,
): RunRecord {
  const id = trialIdentity(given)
  const score = outcome.status === 'ok' ? (outcome.score ?? null) : null
  const passF1 = outcome.passF1 ?? 1
  let correct: boolean | null = null
  if (outcome.status === 'ok') {
    if (outcome.correct !== undefined && outcome.correct !== null) correct = outcome.correct
    else if (score) correct = score.f1 >= passF1
  }
  const usage = outcome.usage ?? emptyUsage()
  const armId = armIdOf(id)
  // The size policy (value-cap.ts): agent-made strings are cut to what a report can hold, each cut noted.
  const cuts = new ValueCuts()
  return {
    recordVersion: RUN_RECORD_VERSION,
    caseId: id.caseId,
    turn: id.turn,
    suite: id.suite,
    dataset: id.dataset,
    category: id.category,
    agent: id.agent,
    agentKind: id.agentKind,
    model: id.model,
    provider: id.provider,
    trial: id.trial,
    seed: id.seed,
    generation: id.generation,
    status: outcome.status,
    failureKind:
      outcome.status === 'ok'
        ? null
        : (outcome.failureKind ?? (outcome.status === 'skipped' ? 'skipped' : 'exception')),
    failureMessage: outcome.status === 'ok' ? null : cuts.nullable(outcome.failureMessage ?? null, 'failureMessage'),
    correct,
    completed: outcome.status === 'ok',
    validationError: cuts.nullable(outcome.validationError ?? null, 'validationError'),
    precision: score?.precision ?? null,
    recall: score?.recall ?? null,
    f1: score?.f1 ?? null,
    tp: score?.tp ?? null,
    fp: score?.fp ?? null,
    fn: score?.fn ?? null,
    detection: score?.detection ?? null,
    diagnostics: score ? cuts.diagnostics(withoutCleanValues(score.diagnostics)) : null,
    perColumn: score?.perColumn ?? null,
    perKind: score?.perKind ?? null,
    // An oracle's fixes are the truth itself: not persisted.
    fixes: id.agentKind === 'oracle' ? null : cuts.fixes(score?.fixes ?? null),
    metrics: outcome.metrics ?? {},
    steps: outcome.steps ?? 0,
    runtimeS: outcome.runtimeS ?? 0,
    startedAt: outcome.startedAt ?? null,
    usage,
    cached: usage.cachedCalls > 0 && usage.cachedCalls >= usage.calls,
    llmUpstream: outcome.llmUpstream ?? null,
    usageSource: outcome.usageSource ?? (usage.calls > 0 ? 'agent' : null),
    llmCalls: outcome.llmCalls ?? [],
    toolCalls: outcome.toolCalls ?? [],
    transcriptId: outcome.transcriptId ?? null,
    // Last: the notes of every cut above are added here.
    warnings: cuts.warnings([...(outcome.warnings ?? []), ...(score?.warnings ?? [])]),
    datasetSha256: id.datasetSha256,
    agentSource: id.agentProvenance?.source ?? null,
    agentSha256: id.agentProvenance?.sha256 ?? null,
    isolated: id.agentProvenance?.isolated ?? null,
    isolation:
      id.agentProvenance?.isolation ?? (id.agentProvenance && !id.agentProvenance.isolated ? IN_PROCESS : null),
    projectCommit: provenance.projectCommit,
    configId: configIdOf(id, armId),
    armId,
    runDateUtc: provenance.runDateUtc,
  }
}

/**
 * Diagnostics as persisted: positions, the agent's values and the dirty values it saw, never the clean value
 * (`want`). Failure messages in the terminal may show it (`DATAFORGE_SHOW_TRUTH`); files never do.
 */
export function withoutCleanValues(d: RepairDiagnostics): RepairDiagnostics {
  // What a matcher stored is stripped already: the reporter builds no copies of it.
  if (
    !(
      hasWant(d.wrongCell) ||
      hasWant(d.wrongValue) ||
      hasWant(d.overRepair) ||
      hasWant(d.missedRepair) ||
      hasWant(d.caseInsensitiveColumn)
    )
  )
    return d
  // Built field by field, in the grader's key order: an object rest per issue was the slowest step of a
  // million-cell record.
  const strip = (issues: CellIssue[]) =>
    issues.map((c) => {
      const out: CellIssue = { row: c.row, column: c.column }
      if (c.got !== undefined) out.got = c.got
      if (c.dirty !== undefined) out.dirty = c.dirty
      return out
    })
  return {
    ...d,
    wrongCell: strip(d.wrongCell),
    wrongValue: strip(d.wrongValue),
    overRepair: strip(d.overRepair),
    missedRepair: strip(d.missedRepair),
    caseInsensitiveColumn: strip(d.caseInsensitiveColumn),
  }
}

function hasWant(issues: readonly CellIssue[]): boolean {
  for (let i = 0; i < issues.length; i++) if ('want' in issues[i]!) return true
  return false
}
