import { z } from 'zod'
import { CountSchema, PRFSchema, RateSchema, RepairDiagnosticsSchema, KindRecallSchema } from './repair-score.js'
import { IsolationInfoSchema } from './isolation-info.js'
import { FailureKindSchema, FixSchema, UsageSchema } from './schemas.js'
import { RUN_RECORD_VERSION } from './run-record-version.js'
import { dataRecordSchema } from './data-record-schema.js'
import { LlmCallSchema, UsageSourceSchema } from './llm.js'
import { RecordToolCallSchema } from './transcript.js'

export { RUN_RECORD_VERSION }

/**
 * One row per attempted run (case × turn × trial × agent), written even when the agent threw,
 * timed out or was skipped. The unit every report, statistic and comparison is computed from.
 */
export const RunRecordSchema = z.object({
  recordVersion: z.literal(RUN_RECORD_VERSION),
  // identity
  caseId: z.string(),
  turn: z.number().int().nullable(),
  suite: z.string(),
  dataset: z.string(),
  category: z.string().nullable(),
  agent: z.string(),
  agentKind: z.string(),
  model: z.string().nullable(),
  provider: z.string().nullable(),
  trial: z.number().int().nonnegative(),
  seed: z.number().int(),
  generation: z.string().nullable(),
  // outcome
  status: z.enum(['ok', 'failed', 'skipped']),
  failureKind: FailureKindSchema.nullable(),
  failureMessage: z.string().nullable(),
  /** null when there is no usable judgment (failed or skipped run). */
  correct: z.boolean().nullable(),
  completed: z.boolean(),
  validationError: z.string().nullable(),
  // repair metrics (null for non-repair runs and failed runs)
  precision: RateSchema.nullable(),
  recall: RateSchema.nullable(),
  f1: RateSchema.nullable(),
  tp: CountSchema.nullable(),
  fp: CountSchema.nullable(),
  fn: CountSchema.nullable(),
  detection: PRFSchema.nullable(),
  diagnostics: RepairDiagnosticsSchema.nullable(),
  perColumn: dataRecordSchema(PRFSchema, z).nullable(),
  perKind: dataRecordSchema(KindRecallSchema, z).nullable(),
  fixes: z.array(FixSchema).nullable(),
  /** Custom metrics recorded by the eval (`record(name, value)`) and grader scores. */
  metrics: dataRecordSchema(z.number(), z),
  // efficiency
  steps: z.number().int().nonnegative(),
  runtimeS: z.number().nonnegative(),
  /** When the run (trial, or turn) started, ISO 8601 UTC: the start of its span in a trace; null when not known. */
  startedAt: z.string().nullable().default(null),
  usage: UsageSchema,
  /** True when every model call of this run was answered from the record/replay cache. */
  cached: z.boolean(),
  warnings: z.array(z.string()),
  /** The model gateway's upstream for this run (preset name, or base URL with a loopback port masked); null without one. */
  llmUpstream: z.string().nullable().default(null),
  /** Whose count `usage` is: `gateway` (it saw the calls), `agent` (the agent's own report); null when nothing was counted. */
  usageSource: UsageSourceSchema.nullable().default(null),
  /** Each model call the gateway served for this run, in order: no keys, headers or messages. */
  llmCalls: z.array(LlmCallSchema).default([]),
  /** Each tool call of this run in order: the model's (from its answers) and the agent's own (core/transcript.ts). */
  toolCalls: z.array(RecordToolCallSchema).default([]),
  /** The id of this run's line in the report's transcripts file; null when none was kept. */
  transcriptId: z.string().nullable().default(null),
  // provenance
  /**
   * The data's identity: for repair runs the sha256 of the dirty and clean data as `DatasetInfo` records it
   * (file bytes, or the CSV serialization of generated tables: see `DigestOf`); for conversations the sha256 of
   * the canonical JSON of their tables, as both dirty and clean.
   */
  datasetSha256: z.object({ dirty: z.string(), clean: z.string() }).nullable(),
  /** `builtin:NAME`, `module:PATH` (relative to the working directory) or `cmd:COMMAND`; null when unknown (agent objects). */
  agentSource: z.string().nullable().default(null),
  /** sha256 of the agent's module file or command script. */
  agentSha256: z.string().nullable().default(null),
  /** True when the agent ran in its own process. */
  isolated: z.boolean().nullable().default(null),
  /** The wall it ran behind: level (sandbox, process, none), tool and version, what of the disk it could read. */
  isolation: IsolationInfoSchema.nullable().default(null),
  projectCommit: z.string().nullable(),
  configId: z.string(),
  armId: z.string(),
  runDateUtc: z.string(),
})
export type RunRecord = z.infer<typeof RunRecordSchema>
