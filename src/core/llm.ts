import { z } from 'zod'

/**
 * What the model gateway (src/gateway/) gives an agent and leaves on its records: the core knows nothing of the
 * gateway itself.
 */

/** `ctx.llm`: how an in-process agent reaches the model through the harness. */
export interface LlmAccess {
  /** `http://127.0.0.1:PORT/v1`: `new OpenAI({ baseURL, apiKey })`. */
  baseURL: string
  /** The per-trial token, in place of a key; refused once the trial is over. */
  apiKey: string
  /** `http://127.0.0.1:PORT`: `new Anthropic({ baseURL: anthropicBaseURL, apiKey })` (the SDK adds `/v1/messages`). */
  anthropicBaseURL: string
  /** A fetch that sends any SDK's `/v1/…` calls to the gateway with this trial's token (for SDKs that take a custom fetch). */
  fetch: typeof fetch
  /** The upstream's identity (preset name, or URL with a loopback port masked). */
  upstream: string
}

/**
 * One model call through the gateway, as `RunRecord.llmCalls` keeps it: never a key, a header or a message. A
 * transcript's call (`TranscriptCallSchema`, core/transcript.ts) is built from these fields.
 */
export const LlmCallSchema = z.object({
  protocol: z.enum(['openai-chat', 'openai-responses', 'anthropic-messages', 'other']),
  /** The path under the gateway's `/v1` (`/chat/completions`), without its query. */
  path: z.string(),
  model: z.string().nullable(),
  stream: z.boolean(),
  promptTokens: z.number().nonnegative(),
  completionTokens: z.number().nonnegative(),
  latencyMs: z.number().nonnegative(),
  /** `hit`: answered from the cassette; `live`: sent upstream; `refused`: the gateway answered with an error. */
  cache: z.enum(['hit', 'live', 'refused']),
  /** The HTTP status the agent got. */
  status: z.number().int(),
  error: z.string().nullable(),
  /** When the call started, in ms since the epoch (its span's start in a trace); null in records made before it was kept. */
  startedAtMs: z.number().nonnegative().nullable().default(null),
})
export type LlmCall = z.infer<typeof LlmCallSchema>

/** Which usage a record counts: the gateway's (it saw the calls) or the agent's own report (no call went through it). */
export const UsageSourceSchema = z.enum(['gateway', 'agent'])
export type UsageSource = z.infer<typeof UsageSourceSchema>
