import { z } from 'zod'
import { DatasetInfoSchema } from '../core/dataset-info.js'
import { InputError } from '../core/errors.js'
import { compileExactCheck } from '../core/exact-check.js'
import { RepairScoreSchema } from '../core/repair-score.js'
import { UsageSchema } from '../core/schemas.js'
import { LlmMetaSchema } from '../core/llm-schema.js'
import { IsolationInfoSchema } from '../core/isolation-info.js'

const AgentProvenanceSchema = z.object({
  source: z.string(),
  sha256: z.string().nullable(),
  isolated: z.boolean(),
  isolation: IsolationInfoSchema.optional(),
})

/** One matcher's verdict, as stored on the test. */
const MatcherRecordSchema = z.object({
  matcher: z.string(),
  passed: z.boolean(),
  /** True when the assertion was negated with `.not`. */
  negated: z.boolean(),
  /** One-line summary, also annotated on the test. */
  summary: z.string(),
  /** Score in [0, 1] where the grader has one (F1 for repair). */
  score: z.number().optional(),
  /** Full repair score for `toRepairCells` (diagnostics without clean values). */
  repair: RepairScoreSchema.optional(),
  /** Run failure noticed by the matcher (e.g. a parse failure returned by a model adapter). */
  failure: z.object({ kind: z.string(), message: z.string() }).optional(),
})
export type MatcherRecord = z.infer<typeof MatcherRecordSchema>

/**
 * What dataforge-evals stores on a Vitest test's `task.meta.dataforge` in the worker, for the reporter to read
 * in the main process (and, after `--merge-reports`, from blob files). The reporter reads it through
 * `parseDataforgeMeta`, never as a bare cast.
 */
export const DataforgeMetaSchema = z.object({
  caseId: z.string(),
  suite: z.string(),
  dataset: z.string(),
  datasetSha256: z.object({ dirty: z.string(), clean: z.string() }).nullable(),
  agent: z.string(),
  agentKind: z.string(),
  model: z.string().nullable(),
  provider: z.string().nullable(),
  category: z.string().nullable(),
  tags: z.array(z.string()),
  trial: z.number().int().nonnegative(),
  trials: z.number().int().positive(),
  seed: z.number().int(),
  turn: z.number().int().nullable(),
  generation: z.string().nullable(),
  matchers: z.array(MatcherRecordSchema),
  metrics: z.record(z.string(), z.number()),
  usage: UsageSchema.nullable(),
  steps: z.number().int().nonnegative().nullable(),
  /** Known failure kind (timeout, rate_limited…) when the agent failed before scoring. */
  failure: z.object({ kind: z.string(), message: z.string() }).nullable(),
  datasetInfo: DatasetInfoSchema.optional(),
  /** Where the agent came from (built-in, module, command) and its file's sha256; absent for agent objects. */
  agentProvenance: AgentProvenanceSchema.nullable().optional(),
  /** The model gateway's view of the trial (upstream, whose usage counts, each call); absent without an upstream. */
  llm: LlmMetaSchema.optional(),
  /** Notes for the run's record: the cuts of the size policy (core/value-cap.ts) made before the meta left the worker. */
  warnings: z.array(z.string()).optional(),
  /** When the trial (or turn) started, ISO 8601 UTC. */
  startedAt: z.string().optional(),
})
export type DataforgeMeta = z.infer<typeof DataforgeMetaSchema>

const isExactMeta = compileExactCheck(DataforgeMetaSchema)

/**
 * Validates a test's meta; a malformed one is an error naming the test and the field. A meta that zod would
 * return unchanged (the common case: what evalCase wrote) passes a compiled structural check instead of a
 * zod parse, which costs ~60 µs a test on a repair verdict; everything else goes through zod.
 */
export function parseDataforgeMeta(value: unknown, testName: string): DataforgeMeta {
  if (isExactMeta(value)) return value as DataforgeMeta
  const parsed = DataforgeMetaSchema.safeParse(value)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]!
  throw new InputError(
    `test "${testName}": invalid dataforge meta at ${issue.path.join('.') || '(root)'}: ${issue.message}`,
  )
}
