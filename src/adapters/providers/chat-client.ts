import { trialLabel } from '../../core/trial-label.js'
import { createRequire } from 'node:module'
import type OpenAI from 'openai'
import { AgentFailure } from '../../core/errors.js'
import type { FailureKind } from '../../core/schemas.js'
import { usageOfCall } from '../../gateway/accounting.js'
import { formatSeconds } from '../../stats/number-format.js'
import { type BackoffOptions, backoffDelayMs, DEFAULT_BACKOFF, serverRetryDelayMs } from '../../gateway/backoff.js'
import { type CacheEntry, type CacheOptions, cacheKey, ResponseCache } from '../../gateway/cache.js'
import type { CallContext, ChatMessage, ChatReply, ChatRequest, ChatTool, ToolCall, ToolCallWire } from './chat-types.js'
import { type Clock, realClock } from '../../gateway/clock.js'
import { ANSWER_FACTS_HEADER, createHttp, safeToken, UnreadableAnswer } from './http.js'
import type { PriceMap } from '../../gateway/prices.js'
import { type RateLimiter, sharedRateLimiter } from '../../gateway/rate-limiter.js'
import { redactSecrets } from '../../gateway/redact.js'

// The SDK loads when the first client is made: the package root exports the providers, and an eval file that
// imports the root but never calls a model should not pay for the SDK at import.
const requireSdk = createRequire(import.meta.url)
let sdkModule: typeof import('openai') | undefined
function openai(): typeof import('openai') {
  sdkModule ??= requireSdk('openai') as typeof import('openai')
  return sdkModule
}

/** Everything a client needs, resolved: no presets, no environment lookups. */
export interface ChatClientConfig {
  /** Agent name used in messages and log lines (`groq-llama-70b`). */
  agent: string
  provider: string
  baseUrl: string
  model: string
  apiKey: string
  /** Requests a day on the free tier; 0 = not metered. */
  quotaPerDay: number
  prices?: PriceMap
  cache?: CacheOptions
  /** Per call, from the first byte sent; past it the call fails as `timeout`. Default 120 s. */
  timeoutMs?: number
  /** Retries after HTTP 429 before the call fails as `rate_limited`. Default 5. */
  maxRetries?: number
  /** Retries after 5xx or connection errors before `provider_error`. Default 2. */
  maxServerRetries?: number
  /** A 429 asking to wait longer than this fails at once as `rate_limited`. Default 10 minutes. */
  maxRetryAfterMs?: number
  backoff?: Partial<BackoffOptions>
  concurrency?: number
  rpm?: number
  /** One line per wait or notice; default stderr. */
  log?: (line: string) => void
  clock?: Clock
  /** Jitter source in [0, 1). */
  random?: () => number
}

export interface ChatClient {
  readonly agent: string
  readonly provider: string
  readonly baseUrl: string
  readonly model: string
  chat(request: ChatRequest, call: CallContext): Promise<ChatReply>
  /** One turn of a tool-using conversation; the reply's `toolCalls` are what to run next. */
  chatWithTools(messages: ChatMessage[], tools: ChatTool[], call: CallContext, extra?: Omit<ChatRequest, 'messages' | 'tools'>): Promise<ChatReply>
  /** Closes pooled connections. */
  close(): Promise<void>
}

const DEFAULT_TIMEOUT_MS = 120_000

export function openChatClient(config: ChatClientConfig): ChatClient {
  return new OpenAIChatClient(config)
}

class TimeoutMarker extends Error {}

class OpenAIChatClient implements ChatClient {
  readonly agent: string
  readonly provider: string
  readonly baseUrl: string
  readonly model: string
  private readonly sdk: OpenAI
  private readonly http: ReturnType<typeof createHttp>
  private readonly limiter: RateLimiter
  private readonly cache: ResponseCache | undefined
  private readonly clock: Clock
  private readonly random: () => number
  private readonly log: (line: string) => void
  private readonly timeoutMs: number
  private readonly backoff: BackoffOptions

  constructor(private readonly config: ChatClientConfig) {
    this.agent = config.agent
    this.provider = config.provider
    this.baseUrl = config.baseUrl.replace(/\/+$/, '')
    this.model = config.model
    this.clock = config.clock ?? realClock
    this.random = config.random ?? Math.random
    this.log = config.log ?? ((line) => process.stderr.write(`${line}\n`))
    this.timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS
    this.backoff = { ...DEFAULT_BACKOFF, ...config.backoff }
    this.limiter = sharedRateLimiter(this.baseUrl, {
      concurrency: config.concurrency ?? 0,
      rpm: config.rpm ?? 0,
      clock: this.clock,
    })
    this.cache =
      config.cache && config.cache.mode !== 'off' ? new ResponseCache(config.cache.dir, [config.apiKey]) : undefined
    this.http = createHttp({ connections: config.concurrency, timeoutMs: this.timeoutMs })
    this.sdk = new (openai().OpenAI)({
      apiKey: config.apiKey,
      // Explicit nulls keep the SDK from picking up OPENAI_* variables meant for another provider.
      adminAPIKey: null,
      organization: null,
      project: null,
      baseURL: this.baseUrl,
      maxRetries: 0,
      timeout: this.timeoutMs + 5_000,
      fetch: this.http.fetch,
      logLevel: 'off',
    })
  }

  chatWithTools(
    messages: ChatMessage[],
    tools: ChatTool[],
    call: CallContext,
    extra: Omit<ChatRequest, 'messages' | 'tools'> = {},
  ): Promise<ChatReply> {
    return this.chat({ ...extra, messages, tools }, call)
  }

  async chat(request: ChatRequest, call: CallContext): Promise<ChatReply> {
    const body = this.bodyOf(request)
    const parts = { baseUrl: this.baseUrl, model: this.model, body, trial: call.trial, seed: call.seed }
    const key = cacheKey(parts)
    const mode = this.config.cache?.mode ?? 'off'
    if (this.cache && (mode === 'replay' || mode === 'auto')) {
      const entry = await this.cache.read(key)
      if (entry) return this.replyOf(entry.response, key, true)
      if (mode === 'replay') {
        throw new AgentFailure(
          'cache_miss',
          `${this.agent}: no cached answer for case "${call.caseId ?? '(unnamed)'}" ${trialLabel(call.trial)} ` +
            `(key ${key}) in ${this.cache.dir}; record it first with cache mode record or auto`,
        )
      }
    }
    // A provider could echo the key back; nothing downstream (fixes, reports, cassettes) may carry it.
    const response = JSON.parse(redactSecrets(JSON.stringify(await this.callWithRetries(body, call.signal)), [this.config.apiKey]))
    const reply = this.replyOf(response, key, false)
    if (this.cache && (mode === 'record' || mode === 'auto')) {
      const entry: CacheEntry = { version: 1, key, request: parts, response }
      await this.cache.write(entry)
    }
    return reply
  }

  close(): Promise<void> {
    return this.http.close()
  }

  private bodyOf(request: ChatRequest): Record<string, unknown> {
    const body: Record<string, unknown> = { model: this.model, messages: request.messages }
    if (request.tools && request.tools.length > 0) body['tools'] = request.tools
    if (request.toolChoice !== undefined) body['tool_choice'] = request.toolChoice
    if (request.temperature !== undefined) body['temperature'] = request.temperature
    if (request.maxTokens !== undefined) body['max_tokens'] = request.maxTokens
    if (request.jsonMode) body['response_format'] = { type: 'json_object' }
    return body
  }

  private async callWithRetries(body: Record<string, unknown>, signal: AbortSignal | undefined): Promise<Record<string, unknown>> {
    const maxRateRetries = this.config.maxRetries ?? 5
    const maxServerRetries = this.config.maxServerRetries ?? 2
    const maxRetryAfterMs = this.config.maxRetryAfterMs ?? 600_000
    let rateRetries = 0
    let serverRetries = 0
    for (;;) {
      let error: unknown
      try {
        return await this.sendOnce(body, signal)
      } catch (caught) {
        error = caught
      }
      if (error instanceof AgentFailure) throw error
      const unreadable = unreadableAnswerOf(error)
      if (unreadable) throw this.failure('provider_error', unreadable.message)
      if (error instanceof openai().APIError && error.status === 429) {
        const asked = serverRetryDelayMs(error.headers)
        if (asked !== undefined && asked > maxRetryAfterMs) {
          throw this.failure(
            'rate_limited',
            `HTTP 429: the provider asks to wait ${formatSeconds(asked / 1000)} seconds, over the ${formatSeconds(maxRetryAfterMs / 1000)}-second limit`,
          )
        }
        if (rateRetries >= maxRateRetries) {
          throw this.failure('rate_limited', `HTTP 429: still rate limited after ${maxRateRetries} retries`)
        }
        const wait = asked ?? backoffDelayMs(rateRetries, this.random, this.backoff)
        rateRetries++
        this.log(
          `${this.agent}: HTTP 429 from ${this.provider}; waiting ${formatSeconds(wait / 1000)} seconds for quota reset (retry ${rateRetries} of ${maxRateRetries})`,
        )
        await this.pause(wait, signal)
        continue
      }
      if (isRetryableServerError(error)) {
        const what = error instanceof openai().APIError && error.status !== undefined ? `HTTP ${error.status}` : 'connection error'
        if (serverRetries >= maxServerRetries) {
          throw this.failure('provider_error', `${what} after ${maxServerRetries} retries: ${this.describe(error)}`)
        }
        const asked = error instanceof openai().APIError ? serverRetryDelayMs(error.headers) : undefined
        const wait = Math.min(asked ?? backoffDelayMs(serverRetries, this.random, this.backoff), this.backoff.capMs)
        serverRetries++
        this.log(
          `${this.agent}: ${what} from ${this.provider}; retrying in ${formatSeconds(wait / 1000)} seconds (retry ${serverRetries} of ${maxServerRetries})`,
        )
        await this.pause(wait, signal)
        continue
      }
      if (error instanceof openai().APIError && error.status !== undefined) {
        throw this.failure('provider_error', `HTTP ${error.status}: ${this.describe(error)}`)
      }
      throw this.failure('provider_error', this.describe(error))
    }
  }

  private async sendOnce(body: Record<string, unknown>, outer: AbortSignal | undefined): Promise<Record<string, unknown>> {
    let release: () => void
    try {
      release = await this.limiter.acquire(outer)
    } catch (error) {
      throw this.abortFailure(outer, error)
    }
    const timer = new AbortController()
    const handle = setTimeout(() => timer.abort(new TimeoutMarker('timeout')), this.timeoutMs)
    const signal = outer ? AbortSignal.any([outer, timer.signal]) : timer.signal
    try {
      const response: unknown = await this.sdk.chat.completions.create(
        body as unknown as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming,
        { signal, maxRetries: 0, timeout: this.timeoutMs + 5_000 },
      )
      if (!isChatCompletion(response)) {
        throw this.failure('provider_error', 'the answer is not a chat completion (no choices)')
      }
      return response
    } catch (error) {
      if (outer?.aborted) throw this.abortFailure(outer, error)
      if (timer.signal.aborted) {
        throw this.failure('timeout', `no answer within ${formatSeconds(this.timeoutMs / 1000)} seconds`)
      }
      throw error
    } finally {
      clearTimeout(handle)
      release()
    }
  }

  private async pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
    try {
      await this.clock.sleep(ms, signal)
    } catch (error) {
      throw this.abortFailure(signal, error)
    }
  }

  private abortFailure(signal: AbortSignal | undefined, error: unknown): AgentFailure {
    if (error instanceof AgentFailure) return error
    const reason = signal?.reason instanceof Error ? signal.reason.message : String(signal?.reason ?? error)
    return this.failure('timeout', `aborted by the run's signal (${reason})`)
  }

  private failure(kind: FailureKind, message: string): AgentFailure {
    return new AgentFailure(kind, redactSecrets(`${this.agent} (${this.provider}, ${this.model}): ${message}`, [this.config.apiKey]))
  }

  /** What went wrong, never what the provider said: a response body can echo anything, the key included. */
  private describe(error: unknown): string {
    if (error instanceof openai().APIError && error.status !== undefined) {
      const facts = error.headers?.get(ANSWER_FACTS_HEADER)
      const code = typeof error.code === 'string' ? safeToken(error.code) : null
      return redactSecrets(`the provider answered with an error${code ? ` (code ${code})` : ''}${facts ? `; ${facts}` : ''}`, [this.config.apiKey])
    }
    const message = error instanceof Error ? error.message : String(error)
    const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : ''
    return redactSecrets(`${message}${cause}`, [this.config.apiKey])
  }

  private replyOf(response: Record<string, unknown>, key: string, cached: boolean): ChatReply {
    const warnings: string[] = []
    const choice = (response['choices'] as unknown[])[0] as Record<string, unknown> | undefined
    const message = (choice?.['message'] ?? {}) as Record<string, unknown>
    const content = typeof message['content'] === 'string' ? message['content'] : null
    const refusal = typeof message['refusal'] === 'string' && message['refusal'] !== '' ? message['refusal'] : null
    const wireCalls = Array.isArray(message['tool_calls']) ? (message['tool_calls'] as unknown[]) : []
    const toolCalls: ToolCall[] = []
    const kept: ToolCallWire[] = []
    for (const raw of wireCalls) {
      const call = toolCallOf(raw)
      if (!call) {
        warnings.push('skipped a tool call that is not a function call with a name')
        continue
      }
      toolCalls.push(call)
      kept.push({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } })
    }
    const usageJson = (response['usage'] ?? {}) as Record<string, unknown>
    const promptTokens = numberOr0(usageJson['prompt_tokens'])
    const completionTokens = numberOr0(usageJson['completion_tokens'])
    if (response['usage'] === undefined) warnings.push(`${this.agent}: the answer reported no token usage`)
    const model = typeof response['model'] === 'string' && response['model'] ? response['model'] : this.model
    const price = this.config.prices?.[this.model] ?? this.config.prices?.[model]
    if (this.config.prices && !price && !cached) warnings.push(`${this.agent}: no price for model ${this.model}; cost counted as 0`)
    const assistant: ChatReply['message'] = { role: 'assistant', content }
    if (kept.length > 0) assistant.tool_calls = kept
    return {
      content,
      refusal,
      toolCalls,
      finishReason: typeof choice?.['finish_reason'] === 'string' ? choice['finish_reason'] : null,
      message: assistant,
      usage: usageOfCall({ promptTokens, completionTokens }, { cached, quotaPerDay: this.config.quotaPerDay, price }),
      cached,
      cacheKey: key,
      model,
      warnings,
    }
  }
}

function unreadableAnswerOf(error: unknown): UnreadableAnswer | undefined {
  if (error instanceof UnreadableAnswer) return error
  const cause = (error as { cause?: unknown } | null)?.cause
  return cause instanceof UnreadableAnswer ? cause : undefined
}

function isRetryableServerError(error: unknown): boolean {
  if (error instanceof openai().APIConnectionError) return true
  return error instanceof openai().APIError && error.status !== undefined && error.status >= 500
}

function isChatCompletion(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Array.isArray((value as Record<string, unknown>)['choices']) &&
    ((value as Record<string, unknown>)['choices'] as unknown[]).length > 0
}

function toolCallOf(raw: unknown): ToolCall | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined
  const r = raw as Record<string, unknown>
  const fn = r['function'] as Record<string, unknown> | undefined
  if (!fn || typeof fn['name'] !== 'string') return undefined
  const args = typeof fn['arguments'] === 'string' ? fn['arguments'] : JSON.stringify(fn['arguments'] ?? {})
  const call: ToolCall = {
    id: typeof r['id'] === 'string' ? r['id'] : `call_${fn['name']}`,
    name: fn['name'],
    arguments: args,
    parsedArguments: undefined,
  }
  try {
    call.parsedArguments = args.trim() === '' ? {} : JSON.parse(args)
  } catch (error) {
    call.argumentsError = `arguments of ${fn['name']} are not valid JSON: ${(error as Error).message}`
  }
  return call
}

function numberOr0(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0
}
