import type { Protocol } from './types.js'

export interface CallUsage {
  model: string | null
  promptTokens: number
  completionTokens: number
  /** False when the answer carried no usage at all. */
  reported: boolean
}

const n = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined

/**
 * Tokens from one usage object, whichever wire names it uses: OpenAI's `prompt_tokens`/`completion_tokens`, the
 * Responses API's and Anthropic's `input_tokens`/`output_tokens` (Anthropic's prompt-cache reads and writes count
 * as prompt tokens).
 */
function tokensOf(usage: unknown): { prompt?: number; completion?: number } | null {
  if (!usage || typeof usage !== 'object') return null
  const u = usage as Record<string, unknown>
  const input = n(u['input_tokens'])
  const prompt =
    n(u['prompt_tokens']) ??
    (input !== undefined
      ? input + (n(u['cache_creation_input_tokens']) ?? 0) + (n(u['cache_read_input_tokens']) ?? 0)
      : undefined)
  const completion = n(u['completion_tokens']) ?? n(u['output_tokens'])
  return prompt === undefined && completion === undefined ? null : { prompt, completion }
}

/** Usage of a JSON answer (chat completion, message, embeddings, response). */
export function usageOfJson(json: unknown): CallUsage {
  const root = (json && typeof json === 'object' ? json : {}) as Record<string, unknown>
  const tokens = tokensOf(root['usage'])
  return {
    model: typeof root['model'] === 'string' ? root['model'] : null,
    promptTokens: tokens?.prompt ?? 0,
    completionTokens: tokens?.completion ?? 0,
    reported: tokens !== null,
  }
}

/** The events that end a Responses API stream; one that ends without any was cut off. */
const RESPONSES_ENDS = new Set(['response.completed', 'response.incomplete', 'response.failed', 'error'])

/**
 * Usage read from a stream, event by event: OpenAI's final `usage` chunk (`stream_options.include_usage`),
 * Anthropic's `message_start` (input tokens) and `message_delta` (output tokens so far), the Responses API's
 * `response.completed` (its `response.usage`). A later figure replaces an earlier one: Anthropic's counts are
 * cumulative. A Responses stream's end is kept too: one that failed or never ended is not a complete answer.
 */
export class StreamUsage {
  private model: string | null = null
  private prompt: number | undefined
  private completion: number | undefined
  /** Events whose data is not JSON (other than OpenAI's `[DONE]`). */
  unreadable = 0
  /** The type of the event that ended a Responses stream (`response.completed`, …), null until one came. */
  private ending: string | null = null
  private failureCode: string | null = null

  constructor(readonly protocol: Protocol) {}

  onData(data: string): void {
    if (data.trim() === '[DONE]') return
    let json: unknown
    try {
      json = JSON.parse(data)
    } catch {
      this.unreadable++
      return
    }
    if (!json || typeof json !== 'object') return
    const root = json as Record<string, unknown>
    if (this.protocol === 'openai-responses') this.noteEnding(root)
    const message =
      root['message'] && typeof root['message'] === 'object' ? (root['message'] as Record<string, unknown>) : null
    const model =
      root['model'] ?? message?.['model'] ?? (root['response'] as Record<string, unknown> | undefined)?.['model']
    if (typeof model === 'string' && model) this.model = model
    const tokens =
      tokensOf(root['usage']) ??
      tokensOf(message?.['usage']) ??
      tokensOf((root['response'] as Record<string, unknown> | undefined)?.['usage'])
    if (!tokens) return
    if (tokens.prompt !== undefined && (tokens.prompt > 0 || this.prompt === undefined)) this.prompt = tokens.prompt
    if (tokens.completion !== undefined) this.completion = tokens.completion
  }

  private noteEnding(root: Record<string, unknown>): void {
    const type = root['type']
    if (typeof type !== 'string' || !RESPONSES_ENDS.has(type)) return
    this.ending = type
    const response = root['response'] as Record<string, unknown> | undefined
    const error = type === 'error' ? root : (response?.['error'] as Record<string, unknown> | undefined)
    const code = error?.['code'] ?? error?.['type']
    this.failureCode = typeof code === 'string' && /^[\w.-]{1,64}$/.test(code) ? code : null
  }

  /**
   * Why a Responses stream is not a complete answer (it failed, or ended before `response.completed`), else null.
   * Other protocols' streams are not judged here.
   */
  problem(): string | null {
    if (this.protocol !== 'openai-responses') return null
    if (this.ending === null) return 'ended before its response.completed event'
    if (this.ending === 'response.failed' || this.ending === 'error')
      return `ended with a ${this.ending} event${this.failureCode ? ` (${this.failureCode})` : ''}`
    return null
  }

  result(): CallUsage {
    return {
      model: this.model,
      promptTokens: this.prompt ?? 0,
      completionTokens: this.completion ?? 0,
      reported: this.prompt !== undefined || this.completion !== undefined,
    }
  }
}
