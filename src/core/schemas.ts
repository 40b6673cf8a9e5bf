import { z } from 'zod'
import { FAILURE_KINDS } from './failure-kind.js'

/**
 * A table as agents see it: column names and rows of literal strings.
 * Rows are addressed by their 0-based index in `rows` (the header is not a row).
 */
export const TableSchema = z
  .object({
    columns: z.array(z.string()),
    rows: z.array(z.array(z.string())),
  })
  .superRefine((table, ctx) => {
    table.rows.forEach((row, i) => {
      if (row.length !== table.columns.length) {
        ctx.addIssue({
          code: 'custom',
          path: ['rows', i],
          message: `row ${i} has ${row.length} cells, expected ${table.columns.length}`,
        })
      }
    })
  })
export type Table = z.infer<typeof TableSchema>

/** One proposed cell repair. `row` is the 0-based data row, `column` a canonical column name. */
export const FixSchema = z.object({
  row: z.number().int().nonnegative(),
  column: z.string(),
  newValue: z.string(),
  reason: z.string().optional(),
})
export type Fix = z.infer<typeof FixSchema>

export const UsageSchema = z.object({
  /** Model calls, cached or live. */
  calls: z.number().nonnegative(),
  promptTokens: z.number().nonnegative(),
  completionTokens: z.number().nonnegative(),
  quotaUnits: z.number().nonnegative(),
  costUsd: z.number().nonnegative(),
  /** Calls answered from the record/replay cache: they cost no quota and no money. */
  cachedCalls: z.number().nonnegative().default(0),
  /** Tokens the cached answers would have cost when they were recorded. */
  cachedPromptTokens: z.number().nonnegative().default(0),
  cachedCompletionTokens: z.number().nonnegative().default(0),
})
export type Usage = z.infer<typeof UsageSchema>

// Usage arithmetic lives apart from the zod schemas, so the test workers' import graph stays free of zod.

const MetadataValue = z.union([z.string(), z.number(), z.boolean(), z.null()])

/** What an agent is given: never any clean value. */
export const AgentTaskSchema = z.object({
  name: z.string(),
  /** The dirty table; its column names are the canonical ones. */
  dirty: TableSchema,
  /** Canonical column names, the only legal `Fix.column` values. */
  columns: z.array(z.string()),
  metadata: z.record(z.string(), z.union([MetadataValue, z.array(z.string())])),
  seed: z.number().int(),
})
export type AgentTask = z.infer<typeof AgentTaskSchema>

export const AgentRunResultSchema = z.object({
  fixes: z.array(z.unknown()),
  usage: UsageSchema.partial().optional(),
  steps: z.number().int().nonnegative().optional(),
  model: z.string().optional(),
  warnings: z.array(z.string()).optional(),
  /** Set by model adapters when a run fails in a known way (parse failure, refusal, rate limit…). */
  failure: z.object({ kind: z.string(), message: z.string() }).optional(),
})
export type AgentRunResult = z.infer<typeof AgentRunResultSchema>

/** Why a run produced no score (the kinds live in failure-kind.ts, so the test workers' import graph stays free of zod). */
export const FailureKindSchema = z.enum(FAILURE_KINDS)
export { type FailureKind, toFailureKind } from './failure-kind.js'
