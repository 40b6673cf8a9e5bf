import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

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

/** `echo:` and the text reversed: an answer that shows what the model was sent. */
export const echoText = (text: string): string => `echo:${text.split('').reverse().join('')}`

/** The text a fake answer carries: the last user message, reversed, so each request has its own answer. */
export function answerText(body: Record<string, unknown> | null): string {
  const messages = (body?.['messages'] ?? []) as Array<{ content?: unknown }>
  const last = messages[messages.length - 1]?.content
  return echoText(typeof last === 'string' ? last : JSON.stringify(last ?? ''))
}

const sse = (data: unknown, event?: string) =>
  `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`

/** OpenAI chat completions and Anthropic messages, JSON and SSE, with usage: what a real provider answers. */
export function defaultReply(request: ProviderRequest): ProviderReply {
  const body = request.body
  const text = answerText(body)
  const model = typeof body?.['model'] === 'string' ? body['model'] : 'unknown'
  const prompt = JSON.stringify(body?.['messages'] ?? '').length
  const completion = text.length
  if (request.url.endsWith('/chat/completions')) {
    if (body?.['stream'] === true) {
      const includeUsage = (body['stream_options'] as { include_usage?: boolean } | undefined)?.include_usage === true
      const base = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model }
      const half = Math.ceil(text.length / 2)
      return {
        events: [
          sse({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] }),
          sse({ ...base, choices: [{ index: 0, delta: { content: text.slice(0, half) }, finish_reason: null }] }),
          sse({ ...base, choices: [{ index: 0, delta: { content: text.slice(half) }, finish_reason: null }] }),
          sse({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }),
          ...(includeUsage
            ? [
                sse({
                  ...base,
                  choices: [],
                  usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
                }),
              ]
            : []),
          sse('[DONE]'),
        ],
      }
    }
    return {
      json: {
        id: 'chatcmpl-1',
        object: 'chat.completion',
        created: 1,
        model,
        choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
        usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
      },
    }
  }
  if (request.url.endsWith('/messages')) {
    if (body?.['stream'] === true) {
      const half = Math.ceil(text.length / 2)
      return {
        events: [
          sse(
            {
              type: 'message_start',
              message: {
                id: 'msg_1',
                type: 'message',
                role: 'assistant',
                model,
                content: [],
                stop_reason: null,
                stop_sequence: null,
                usage: { input_tokens: prompt, output_tokens: 1 },
              },
            },
            'message_start',
          ),
          sse(
            { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
            'content_block_start',
          ),
          sse(
            { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: text.slice(0, half) } },
            'content_block_delta',
          ),
          sse(
            { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: text.slice(half) } },
            'content_block_delta',
          ),
          sse({ type: 'content_block_stop', index: 0 }, 'content_block_stop'),
          sse(
            {
              type: 'message_delta',
              delta: { stop_reason: 'end_turn', stop_sequence: null },
              usage: { output_tokens: completion },
            },
            'message_delta',
          ),
          sse({ type: 'message_stop' }, 'message_stop'),
        ],
      }
    }
    return {
      json: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model,
        content: [{ type: 'text', text }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: prompt, output_tokens: completion },
      },
    }
  }
  if (request.url.endsWith('/embeddings')) {
    return {
      json: {
        object: 'list',
        data: [{ object: 'embedding', index: 0, embedding: [0.1, 0.2] }],
        model,
        usage: { prompt_tokens: 7, total_tokens: 7 },
      },
    }
  }
  if (request.url.endsWith('/models'))
    return { json: { object: 'list', data: [{ id: 'fake-model', object: 'model', created: 1, owned_by: 'fake' }] } }
  return { status: 404, json: { error: { message: 'no such path', type: 'not_found' } } }
}

/** A provider on 127.0.0.1 speaking both protocols; a handler may script answers (return undefined for the default). */
export class FakeProvider {
  readonly requests: ProviderRequest[] = []
  /** Requests being answered now, and the most there were at once. */
  inFlight = 0
  maxInFlight = 0
  url = ''
  handler: ProviderHandler | undefined
  private server: Server | undefined

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
        const reply = (await this.handler?.(request, index)) ?? defaultReply(request)
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
