import { InputError } from '../../core/errors.js'
import { resolveCacheOptions } from '../../gateway/cache.js'
import type { BackoffOptions } from '../../gateway/backoff.js'
import type { CacheOptions } from '../../gateway/cache.js'
import type { ChatClientConfig } from './chat-config.js'
import type { Clock } from '../../gateway/clock.js'
import { loadEnvironment, requireApiKey } from '../../gateway/env-file.js'
import { PROVIDER_PRESETS, presetNames } from '../../gateway/presets.js'
import { type PriceMap, resolvePrices } from '../../gateway/prices.js'
import { checkUpstreamUrl } from '../../gateway/upstream.js'

/** Options of a provider agent; the CLI flags `--model --base-url --api-key-env --cache --cache-dir --prices` map 1:1. */
export interface ProviderAgentOptions {
  model?: string
  baseUrl?: string
  /** Variable holding the key, instead of the preset's (`--api-key-env`). */
  apiKeyEnv?: string
  /** Default `process.env`; wins over the `.env` file. */
  env?: Record<string, string | undefined>
  /** Default `.env` in `cwd`, read if present. */
  envFile?: string
  cwd?: string
  cache?: CacheOptions
  /** A price-map file or the map itself (USD per token). */
  prices?: string | PriceMap
  timeoutMs?: number
  /** Retries after HTTP 429 (default 5). */
  maxRetries?: number
  /** Retries after 5xx or connection errors (default 2). */
  maxServerRetries?: number
  /** A 429 asking for a longer wait fails at once (default 10 minutes). */
  maxRetryAfterMs?: number
  concurrency?: number
  rpm?: number
  chunkTokenBudget?: number
  log?: (line: string) => void
  /** Named in cache-miss errors; default the task name. */
  caseId?: string
  temperature?: number
  maxTokens?: number
  jsonMode?: boolean
  backoff?: Partial<BackoffOptions>
  clock?: Clock
  random?: () => number
}

/**
 * Preset + options + environment → a client configuration. Everything is checked here, before any call:
 * unknown agent, missing `--base-url`/`--model`, a bad URL, a missing key (named by its variable).
 */
export function resolveProviderConfig(name: string, opts: ProviderAgentOptions = {}): ChatClientConfig {
  const preset = PROVIDER_PRESETS[name]
  if (!preset) throw new InputError(`unknown provider agent "${name}": use one of ${presetNames().join(', ')}`)
  const baseUrl = opts.baseUrl ?? preset.baseUrl
  if (!baseUrl) throw new InputError(`agent ${name} needs --base-url (the server's OpenAI-compatible base URL)`)
  checkUpstreamUrl(baseUrl, '--base-url', '--api-key-env')
  const model = opts.model ?? preset.defaultModel
  if (!model) throw new InputError(`agent ${name} needs --model (the model id to call)`)
  const env = loadEnvironment({ env: opts.env, envFile: opts.envFile, cwd: opts.cwd })
  const keyVariable = opts.apiKeyEnv ?? preset.keyEnv
  // Without an explicit choice, DATAFORGE_CACHE / DATAFORGE_CACHE_DIR decide (so `DATAFORGE_CACHE=replay vitest run`
  // replays in eval files that name a provider agent), relative to the working folder.
  const cache = opts.cache ?? resolveCacheOptions(env, {}, opts.cwd ?? process.cwd())
  // Ollama needs no key. Pure replay makes no call, so CI needs no key.
  const replayOnly = cache.mode === 'replay' && Boolean(keyVariable) && !env[keyVariable as string]?.trim()
  const apiKey = keyVariable && !replayOnly ? requireApiKey(name, keyVariable, env) : ''
  for (const field of ['timeoutMs', 'concurrency', 'rpm', 'chunkTokenBudget', 'maxRetryAfterMs'] as const) {
    const value = opts[field]
    if (value !== undefined && !(Number.isFinite(value) && value >= 0)) {
      throw new InputError(`${field}: expected a non-negative number, got ${value}`)
    }
  }
  for (const field of ['maxRetries', 'maxServerRetries'] as const) {
    const value = opts[field]
    if (value !== undefined && !(Number.isInteger(value) && value >= 0)) {
      throw new InputError(`${field}: expected a non-negative integer, got ${value}`)
    }
  }
  const config: ChatClientConfig = {
    agent: name,
    provider: preset.provider,
    baseUrl,
    model,
    apiKey,
    keyEnv: keyVariable ?? null,
    quotaPerDay: preset.quotaPerDay,
    concurrency: opts.concurrency ?? preset.limits.concurrency,
    rpm: opts.rpm ?? preset.limits.rpm,
  }
  const prices = resolvePrices(opts.prices)
  if (prices) config.prices = prices
  config.cache = cache
  if (opts.timeoutMs !== undefined) config.timeoutMs = opts.timeoutMs
  if (opts.maxRetries !== undefined) config.maxRetries = opts.maxRetries
  if (opts.maxServerRetries !== undefined) config.maxServerRetries = opts.maxServerRetries
  if (opts.maxRetryAfterMs !== undefined) config.maxRetryAfterMs = opts.maxRetryAfterMs
  if (opts.backoff) config.backoff = opts.backoff
  if (opts.log) config.log = opts.log
  if (opts.clock) config.clock = opts.clock
  if (opts.random) config.random = opts.random
  return config
}
