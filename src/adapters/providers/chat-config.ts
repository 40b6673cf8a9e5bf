import type { BackoffOptions } from '../../gateway/backoff.js'
import type { CacheOptions } from '../../gateway/cache.js'
import type { Clock } from '../../gateway/clock.js'
import type { PriceMap } from '../../gateway/prices.js'

/** Everything a client needs, resolved: no presets, no environment lookups. */
export interface ChatClientConfig {
  /** Agent name used in messages and log lines (`groq-llama-70b`). */
  agent: string
  provider: string
  baseUrl: string
  model: string
  /** The real key, which only the gateway sends; empty when the server needs none or a pure replay needs none. */
  apiKey: string
  /** The variable the key came from (kept out of agent processes, named in messages). */
  keyEnv?: string | null
  /** Requests a day on the free tier; 0 = not metered. */
  quotaPerDay: number
  prices?: PriceMap
  cache?: CacheOptions
  /** Per call, until the answer's headers; past it the call fails as `timeout`. Default 120 s. */
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
