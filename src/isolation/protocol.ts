import { z } from 'zod'
import { AnswerSchema } from '../core/answer.js'
import { AgentTaskSchema, TableSchema } from '../core/schemas.js'

/**
 * The agent protocol: JSON lines on the agent process's stdin (host → agent) and stdout (agent → host). Every
 * request carries an `id`; the agent answers it with a message carrying the same `id`. See docs/agent-protocol.md.
 */
export const PROTOCOL_VERSION = 1

const Id = z.number().int().nonnegative()

/** Start one repair trial: the label-hidden task, the trial's seed and index. Answered by `result` or `error`. */
export const RepairRequestSchema = z.object({
  type: z.literal('repair'),
  id: Id,
  protocol: z.literal(PROTOCOL_VERSION),
  task: AgentTaskSchema,
  seed: z.number().int(),
  trial: z.number().int().nonnegative(),
})

/** Open a data session over named tables. Answered by `opened` or `error`. One session per process. */
export const OpenRequestSchema = z.object({
  type: z.literal('open'),
  id: Id,
  protocol: z.literal(PROTOCOL_VERSION),
  tables: z.record(z.string(), TableSchema),
  seed: z.number().int(),
})

/** Ask the open session one question. Answered by `answer` or `error`. */
export const AskRequestSchema = z.object({ type: z.literal('ask'), id: Id, question: z.string() })

/** Close the session. Answered by `closed`; the process may then exit. */
export const CloseRequestSchema = z.object({ type: z.literal('close'), id: Id })

/** Messages the host writes. */
export const HostMessageSchema = z.discriminatedUnion('type', [
  RepairRequestSchema,
  OpenRequestSchema,
  AskRequestSchema,
  CloseRequestSchema,
])
export type HostMessage = z.infer<typeof HostMessageSchema>

/** Fixes (same shape as an in-process agent's `AgentRunResult`) for a `repair` request. */
export const RepairResultSchema = z.object({
  type: z.literal('result'),
  id: Id,
  fixes: z.array(z.unknown()),
  /** Token and cost counts (see `Usage`); negative or non-numeric values are dropped by the host, as in-process. */
  usage: z.record(z.string(), z.unknown()).optional(),
  steps: z.unknown().optional(),
  model: z.string().optional(),
  warnings: z.array(z.string()).optional(),
  failure: z.object({ kind: z.string(), message: z.string() }).optional(),
})

export const OpenedSchema = z.object({ type: z.literal('opened'), id: Id })
export const AnswerMessageSchema = z.object({ type: z.literal('answer'), id: Id, answer: AnswerSchema })
export const ClosedSchema = z.object({ type: z.literal('closed'), id: Id })

/** The agent's code threw while handling request `id`; `kind` may name a known failure kind (timeout, refusal…). */
export const ErrorMessageSchema = z.object({
  type: z.literal('error'),
  id: Id.nullable(),
  message: z.string(),
  kind: z.string().optional(),
})

/** Sent once by every agent process when it is ready for requests: the agent's declared identity. */
export const ReadySchema = z.object({
  type: z.literal('ready'),
  protocol: z.literal(PROTOCOL_VERSION).optional(),
  name: z.string().optional(),
  kind: z.string().optional(),
  model: z.string().optional(),
  provider: z.string().optional(),
  capabilities: z.array(z.enum(['repair', 'data'])).optional(),
})

/** Messages the agent writes. */
export const AgentMessageSchema = z.discriminatedUnion('type', [
  RepairResultSchema,
  OpenedSchema,
  AnswerMessageSchema,
  ClosedSchema,
  ErrorMessageSchema,
  ReadySchema,
])
export type AgentMessage = z.infer<typeof AgentMessageSchema>
