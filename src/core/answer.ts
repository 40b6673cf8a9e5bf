import { z } from 'zod'
import { TableSchema, UsageSchema } from './schemas.js'

/** What a question-answering data agent returns for one question. */
export const AnswerSchema = z.object({
  /** The structured result: number, string, list or table. Graded first. */
  value: z.union([z.number(), z.string(), z.boolean(), z.array(z.unknown()), TableSchema, z.null()]).optional(),
  /** Prose. Graded only where `value` is absent (numeric) or as a second source (contains). */
  text: z.string().optional(),
  /** Vega-Lite specs. */
  charts: z.array(z.record(z.string(), z.unknown())).optional(),
  refused: z.boolean().optional(),
  usage: UsageSchema.partial().optional(),
  steps: z.number().int().nonnegative().optional(),
  model: z.string().optional(),
  /** Per-question counters (tool calls by name, tool errors…), copied into the RunRecord's `metrics`. */
  metrics: z.record(z.string(), z.number()).optional(),
})
export type Answer = z.infer<typeof AnswerSchema>

/** A grader's verdict: strict by design, with a human-readable detail. */
export interface GradeResult {
  passed: boolean
  detail: string
  /** Optional score in [0, 1] for graders that have one. */
  score?: number
  /** Per-part verdicts for composed graders. */
  parts?: GradeResult[]
}

export type Grader = (answer: Answer) => GradeResult | Promise<GradeResult>
