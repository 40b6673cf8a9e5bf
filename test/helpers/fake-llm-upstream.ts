import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type ToolModelOptions, toolModel } from './tool-model.js'

export interface ProviderRequest {
  method: string
  url: string
  headers: IncomingHttpHeaders
  body: Record<string, unknown> | null
  /** The gateway closed the request before the answer was complete (it cancelled the call). */
  closedEarly?: boolean
}

export interface ProviderReply {
  status?: number
  headers?: Record<string, string>
  json?: unknown
  /** SSE events, each sent as its own write. */
  events?: string[]
  text?: string
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
 * answers `echo:` and the question reversed). A handler may take over any request (return undefined to leave it
 * to the model): errors, slow or malformed answers.
 */
export class FakeProvider {
  readonly requests: ProviderRequest[] = []
  /** Requests being answered now, and the most there were at once. */
  inFlight = 0
  maxInFlight = 0
  url = ''
  handler: ProviderHandler | undefined
  private server: Server | undefined
  private readonly model: ReturnType<typeof toolModel>

  constructor(options: ToolModelOptions = {}) {
    this.model = toolModel(options)
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
        }
        const index = this.requests.push(request) - 1
        this.inFlight++
        this.maxInFlight = Math.max(this.maxInFlight, this.inFlight)
        res.once('close', () => {
          this.inFlight--
          if (!res.writableFinished) request.closedEarly = true
        })
        const reply = (await this.handler?.(request, index)) ?? defaultReply(request, this.model)
        if (res.destroyed) return
        if (reply.events) {
          res.writeHead(reply.status ?? 200, { 'content-type': 'text/event-stream', ...reply.headers })
          for (const event of reply.events) {
            res.write(event)
            await new Promise((r) => setImmediate(r))
          }
          res.end()
          return
        }
        res.writeHead(reply.status ?? 200, {
          'content-type': reply.text !== undefined ? 'text/plain' : 'application/json',
          ...reply.headers,
        })
        res.end(reply.text ?? JSON.stringify(reply.json ?? {}))
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
