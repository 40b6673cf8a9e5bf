import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** One scripted answer. */
export interface FakeReply {
  status?: number
  headers?: Record<string, string>
  /** Sent as JSON. */
  json?: unknown
  /** Sent as is (wins over `json`). */
  text?: string
  /** Wait before answering (prefer `heldAnswers`: a held answer needs no guessed delay). */
  delayMs?: number
  /** Drop the connection without answering. */
  destroy?: boolean
}

export interface RecordedRequest {
  method: string
  /** Path and query, e.g. `/v1/chat/completions`. */
  url: string
  headers: IncomingHttpHeaders
  body: unknown
  raw: string
  receivedAt: number
}

export type FakeHandler = (request: RecordedRequest, index: number) => FakeReply | Promise<FakeReply>

export interface FakeServerOptions {
  /** Answers chat calls once the script is used up; default `{"fixes": []}`. */
  handler?: FakeHandler
  /** Body of `GET …/models`. */
  models?: unknown
  modelsStatus?: number
  /** Added to every chat answer (for benchmarks; tests hold answers with `heldAnswers` instead). */
  latencyMs?: number
}

/**
 * A chat-completions server on 127.0.0.1, scripted per test: queue answers with `script()`, or set a handler.
 * Records every request (headers, URL, parsed body) and the peak number of chat calls in flight.
 */
export class FakeChatServer {
  readonly requests: RecordedRequest[] = []
  readonly other: RecordedRequest[] = []
  origin = ''
  inFlight = 0
  maxInFlight = 0
  private queue: FakeReply[] = []
  private handler: FakeHandler | undefined
  private readonly server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      void this.answer(req.method ?? 'GET', req.url ?? '/', req.headers, Buffer.concat(chunks).toString('utf8'), res)
    })
  })

  constructor(private readonly opts: FakeServerOptions = {}) {
    this.handler = opts.handler
  }

  /** OpenAI-style base URL: `http://127.0.0.1:PORT/v1`. */
  get baseUrl(): string {
    return `${this.origin}/v1`
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve))
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
    return this
  }

  script(...replies: FakeReply[]): this {
    this.queue.push(...replies)
    return this
  }

  onChat(handler: FakeHandler): this {
    this.handler = handler
    return this
  }

  async close(): Promise<void> {
    this.server.closeAllConnections()
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }

  private async answer(method: string, url: string, headers: IncomingHttpHeaders, raw: string, res: ServerResponse) {
    let body: unknown = raw
    try {
      body = raw ? JSON.parse(raw) : undefined
    } catch {
      // kept raw
    }
    const request: RecordedRequest = { method, url, headers, body, raw, receivedAt: performance.now() }
    if (method === 'GET' && url.endsWith('/models')) {
      this.other.push(request)
      return send(res, { status: this.opts.modelsStatus ?? 200, json: this.opts.models ?? { data: [] } })
    }
    if (method !== 'POST' || !url.endsWith('/chat/completions')) {
      this.other.push(request)
      return send(res, { status: 404, json: { error: { message: `no route ${method} ${url}` } } })
    }
    const index = this.requests.length
    this.requests.push(request)
    this.inFlight++
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight)
    try {
      const reply =
        this.queue.shift() ?? (this.handler ? await this.handler(request, index) : completion('{"fixes": []}'))
      const delay = (this.opts.latencyMs ?? 0) + (reply.delayMs ?? 0)
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay))
      if (reply.destroy) {
        res.socket?.destroy()
        return
      }
      if (!res.destroyed) send(res, reply)
    } finally {
      this.inFlight--
    }
  }
}

function send(res: ServerResponse, reply: FakeReply): void {
  const text = reply.text ?? JSON.stringify(reply.json ?? {})
  res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers })
  res.end(text)
}

export async function startFakeServer(opts: FakeServerOptions = {}): Promise<FakeChatServer> {
  return new FakeChatServer(opts).start()
}

export interface CompletionOptions {
  promptTokens?: number
  completionTokens?: number
  finishReason?: string
  toolCalls?: Array<{ id: string; name: string; arguments: string }>
  refusal?: string | null
  model?: string
}

/** A 200 chat-completion answer. */
export function completion(content: string | null, opts: CompletionOptions = {}): FakeReply {
  const message: Record<string, unknown> = { role: 'assistant', content }
  if (opts.refusal !== undefined) message['refusal'] = opts.refusal
  if (opts.toolCalls) {
    message['tool_calls'] = opts.toolCalls.map((c) => ({
      id: c.id,
      type: 'function',
      function: { name: c.name, arguments: c.arguments },
    }))
  }
  return {
    json: {
      id: 'chatcmpl-fake',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: opts.model ?? 'fake-model',
      choices: [{ index: 0, message, finish_reason: opts.finishReason ?? (opts.toolCalls ? 'tool_calls' : 'stop') }],
      usage: {
        prompt_tokens: opts.promptTokens ?? 100,
        completion_tokens: opts.completionTokens ?? 20,
        total_tokens: (opts.promptTokens ?? 100) + (opts.completionTokens ?? 20),
      },
    },
  }
}

/** A 200 answer holding `{"fixes": [...]}`. */
export function fixesReply(
  fixes: Array<{ row: number; column: string; new_value: string }>,
  opts: CompletionOptions = {},
): FakeReply {
  return completion(JSON.stringify({ fixes }), opts)
}

/** An error answer in the OpenAI error shape. */
export function errorReply(status: number, message: string, headers: Record<string, string> = {}): FakeReply {
  return { status, headers, json: { error: { message, type: 'fake_error' } } }
}

/** The user message of a recorded chat request. */
export function userMessageOf(request: RecordedRequest): string {
  const messages = (request.body as { messages: Array<{ role: string; content: string }> }).messages
  return messages
    .filter((m) => m.role === 'user')
    .map((m) => m.content)
    .join('\n')
}

/**
 * Answers held until the test releases them, one by one: in-flight limits and timeouts are tested with
 * explicit steps instead of real latency. `handler` goes to `onChat`; a held answer that is never released
 * never comes.
 */
export function heldAnswers(reply: () => FakeReply = () => completion('{"fixes": []}')) {
  const held: Array<() => void> = []
  const waiters: Array<() => void> = []
  return {
    handler: (): Promise<FakeReply> =>
      new Promise<FakeReply>((resolve) => {
        held.push(() => resolve(reply()))
        for (const wake of waiters.splice(0)) wake()
      }),
    get count(): number {
      return held.length
    },
    /** Resolves once at least `n` answers are held. */
    async whenHolding(n: number): Promise<void> {
      while (held.length < n) await new Promise<void>((wake) => waiters.push(wake))
    },
    releaseOne(): void {
      held.shift()?.()
    },
  }
}
