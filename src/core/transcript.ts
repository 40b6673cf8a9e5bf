import { z } from 'zod'
import { LlmCallSchema } from './llm.js'

/*
 * What the harness keeps of one trial beyond its score: each model call the gateway served, in full but capped,
 * and each tool call the agent made. The record carries the short form (`RunRecord.toolCalls`) and the id of its
 * transcript (`RunRecord.transcriptId`); the transcript itself is one line of the report's transcripts file
 * (`<stem>.transcripts.jsonl`), found by that id. Keys, auth headers and expected values never enter either.
 */

export const TRANSCRIPT_VERSION = 1

/** Where a tool call happened: asked for by the model in an answer, or run by the agent itself (the data agent's SQL). */
const ToolCallSourceSchema = z.enum(['model', 'agent'])

/** One tool call as a record keeps it, in the order the trial made them. */
export const RecordToolCallSchema = z.object({
  name: z.string(),
  /** The arguments as sent (JSON text for model tool calls, the SQL for the data agent), capped by the size policy. */
  arguments: z.string(),
  /** Characters of the tool's result; null when the harness did not see it (a model tool call whose result went back in the next request is counted there). */
  resultChars: z.number().int().nonnegative().nullable(),
  source: ToolCallSourceSchema,
  /** The 0-based model call that asked for it (source `model`), else null. */
  call: z.number().int().nonnegative().nullable(),
})
export type RecordToolCall = z.infer<typeof RecordToolCallSchema>

/** A tool call asked for in a model's answer, or replayed to it in a request. */
const TranscriptToolCallSchema = z.object({
  id: z.string().nullable(),
  name: z.string(),
  /** Raw argument text (streamed deltas assembled); malformed JSON is kept as sent. */
  arguments: z.string(),
})

/** One message of a request, flattened to text: non-text parts read `[image]`, `[file]`, … */
const TranscriptMessageSchema = z.object({
  role: z.string(),
  content: z.string(),
  toolCalls: z.array(TranscriptToolCallSchema).default([]),
  /** For a tool result message: the call it answers. */
  toolCallId: z.string().nullable().default(null),
})

const TranscriptToolSchema = z.object({
  name: z.string(),
  description: z.string().nullable(),
  /** The parameters' JSON schema as JSON text, capped. */
  parameters: z.string().nullable(),
})

/**
 * One model call through the gateway, in full (capped), as the viewer shows it: the record's fields of the call
 * (`LlmCallSchema`, in its order) but its start time, which traces take from the record, then what was said.
 */
const TranscriptCallSchema = z.object({
  index: z.number().int().nonnegative(),
  ...LlmCallSchema.omit({ startedAtMs: true }).shape,
  request: z.object({
    system: z.string().nullable(),
    messages: z.array(TranscriptMessageSchema),
    tools: z.array(TranscriptToolSchema),
  }),
  /** Null when no answer came (refused, cancelled, upstream error). */
  response: z
    .object({
      text: z.string().nullable(),
      toolCalls: z.array(TranscriptToolCallSchema),
      finishReason: z.string().nullable(),
    })
    .nullable(),
})
export type TranscriptCall = z.infer<typeof TranscriptCallSchema>

/** One tool the agent ran itself (the data agent's SQL), with a preview of its result. */
const AgentToolStepSchema = z.object({
  index: z.number().int().nonnegative(),
  name: z.string(),
  input: z.string(),
  /** The first rows or characters of the result, capped. */
  resultPreview: z.string(),
  resultChars: z.number().int().nonnegative(),
  error: z.string().nullable(),
  ms: z.number().nonnegative().nullable(),
})
export type AgentToolStep = z.infer<typeof AgentToolStepSchema>

/** One line of `<stem>.transcripts.jsonl`. */
export const TranscriptSchema = z.object({
  transcriptVersion: z.literal(TRANSCRIPT_VERSION),
  /** The id the run's record names in `transcriptId`. */
  id: z.string(),
  calls: z.array(TranscriptCallSchema),
  agentTools: z.array(AgentToolStepSchema),
  /** What the size policy cut, and anything else the viewer should say about this transcript. */
  notes: z.array(z.string()),
})
export type Transcript = z.infer<typeof TranscriptSchema>
