import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  type ChatCompletionOptions,
  chatCompletion,
  isModelCall,
  type ToolModelOptions,
  toolModel,
} from './tool-model.js'

export interface ProviderRequest {
  method: string
  /** Path and query, e.g. `/v1/chat/completions`. */
  url: string
  headers: IncomingHttpHeaders
  /** The body parsed, or null when it is empty or not JSON. */
  body: Record<string, unknown> | null
  /** The body as sent. */
  raw: string
  /** `performance.now()` when the request had been read. */
  receivedAt: number
  /** The client closed the request before the answer was complete (it cancelled the call). */
  closedEarly?: boolean
}

export interface ProviderReply {
  status?: number
  headers?: Record<string, string>
  json?: unknown
  /** SSE events, each sent as its own write. */
  events?: string[]
  /** Sent as is, as `text/plain` unless `headers` say otherwise (wins over `json`). */
  text?: string
  /** Drop the connection without answering. */
  dropConnection?: boolean
}

/** Returns the answer, or a promise of it (a slow provider), or undefined for the default answer. */
export type ProviderHandler = (
  request: ProviderRequest,
  index: number,
) => ProviderReply | undefined | Promise<ProviderReply | undefined>

/**
 * What FakeProvider answers when no handler does: its model (`toolModel`) on the model paths, a fixed embedding,
 * a model list, else a 404.
 */
function defaultReply(request: ProviderRequest, model: ReturnType<typeof toolModel>): ProviderReply {
  const answer = model(request)
  if (answer) return answer
  const body = request.body
  if (request.url.endsWith('/embeddings')) {
    return {
      json: {
        object: 'list',
        data: [{ object: 'embedding', index: 0, embedding: [0.1, 0.2] }],
        model: typeof body?.['model'] === 'string' ? body['model'] : 'unknown',
        usage: { prompt_tokens: 7, total_tokens: 7 },
      },
    }
  }
  if (request.url.endsWith('/models'))
    return { json: { object: 'list', data: [{ id: 'fake-model', object: 'model', created: 1, owned_by: 'fake' }] } }
  return { status: 404, json: { error: { message: 'no such path', type: 'not_found' } } }
}

/**
 * A model provider on 127.0.0.1: OpenAI chat completions, the Responses API and Anthropic messages, JSON and
 * streamed, answered by a tool-calling model scripted by `options` (test/helpers/tool-model.ts; with none it
 * answers `echo:` and the question reversed). Each request is answered by the first of:
 * 1. the next of the replies queued with `queueReplies` (model calls only);
 * 2. the `handler`, when it returns a reply (undefined leaves the request to the model): errors, held, slow or
 *    malformed answers, answers read from the request;
 * 3. the model, or for other paths an embedding, a model list or a 404.
 * Records every request, in order, and the most answered at once.
 */
export class FakeProvider {
  readonly requests: ProviderRequest[] = []
  /** Requests being answered now (read, their answer not yet written), and the most there were at once. */
  inFlight = 0
  maxInFlight = 0
  /** `http://127.0.0.1:PORT`. */
  url = ''
  handler: ProviderHandler | undefined
  private server: Server | undefined
  private readonly model: ReturnType<typeof toolModel>
  private readonly queued: ProviderReply[] = []

  constructor(options: ToolModelOptions = {}) {
    this.model = toolModel(options)
  }

  /** OpenAI-style base URL: `http://127.0.0.1:PORT/v1`. */
  get baseUrl(): string {
    return `${this.url}/v1`
  }

  /** The next model calls get these answers, one each, in order, before the handler is asked. */
  queueReplies(...replies: ProviderReply[]): this {
    this.queued.push(...replies)
    return this
  }

  async start(port = 0): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', async () => {
        const raw = Buffer.concat(chunks).toString('utf8')
        let body: Record<string, unknown> | null = null
        try {
          body = raw ? (JSON.parse(raw) as Record<string, unknown>) : null
        } catch {
          body = null
        }
        const request: ProviderRequest = {
          method: req.method ?? 'GET',
          url: req.url ?? '/',
          headers: req.headers,
          body,
          raw,
          receivedAt: performance.now(),
        }
        const index = this.requests.push(request) - 1
        this.inFlight++
        this.maxInFlight = Math.max(this.maxInFlight, this.inFlight)
        // Out of flight once its answer is written or dropped, or once the client closed the request.
        let settled = false
        const settle = () => {
          if (settled) return
          settled = true
          this.inFlight--
        }
        res.once('close', () => {
          if (!settled) request.closedEarly = true
          settle()
        })
        const queued = isModelCall(request) ? this.queued.shift() : undefined
        const reply = queued ?? (await this.handler?.(request, index)) ?? defaultReply(request, this.model)
        if (res.destroyed) return
        if (reply.dropConnection) {
          settle()
          res.socket?.destroy()
          return
        }
        if (reply.events) {
          res.writeHead(reply.status ?? 200, { 'content-type': 'text/event-stream', ...reply.headers })
          for (const event of reply.events) {
            res.write(event)
            await new Promise((r) => setImmediate(r))
          }
          res.end()
          settle()
          return
        }
        res.writeHead(reply.status ?? 200, {
          'content-type': reply.text !== undefined ? 'text/plain' : 'application/json',
          ...reply.headers,
        })
        res.end(reply.text ?? JSON.stringify(reply.json ?? {}))
        settle()
      })
    })
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', () => resolve()))
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
    return this
  }

  get port(): number {
    return Number(new URL(this.url).port)
  }

  async stop(): Promise<void> {
    const server = this.server
    this.server = undefined
    if (!server) return
    await new Promise<void>((resolve) => {
      server.close(() => resolve())
      server.closeAllConnections()
    })
  }
}

// ---- Scripted answers, for `queueReplies` and handlers (OpenAI chat completions; see also `chatCompletion`) ----

/** A 200 answer holding `{"fixes": [...]}`: a repair agent's. */
export function fixesReply(
  fixes: Array<{ row: number; column: string; new_value: string }>,
  options: ChatCompletionOptions = {},
): ProviderReply {
  return chatCompletion(JSON.stringify({ fixes }), options)
}

/** An error answer in OpenAI's error shape. */
export function errorReply(status: number, message: string, headers: Record<string, string> = {}): ProviderReply {
  return { status, headers, json: { error: { message, type: 'fake_error' } } }
}

/**
 * Answers held until the test releases them, one by one: in-flight limits and timeouts are tested with explicit
 * steps instead of real latency. `handler` goes to `FakeProvider.handler`; a held answer never released never comes.
 */
export function heldAnswers(reply: () => ProviderReply = () => fixesReply([])) {
  const held: Array<() => void> = []
  const waiters: Array<() => void> = []
  return {
    handler: (): Promise<ProviderReply> =>
      new Promise<ProviderReply>((resolve) => {
        held.push(() => resolve(reply()))
        for (const wake of waiters.splice(0)) wake()
      }),
    /** Resolves once at least `n` answers are held. */
    async whenHolding(n: number): Promise<void> {
      while (held.length < n) await new Promise<void>((wake) => waiters.push(wake))
    },
    releaseOne(): void {
      held.shift()?.()
    },
  }
}

/** The user messages of a chat-completions request, joined by newlines. */
export function userMessageOf(request: ProviderRequest): string {
  const messages = (request.body as { messages: Array<{ role: string; content: string }> }).messages
  return messages
    .filter((m) => m.role === 'user')
    .map((m) => m.content)
    .join('\n')
}
