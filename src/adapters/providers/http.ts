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
  const fetch = ((input: string | URL | Request, init?: RequestInit) =>
    undiciFetch(input as Parameters<Undici['fetch']>[0], {
      ...(init as Parameters<Undici['fetch']>[1]),
      dispatcher,
    })) as unknown as SdkFetch
  return { fetch, close: () => dispatcher.close() }
}
