import { createRequire } from 'node:module'

type Undici = typeof import('undici')
// undici loads when the first client is made, not when the package root is imported.
const requireUndici = createRequire(import.meta.url)

/** What the openai SDK calls to send a request. */
export type SdkFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>

/**
 * An undici connection pool per client: keep-alive, at most `connections` sockets to the provider,
 * and connect/header/body timeouts as a backstop behind the per-call abort timer.
 */
export function createHttp(opts: { connections?: number; timeoutMs: number }): { fetch: SdkFetch; close(): Promise<void> } {
  const { Agent, fetch: undiciFetch } = requireUndici('undici') as Undici
  const dispatcher = new Agent({
    connections: opts.connections && Number.isFinite(opts.connections) ? opts.connections : null,
    keepAliveTimeout: 4_000,
    keepAliveMaxTimeout: 30_000,
    connect: { timeout: Math.min(opts.timeoutMs, 30_000) },
    headersTimeout: opts.timeoutMs + 5_000,
    bodyTimeout: opts.timeoutMs + 5_000,
  })
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const response = await undiciFetch(input as Parameters<Undici['fetch']>[0], {
      ...(init as Parameters<Undici['fetch']>[1]),
      dispatcher,
    })
    return checkedAnswer(response as unknown as Response)
  }) as SdkFetch
  return { fetch, close: () => dispatcher.close() }
}

/** A successful HTTP answer whose body is not JSON. Its message says what was wrong, never what was said. */
export class UnreadableAnswer extends Error {
  override name = 'UnreadableAnswer'
}

/** Set on every answer handed to the SDK: its size and content type, for error messages that must not quote it. */
export const ANSWER_FACTS_HEADER = 'x-dataforge-answer'

const NO_BODY = new Set([101, 204, 205, 304])

/**
 * Reads the body once: a 2xx answer that is not JSON becomes an UnreadableAnswer (the SDK would otherwise put
 * the start of the body into a parse error, and a misbehaving server may echo the API key there); every
 * answer carries its size and content type in ANSWER_FACTS_HEADER.
 */
async function checkedAnswer(response: Response): Promise<Response> {
  const bytes = new Uint8Array(await response.arrayBuffer())
  const contentType = response.headers.get('content-type')?.split(';')[0]?.trim() || 'none'
  const facts = `${bytes.byteLength} bytes, content type ${safeToken(contentType)}`
  if (response.ok && !NO_BODY.has(response.status) && !isJson(bytes)) {
    throw new UnreadableAnswer(`the answer is not JSON (HTTP ${response.status}, ${facts})`)
  }
  const headers = new Headers(response.headers)
  headers.delete('content-encoding')
  headers.delete('content-length')
  headers.set(ANSWER_FACTS_HEADER, facts)
  return new Response(NO_BODY.has(response.status) ? null : bytes, { status: response.status, statusText: response.statusText, headers })
}

function isJson(bytes: Uint8Array): boolean {
  try {
    JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes))
    return true
  } catch {
    return false
  }
}

/** A header value fit for a message: a short token, else a placeholder. */
export function safeToken(value: string): string {
  return /^[\w.+/-]{1,64}$/.test(value) ? value : 'unprintable'
}
