import { createRequire } from 'node:module'
import { AgentFailure, InputError } from '../../core/errors.js'
import type { LlmAccess } from '../../core/llm.js'
import type { FailureKind } from '../../core/schemas.js'
import { usageOfCall } from '../../gateway/accounting.js'
import { redactSecrets } from '../../gateway/redact.js'
import type { LlmConfig } from '../../gateway/trial-llm.js'
import { usageOfJson } from '../../gateway/usage.js'
import type {
  CallContext,
  ChatMessage,
  ChatReply,
  ChatRequest,
  ChatTool,
  ToolCall,
  ToolCallWire,
} from './chat-types.js'
import type { ChatClientConfig } from './chat-config.js'
import { presetLlmConfig } from './preset-upstream.js'

export type { ChatClientConfig }

export interface ChatClient {
  readonly agent: string
  readonly provider: string
  readonly baseUrl: string
  readonly model: string
  /** The upstream the client's calls go to through the gateway (its trials register with it). */
  readonly llm: LlmConfig
  /**
   * One call through the model gateway: on the trial of `call.llm` when the harness gave one, else on a trial of
   * its own (case, trial and seed from `call`) that ends with the call.
   */
  chat(request: ChatRequest, call: CallContext): Promise<ChatReply>
  /** One turn of a tool-using conversation; the reply's `toolCalls` are what to run next. */
  chatWithTools(
    messages: ChatMessage[],
    tools: ChatTool[],
    call: CallContext,
    extra?: Omit<ChatRequest, 'messages' | 'tools'>,
  ): Promise<ChatReply>
  /** Nothing to close: connections to the gateway are pooled per process. Kept for callers that close clients. */
  close(): Promise<void>
}

export function openChatClient(config: ChatClientConfig): ChatClient {
  return new GatewayChatClient(config)
}

type Undici = typeof import('undici')
// undici loads with the first call, not when the package root is imported.
const requireUndici = createRequire(import.meta.url)
let gatewayPool: { undici: Undici; agent: InstanceType<Undici['Agent']> } | undefined

interface GatewayAnswer {
  status: number
  header(name: string): string | null
  text(): Promise<string>
}

/** One POST to the gateway on a keep-alive pool (undici's `request`: a fraction of `fetch`'s cost per call). */
async function postToGateway(
  url: string,
  token: string,
  body: string,
  signal: AbortSignal | undefined,
): Promise<GatewayAnswer> {
  if (!gatewayPool) {
    const undici = requireUndici('undici') as Undici
    gatewayPool = { undici, agent: new undici.Agent({ keepAliveTimeout: 4_000, keepAliveMaxTimeout: 30_000 }) }
  }
  const { undici, agent } = gatewayPool
  const answer = await undici.request(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body,
    dispatcher: agent,
    // The gateway times each upstream call; the run's signal bounds the whole.
    headersTimeout: 0,
    bodyTimeout: 0,
    ...(signal ? { signal } : {}),
  })
  return {
    status: answer.statusCode,
    header: (name) => {
      const value = answer.headers[name]
      return Array.isArray(value) ? (value[0] ?? null) : (value ?? null)
    },
    text: () => answer.body.text(),
  }
}

let trialLlm: Promise<typeof import('../../gateway/trial-llm.js')> | undefined

/**
 * Loaded on the first call without a harness trial, so importing the package root starts no server; one import
 * shared by concurrent first calls (a loader that transpiles on the fly can hand a second, concurrent import a
 * module still being evaluated).
 */
function trialLlmModule(): Promise<typeof import('../../gateway/trial-llm.js')> {
  trialLlm ??= import('../../gateway/trial-llm.js')
  return trialLlm
}

/** Gateway error codes that are not a `provider_error`; every other refusal is one. */
const KIND_OF_CODE: Record<string, FailureKind> = {
  cache_miss: 'cache_miss',
  budget_exceeded: 'budget_exceeded',
  rate_limited: 'rate_limited',
  upstream_timeout: 'timeout',
  malformed_body: 'invalid_request',
  unknown_path: 'invalid_request',
  body_too_large: 'invalid_request',
  method_not_allowed: 'invalid_request',
}

/**
 * The built-in agents' client. It builds OpenAI-compatible chat requests and reads the replies; the gateway does
 * the rest (the key, rate limits, 429 backoff, retries, record/replay, accounting, budgets), as for any agent.
 */
class GatewayChatClient implements ChatClient {
  readonly agent: string
  readonly provider: string
  readonly baseUrl: string
  readonly model: string
  // Private fields: printing a client (console.log, util.inspect) never shows the key they hold.
  readonly #config: ChatClientConfig
  readonly #llm: LlmConfig

  constructor(config: ChatClientConfig) {
    this.agent = config.agent
    this.provider = config.provider
    this.baseUrl = config.baseUrl.replace(/\/+$/, '')
    this.model = config.model
    this.#config = config
    this.#llm = presetLlmConfig(config)
  }

  get llm(): LlmConfig {
    return this.#llm
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
    if (call.llm) return this.send(body, call.llm, call.signal)
    const gw = await trialLlmModule()
    const trial = await gw.openLlmTrial(this.llm, {
      caseId: call.caseId ?? '(unnamed)',
      trial: call.trial,
      seed: call.seed,
    })
    try {
      return await this.send(body, trial!.llm, call.signal)
    } finally {
      trial!.finish()
    }
  }

  close(): Promise<void> {
    return Promise.resolve()
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

  private async send(
    body: Record<string, unknown>,
    llm: LlmAccess,
    signal: AbortSignal | undefined,
  ): Promise<ChatReply> {
    let response: GatewayAnswer
    let text: string
    try {
      response = await postToGateway(`${llm.baseURL}/chat/completions`, llm.apiKey, JSON.stringify(body), signal)
      text = await response.text()
    } catch (error) {
      if (signal?.aborted) {
        const reason = signal.reason instanceof Error ? signal.reason.message : String(signal.reason)
        throw this.failure('timeout', `aborted by the run's signal (${reason})`)
      }
      const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : ''
      throw this.failure('provider_error', `cannot reach the model gateway: ${(error as Error).message}${cause}`)
    }
    if (response.status < 200 || response.status >= 300) throw this.refusal(response.status, text)
    let json: Record<string, unknown>
    try {
      json = JSON.parse(text) as Record<string, unknown>
    } catch {
      throw this.failure(
        'provider_error',
        `the answer is not JSON (HTTP ${response.status}, ${text.length} characters)`,
      )
    }
    if (!Array.isArray(json['choices']) || (json['choices'] as unknown[]).length === 0) {
      throw this.failure('provider_error', 'the answer is not a chat completion (no choices)')
    }
    const cached = response.header('x-dataforge-cache') === 'hit'
    return this.replyOf(json, response.header('x-dataforge-cache-key') ?? '', cached)
  }

  /**
   * A refusal of the gateway (its own message, which names the case and trial), or the upstream's error passed on.
   * An upstream's body is never quoted: it can echo anything, the key included.
   */
  private refusal(status: number, text: string): AgentFailure | InputError {
    let error: Record<string, unknown> | undefined
    try {
      const parsed = JSON.parse(text) as { error?: unknown }
      if (parsed.error && typeof parsed.error === 'object') error = parsed.error as Record<string, unknown>
    } catch {
      // not JSON: described by its status alone
    }
    if (error?.['type'] === 'dataforge_gateway_error') {
      const code = String(error['code'])
      // A recording that cannot be read is bad input (it names the file), as anywhere else in the harness.
      if (code === 'cache_corrupt') return new InputError(String(error['message']))
      return this.failure(KIND_OF_CODE[code] ?? 'provider_error', String(error['message']))
    }
    const code =
      typeof error?.['code'] === 'string' && /^[\w.-]{1,64}$/.test(error['code']) ? ` (code ${error['code']})` : ''
    return this.failure('provider_error', `HTTP ${status}: the provider answered with an error${code}`)
  }

  private failure(kind: FailureKind, message: string): AgentFailure {
    return new AgentFailure(
      kind,
      redactSecrets(
        `${this.agent} (${this.provider}, ${this.model}): ${message}`,
        this.#config.apiKey ? [this.#config.apiKey] : [],
      ),
    )
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
    // The gateway counts the same way (usageOfJson, usageOfCall); this copy is the call's figure for agent logic.
    const tokens = usageOfJson(response)
    if (!tokens.reported) warnings.push(`${this.agent}: the answer reported no token usage`)
    const model = tokens.model || this.model
    const prices = this.llm.upstream.prices
    const price = prices?.[this.model] ?? prices?.[model]
    if (prices && !price && !cached) warnings.push(`${this.agent}: no price for model ${this.model}; cost counted as 0`)
    const assistant: ChatReply['message'] = { role: 'assistant', content }
    if (kept.length > 0) assistant.tool_calls = kept
    return {
      content,
      refusal,
      toolCalls,
      finishReason: typeof choice?.['finish_reason'] === 'string' ? choice['finish_reason'] : null,
      message: assistant,
      usage: usageOfCall(tokens, { cached, quotaPerDay: this.#config.quotaPerDay, ...(price ? { price } : {}) }),
      cached,
      cacheKey: key,
      model,
      warnings,
    }
  }
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
