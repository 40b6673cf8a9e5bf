import type { LlmAccess } from '../../core/llm.js'
import type { Usage } from '../../core/schemas.js'

/** A tool call as the chat-completions wire format carries it. */
export interface ToolCallWire {
  id: string
  type: 'function'
  function: { name: string; arguments: string }
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCallWire[] }
  | { role: 'tool'; tool_call_id: string; content: string }

export interface ChatTool {
  type: 'function'
  function: { name: string; description?: string; parameters?: Record<string, unknown> }
}

export type ToolChoice = 'auto' | 'none' | 'required' | { type: 'function'; function: { name: string } }

export interface ChatRequest {
  messages: ChatMessage[]
  tools?: ChatTool[]
  toolChoice?: ToolChoice
  temperature?: number
  /** Sent as `max_tokens`. */
  maxTokens?: number
  /** Asks for `response_format: { type: 'json_object' }` (not every provider supports it). */
  jsonMode?: boolean
}

/** Which sample this call belongs to: part of the cassette key, so each trial is an independent sample. */
export interface CallContext {
  trial: number
  seed: number
  signal?: AbortSignal
  /** Named in the gateway's messages (cache misses, budgets) when the client registers its own trial. */
  caseId?: string
  /** The harness's gateway trial (`ctx.llm`): the call counts for it. Without it the client registers a trial of its own. */
  llm?: LlmAccess
}

export interface ToolCall {
  id: string
  name: string
  /** The raw JSON string the model sent. */
  arguments: string
  /** `arguments` parsed; undefined when it is not valid JSON (see `argumentsError`). */
  parsedArguments: unknown
  argumentsError?: string
}

export interface ChatReply {
  content: string | null
  /** The provider's refusal field, where it has one. */
  refusal: string | null
  toolCalls: ToolCall[]
  finishReason: string | null
  /** The assistant message, ready to append to the conversation for the next turn. */
  message: Extract<ChatMessage, { role: 'assistant' }>
  /** This call's usage: live calls add tokens, quota and cost; cached ones only the `cached*` fields. */
  usage: Usage
  cached: boolean
  cacheKey: string
  /** The model that answered, as the provider reports it. */
  model: string
  warnings: string[]
}
