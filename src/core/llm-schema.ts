import { z } from 'zod'
import { LlmCallSchema, UsageSourceSchema } from './llm.js'
import { RecordToolCallSchema, TranscriptSchema } from './transcript.js'

/** What the gateway saw of one test's trial, on its meta (Vitest, Jest) until the reporter builds its RunRecord. */
export const LlmMetaSchema = z.object({
  upstream: z.string(),
  usageSource: UsageSourceSchema.nullable(),
  calls: z.array(LlmCallSchema),
  /** The trial's tool calls (`RunRecord.toolCalls`); absent on metas written before transcripts were kept. */
  toolCalls: z.array(RecordToolCallSchema).optional(),
  /** The trial's transcript, capped by the size policy: the reporter writes it to transcripts.jsonl. */
  transcript: TranscriptSchema.nullable().optional(),
})
