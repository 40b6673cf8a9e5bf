import { InputError } from '../core/errors.js'
import { loadEnvironment } from './env-file.js'
import { DEFAULT_URL_KEY_ENV, LLM_PRESETS, type LlmPreset } from './presets.js'
import type { PriceMap } from './prices.js'
import type { Budget, Upstream } from './types.js'

/**
 * `llm:` as an option, a flag (`--llm`) or `DATAFORGE_LLM`: a preset name or a base URL, or an object naming one
 * (with the variable holding a URL's key, and a per-trial budget).
 */
export type LlmOption = string | { preset?: string; baseUrl?: string; keyEnv?: string; budget?: Budget }

/** Every variable an upstream of this process took its key from: kept out of agent processes' environments. */
const keyVariables = new Set<string>()
export function keyVariablesInUse(): ReadonlySet<string> {
  return keyVariables
}

/** Notes a variable a built-in agent took its key from (`--api-key-env`), so agent processes never inherit it. */
export function noteKeyVariable(name: string): void {
  keyVariables.add(name)
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i

/**
 * The identity of a base URL in cache keys and reports: scheme, host and path, with the port masked (`*`) when the
 * host is loopback, so a cassette recorded against a local server on a random port replays against any other.
 */
export function upstreamIdentity(baseUrl: string): string {
  const url = new URL(baseUrl)
  const port = url.port && LOOPBACK.test(url.hostname) ? ':*' : url.port ? `:${url.port}` : ''
  return `${url.protocol}//${url.hostname}${port}${url.pathname.replace(/\/+$/, '')}`
}

interface ResolveUpstreamOptions {
  /** Default `process.env`; wins over the `.env` file in `cwd`. */
  env?: Record<string, string | undefined>
  cwd?: string
  /** `replay` needs no key: nothing is sent upstream. */
  replayOnly?: boolean
  prices?: PriceMap
  /** Where the option came from, for messages (`--llm`, `llm option`, `DATAFORGE_LLM`). */
  source?: string
  /** The variable holding a URL upstream's key (`--llm-key-env`), unless the option names one. */
  keyEnv?: string
}

/**
 * `--llm` / `llm:` / `DATAFORGE_LLM` → the upstream, checked before any call: an unknown preset, a bad URL, a
 * credential inside the URL or a missing key (named by its variable) is an InputError.
 */
export function resolveUpstream(option: LlmOption, opts: ResolveUpstreamOptions = {}): Upstream {
  const source = opts.source ?? 'llm'
  const env = loadEnvironment({ env: opts.env, cwd: opts.cwd })
  if (
    typeof option === 'object' &&
    (option === null || (option.preset === undefined) === (option.baseUrl === undefined))
  ) {
    throw new InputError(`${source}: give either a preset name or a baseUrl`)
  }
  const presetName = typeof option === 'string' ? (isUrl(option) ? null : option) : (option.preset ?? null)
  let preset: LlmPreset
  let id: string
  if (presetName !== null) {
    const found = LLM_PRESETS[presetName]
    if (!found)
      throw new InputError(
        `${source}: "${presetName}" is neither a preset (${Object.keys(LLM_PRESETS).join(', ')}) nor an http(s) URL`,
      )
    preset = found
    id = presetName
  } else {
    const baseUrl = typeof option === 'string' ? option : option.baseUrl!
    checkUpstreamUrl(baseUrl, source, '--llm-key-env')
    const keyEnv =
      typeof option === 'object' && option.keyEnv
        ? option.keyEnv
        : (opts.keyEnv ?? env['DATAFORGE_LLM_KEY_ENV'] ?? DEFAULT_URL_KEY_ENV)
    preset = {
      provider: 'openai-compatible',
      baseUrl: baseUrl.replace(/\/+$/, ''),
      keyEnv,
      quotaPerDay: 0,
      limits: { concurrency: 8, rpm: 0 },
    }
    id = upstreamIdentity(baseUrl)
  }
  if (preset.keyEnv) keyVariables.add(preset.keyEnv)
  const key = preset.keyEnv ? env[preset.keyEnv]?.trim() : undefined
  if (preset.keyEnv && !key && !opts.replayOnly && presetName !== null) {
    throw new InputError(
      `${source}: upstream ${id} needs an API key: set ${preset.keyEnv} in the environment or in a .env file`,
    )
  }
  return {
    id,
    label: presetName !== null ? `${presetName} ${upstreamIdentity(preset.baseUrl)}` : id,
    provider: preset.provider,
    baseUrl: preset.baseUrl,
    apiKey: key || null,
    keyEnv: preset.keyEnv,
    quotaPerDay: preset.quotaPerDay,
    limits: preset.limits,
    ...(opts.prices ? { prices: opts.prices } : {}),
  }
}

function isUrl(text: string): boolean {
  return /^https?:\/\//i.test(text)
}

/**
 * A base URL an upstream may have: http or https, with no credential in it (user info, or a `key`, `api_key`,
 * `apikey` or `token` query parameter); the error names `keyFlag`, where the key belongs. The URL itself is never
 * echoed, since it may hold the key.
 */
export function checkUpstreamUrl(baseUrl: string, source: string, keyFlag: string): void {
  let url: URL
  try {
    url = new URL(baseUrl)
  } catch {
    throw new InputError(`${source}: not a valid URL`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new InputError(`${source}: expected an http or https URL`)
  if (url.username || url.password || /(^|[?&])(key|api_key|apikey|token)=/i.test(url.search)) {
    throw new InputError(
      `${source}: credentials do not belong in the URL; put the key in an environment variable (${keyFlag})`,
    )
  }
}
