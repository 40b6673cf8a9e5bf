/**
 * What the model gateway (src/gateway/) gives an agent and leaves on its records, as plain types: the core
 * knows nothing of the gateway itself.
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

/** One model call as a record keeps it: never a key, a header or a message. */
export interface LlmCall {
  protocol: 'openai-chat' | 'openai-responses' | 'anthropic-messages' | 'other'
  /** The path under the gateway's `/v1` (`/chat/completions`). */
  path: string
  model: string | null
  stream: boolean
  promptTokens: number
  completionTokens: number
  latencyMs: number
  /** `hit`: answered from the cassette; `live`: sent upstream; `refused`: the gateway answered with an error. */
  cache: 'hit' | 'live' | 'refused'
  /** The HTTP status the agent got. */
  status: number
  error: string | null
  /** When the call started, in ms since the epoch; null when unknown. */
  startedAtMs: number | null
}

/** Which usage a record counts: the gateway's (it saw the calls) or the agent's own report (no call went through it). */
export type UsageSource = 'gateway' | 'agent'
