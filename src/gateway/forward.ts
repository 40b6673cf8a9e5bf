import { createRequire } from 'node:module'
import { formatSeconds, secondsPhrase } from '../stats/number-format.js'
import { type BackoffOptions, backoffDelayMs, DEFAULT_BACKOFF, serverRetryDelayMs } from './backoff.js'
import type { Clock } from './clock.js'
import { sharedRateLimiter } from './rate-limiter.js'
import { GatewayError } from './errors.js'
import { redactSecrets } from './redact.js'
import type { ParsedCall } from './protocol.js'
import type { Upstream } from './types.js'

export interface ForwardOptions {
  clock: Clock
  random: () => number
  log: (line: string) => void
  /** Per call, until the answer's headers; default 120 s. */
  timeoutMs: number
  /** Retries after HTTP 429 (default 5); a Retry-After longer than `maxRetryAfterMs` fails at once. */
  maxRetries: number
  /** Retries after 5xx or a connection error (default 2). */
  maxServerRetries: number
  maxRetryAfterMs: number
  backoff: BackoffOptions
}

export const DEFAULT_FORWARD: Omit<ForwardOptions, 'clock' | 'random' | 'log'> = {
  timeoutMs: 120_000,
  maxRetries: 5,
  maxServerRetries: 2,
  maxRetryAfterMs: 600_000,
  backoff: DEFAULT_BACKOFF,
}

/** Request headers the agent chooses and the gateway passes on; authorization and everything else stay behind. */
const PASSED_ON = ['accept', 'anthropic-version', 'anthropic-beta', 'openai-beta'] as const

/** What the gateway sends upstream (besides the key), and the part of it the cache key must cover. */
interface OutgoingHeaders {
  /** Every header sent upstream except the key's. */
  sent: Record<string, string>
  /**
   * The sent headers that differ from what the gateway sends anyway for this call (`accept: application/json`,
   * Anthropic's default `anthropic-version`): with the call's upstream, method, path and body they fix every
   * header sent, so a recording answers only requests that were sent the same way.
   */
  keyed: Record<string, string>
}

const DEFAULT_ANTHROPIC_VERSION = '2023-06-01'

/**
 * The headers of one call as forwarded: `content-type: application/json` when it has a body (the gateway sends
 * the body it parsed as JSON), `accept` (default `application/json`, also in place of `accept` anything), and the protocol headers the
 * agent sent;
 * Anthropic calls get a default `anthropic-version`. The key's header is added by `forwardCall`.
 */
export function outgoingHeaders(
  upstream: Upstream,
  call: ParsedCall,
  incoming: Record<string, string | string[] | undefined>,
): OutgoingHeaders {
  const defaults: Record<string, string> = { accept: 'application/json' }
  if (call.protocol === 'anthropic-messages' || upstream.provider === 'anthropic')
    defaults['anthropic-version'] = DEFAULT_ANTHROPIC_VERSION
  const sent: Record<string, string> = call.body ? { 'content-type': 'application/json' } : {}
  const keyed: Record<string, string> = {}
  for (const name of PASSED_ON) {
    const raw = incoming[name]
    let value = typeof raw === 'string' ? raw.trim() : defaults[name]
    // What fetch and most clients send when they name nothing: sent as the default, so their keys agree.
    if (name === 'accept' && value === '*/*') value = defaults[name]
    if (value === undefined) continue
    sent[name] = value
    if (value !== defaults[name]) keyed[name] = value
  }
  return { sent, keyed }
}

/** The upstream's answer as the gateway reads it. */
export interface UpstreamAnswer {
  status: number
  ok: boolean
  header(name: string): string | null
  /** The whole body as text. */
  text(): Promise<string>
  /** The body piece by piece, as it arrives (streams). */
  chunks(): AsyncIterable<Uint8Array>
  /** Drops the body unread. */
  discard(): Promise<void>
}

/** A live answer with its limiter slot: the slot is held until the caller has read the body (`release`). */
interface Forwarded {
  response: UpstreamAnswer
  release: () => void
}

type Undici = typeof import('undici')
const requireUndici = createRequire(import.meta.url)
let undici: Undici | undefined
const dispatchers = new Map<string, InstanceType<Undici['Agent']>>()

/** One keep-alive pool per upstream origin (undici's `request`: a fraction of `fetch`'s cost per call). */
function dispatcherFor(origin: string, timeoutMs: number): InstanceType<Undici['Agent']> {
  undici ??= requireUndici('undici') as Undici
  let agent = dispatchers.get(origin)
  if (!agent) {
    agent = new undici.Agent({
      keepAliveTimeout: 4_000,
      keepAliveMaxTimeout: 30_000,
      connect: { timeout: Math.min(timeoutMs, 30_000) },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    })
    dispatchers.set(origin, agent)
  }
  return agent
}

async function send(
  target: string,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<UpstreamAnswer> {
  const url = new URL(target)
  const dispatcher = dispatcherFor(url.origin, timeoutMs)
  const answer = await undici!.request(url, { method: method as 'POST', headers, body, signal, dispatcher })
  const header = (name: string): string | null => {
    const value = answer.headers[name]
    return Array.isArray(value) ? (value[0] ?? null) : (value ?? null)
  }
  return {
    status: answer.statusCode,
    ok: answer.statusCode >= 200 && answer.statusCode < 300,
    header,
    text: () => answer.body.text(),
    chunks: () => answer.body as AsyncIterable<Uint8Array>,
    discard: () => answer.body.dump().then(() => undefined),
  }
}

/**
 * Sends one call upstream with the real key, under the upstream's rate limiter: 429 waits for Retry-After (or
 * backs off), 5xx and connection errors retry a few times, each wait logged, never another provider. Throws a
 * GatewayError the agent gets when the upstream stays unavailable.
 */
export async function forwardCall(
  upstream: Upstream,
  call: ParsedCall,
  headers: Record<string, string>,
  signal: AbortSignal,
  opts: ForwardOptions,
  label: string,
): Promise<Forwarded> {
  const limiter = sharedRateLimiter(upstream.baseUrl, {
    concurrency: upstream.limits.concurrency,
    rpm: upstream.limits.rpm,
    clock: opts.clock,
  })
  const target = upstream.baseUrl + call.path
  const out: Record<string, string> = { ...headers }
  if (upstream.apiKey) {
    if (call.protocol === 'anthropic-messages' || upstream.provider === 'anthropic') out['x-api-key'] = upstream.apiKey
    else out['authorization'] = `Bearer ${upstream.apiKey}`
  }
  const body = call.body ? JSON.stringify(call.body) : undefined
  let rateRetries = 0
  let serverRetries = 0
  for (;;) {
    let release: () => void
    try {
      release = await limiter.acquire(signal)
    } catch {
      throw new GatewayError(499, 'aborted', `${label}: the agent closed the connection`, null)
    }
    const timer = AbortSignal.timeout(opts.timeoutMs)
    let response: UpstreamAnswer | undefined
    let failure: string | undefined
    try {
      response = await send(target, call.method, out, body, AbortSignal.any([signal, timer]), opts.timeoutMs)
    } catch (error) {
      release()
      if (signal.aborted) throw new GatewayError(499, 'aborted', `${label}: the agent closed the connection`, null)
      if (timer.aborted) {
        throw new GatewayError(
          504,
          'upstream_timeout',
          `${label}: ${upstream.id} sent no answer within ${secondsPhrase(opts.timeoutMs / 1000)}`,
          'timeout',
        )
      }
      const cause =
        error instanceof Error && error.cause instanceof Error
          ? error.cause.message
          : error instanceof Error
            ? error.message
            : String(error)
      failure = `cannot reach ${upstream.id} (${redactUrl(cause, upstream)})`
    }
    if (response && response.status === 429) {
      const asked = serverRetryDelayMs({ get: response.header })
      await response.discard().catch(() => undefined)
      release()
      if (asked !== undefined && asked > opts.maxRetryAfterMs) {
        throw new GatewayError(
          429,
          'rate_limited',
          `${label}: HTTP 429: ${upstream.id} asks to wait ${secondsPhrase(asked / 1000)}, over the ${formatSeconds(opts.maxRetryAfterMs / 1000)}-second limit`,
          'rate_limited',
        )
      }
      if (rateRetries >= opts.maxRetries) {
        throw new GatewayError(
          429,
          'rate_limited',
          `${label}: HTTP 429: ${upstream.id} still rate limited after ${opts.maxRetries} retries`,
          'rate_limited',
        )
      }
      const wait = asked ?? backoffDelayMs(rateRetries, opts.random, opts.backoff)
      rateRetries++
      opts.log(
        `gateway: HTTP 429 from ${upstream.id} for ${label}; waiting ${secondsPhrase(wait / 1000)} for quota reset (retry ${rateRetries} of ${opts.maxRetries})`,
      )
      await pause(opts.clock, wait, signal, label)
      continue
    }
    if (response && response.status < 500) return { response, release: release! }
    if (response) {
      failure = `HTTP ${response.status} from ${upstream.id}`
      await response.discard().catch(() => undefined)
      release!()
    }
    if (serverRetries >= opts.maxServerRetries) {
      throw new GatewayError(
        502,
        'upstream_unavailable',
        `${label}: ${failure} after ${opts.maxServerRetries} retries`,
        'provider_error',
      )
    }
    const asked = response ? serverRetryDelayMs({ get: response.header }) : undefined
    const wait = Math.min(asked ?? backoffDelayMs(serverRetries, opts.random, opts.backoff), opts.backoff.capMs)
    serverRetries++
    opts.log(
      `gateway: ${failure} for ${label}; retrying in ${secondsPhrase(wait / 1000)} (retry ${serverRetries} of ${opts.maxServerRetries})`,
    )
    await pause(opts.clock, wait, signal, label)
  }
}

async function pause(clock: Clock, ms: number, signal: AbortSignal, label: string): Promise<void> {
  try {
    await clock.sleep(ms, signal)
  } catch {
    throw new GatewayError(499, 'aborted', `${label}: the agent closed the connection`, null)
  }
}

function redactUrl(text: string, upstream: Upstream): string {
  return upstream.apiKey ? redactSecrets(text, [upstream.apiKey]) : text
}
