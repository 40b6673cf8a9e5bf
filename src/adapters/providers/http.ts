import { Agent, fetch as undiciFetch } from 'undici'

/** What the openai SDK calls to send a request. */
export type SdkFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>

/**
 * An undici connection pool per client: keep-alive, at most `connections` sockets to the provider,
 * and connect/header/body timeouts as a backstop behind the per-call abort timer.
 */
export function createHttp(opts: { connections?: number; timeoutMs: number }): { fetch: SdkFetch; close(): Promise<void> } {
  const dispatcher = new Agent({
    connections: opts.connections && Number.isFinite(opts.connections) ? opts.connections : null,
    keepAliveTimeout: 4_000,
    keepAliveMaxTimeout: 30_000,
    connect: { timeout: Math.min(opts.timeoutMs, 30_000) },
    headersTimeout: opts.timeoutMs + 5_000,
    bodyTimeout: opts.timeoutMs + 5_000,
  })
  const fetch = ((input: string | URL | Request, init?: RequestInit) =>
    undiciFetch(input as Parameters<typeof undiciFetch>[0], {
      ...(init as Parameters<typeof undiciFetch>[1]),
      dispatcher,
    })) as unknown as SdkFetch
  return { fetch, close: () => dispatcher.close() }
}
