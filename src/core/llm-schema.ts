import { z } from 'zod'
import { RecordToolCallSchema, TranscriptSchema } from './transcript.js'

/** One model call through the gateway, as `RunRecord.llmCalls` keeps it (`LlmCall` in core/llm.ts). */
export const LlmCallSchema = z.object({
  protocol: z.enum(['openai-chat', 'openai-responses', 'anthropic-messages', 'other']),
  path: z.string(),
  model: z.string().nullable(),
  stream: z.boolean(),
  promptTokens: z.number().nonnegative(),
  completionTokens: z.number().nonnegative(),
  latencyMs: z.number().nonnegative(),
  cache: z.enum(['hit', 'live', 'refused']),
  status: z.number().int(),
  error: z.string().nullable(),
  /** When the call started, in ms since the epoch (its span's start in a trace); null in records made before it was kept. */
  startedAtMs: z.number().nonnegative().nullable().default(null),
})

/** What the gateway saw of one test's trial, on its meta (Vitest, Jest) until the reporter builds its RunRecord. */
export const LlmMetaSchema = z.object({
  upstream: z.string(),
  usageSource: z.enum(['gateway', 'agent']).nullable(),
  calls: z.array(LlmCallSchema),
  /** The trial's tool calls (`RunRecord.toolCalls`); absent on metas written before transcripts were kept. */
  toolCalls: z.array(RecordToolCallSchema).optional(),
  /** The trial's transcript, capped by the size policy: the reporter writes it to transcripts.jsonl. */
  transcript: TranscriptSchema.nullable().optional(),
})
