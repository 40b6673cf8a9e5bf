import type { LlmCall } from '../core/llm.js'
import type { TranscriptCall } from '../core/transcript.js'
import type { AgentToolNote } from '../core/transcript-build.js'
import type { FailureKind, Usage } from '../core/schemas.js'
import type { BackoffOptions } from './backoff.js'
import type { CacheOptions } from './cache.js'
import type { Clock } from './clock.js'
import type { PriceMap } from './prices.js'

/** The wire protocol of one call, read from its path. */
export type Protocol = LlmCall['protocol']

/** Where the gateway sends a run's model calls, with the real key (which never leaves the gateway). */
export interface Upstream {
  /** The upstream's identity in cache keys, records and reports: a preset name, or the URL with a loopback port masked. */
  id: string
  /** In records and the reproducibility block: `groq https://api.groq.com/openai/v1`, or the masked URL. */
  label: string
  /** Shown in reports (`groq`, `anthropic`, `openai-compatible`). */
  provider: string
  /** Base URL including the version path (`https://api.groq.com/openai/v1`); the gateway's `/v1/…` maps onto it. */
  baseUrl: string
  /** The real key; null when the server needs none or a pure replay needs no key. */
  apiKey: string | null
  /** The variable the key came from, for messages (never the key itself). */
  keyEnv: string | null
  /** Requests a day on the free tier; one live call costs 1/quotaPerDay quota units (0 = not metered). */
  quotaPerDay: number
  limits: { concurrency: number; rpm: number }
  prices?: PriceMap
}

/** A per-trial limit the gateway enforces: the call that would pass it is refused and the trial fails as `budget_exceeded`. */
export interface Budget {
  tokens?: number
  usd?: number
  calls?: number
}

/** One model call, as the record keeps it (the core's `LlmCall`). */
export type CallTrace = LlmCall

export interface GatewayFailure {
  kind: FailureKind
  message: string
}

/** What the gateway saw of one trial. */
export interface TrialLedger {
  usage: Usage
  calls: CallTrace[]
  /** Each call's usage, parallel to `calls` (what one turn of a conversation spent). */
  callUsage: Usage[]
  /** The first call the gateway refused or could not answer; it fails the trial whatever the agent returned. */
  failure: GatewayFailure | null
  /** Each call in full (uncut), parallel to `calls`: the transcript's calls (gateway/transcript-capture.ts). */
  transcript: TranscriptCall[]
  /** The tools the agent ran itself (the data agent's SQL), as it noted them (`noteAgentTool`). */
  agentTools: AgentToolNote[]
  /** Names the trial in its transcript's id: case, trial and seed. */
  label: string
}

/**
 * How the gateway sends one trial's calls upstream, where it differs from the gateway's defaults: a built-in
 * agent's own timeout, retries and backoff, and in tests a clock, a jitter source and a log.
 */
export interface CallPolicy {
  /** Per call, until the answer's headers (default 120 s). */
  timeoutMs?: number
  /** Retries after HTTP 429 (default 5). */
  maxRetries?: number
  /** Retries after 5xx or a connection error (default 2). */
  maxServerRetries?: number
  /** A 429 asking for a longer wait fails at once (default 10 minutes). */
  maxRetryAfterMs?: number
  backoff?: Partial<BackoffOptions>
  clock?: Clock
  /** Jitter source in [0, 1). */
  random?: () => number
  /** One line per wait; default stderr. */
  log?: (line: string) => void
}

/** What a trial registers with the gateway. */
export interface TrialSpec {
  caseId: string
  trial: number
  seed: number
  upstream: Upstream
  cache: CacheOptions
  budget?: Budget
  policy?: CallPolicy
}
