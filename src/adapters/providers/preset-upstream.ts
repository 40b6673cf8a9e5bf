import { DEFAULT_CACHE_DIR } from '../../gateway/cache.js'
import type { LlmConfig } from '../../gateway/trial-llm.js'
import type { CallPolicy } from '../../gateway/types.js'
import { LLM_PRESETS } from '../../gateway/presets.js'
import { noteKeyVariable, upstreamIdentity } from '../../gateway/upstream.js'
import type { ChatClientConfig } from './chat-config.js'

const POLICY_FIELDS = [
  'timeoutMs',
  'maxRetries',
  'maxServerRetries',
  'maxRetryAfterMs',
  'backoff',
  'clock',
  'random',
  'log',
] as const

/**
 * A built-in agent's configuration as a gateway upstream. A preset on its own base URL has the `--llm` preset's
 * identity (`groq`), so both share cassettes' upstream field and the record's label; any other URL is its identity,
 * a loopback port masked.
 */
export function presetLlmConfig(config: ChatClientConfig): LlmConfig {
  const baseUrl = config.baseUrl.replace(/\/+$/, '')
  const named = LLM_PRESETS[config.provider]
  const id = named && named.baseUrl === baseUrl ? config.provider : upstreamIdentity(baseUrl)
  if (config.keyEnv) noteKeyVariable(config.keyEnv)
  const policy: CallPolicy = {}
  for (const field of POLICY_FIELDS) if (config[field] !== undefined) Object.assign(policy, { [field]: config[field] })
  return {
    upstream: {
      id,
      label: id === config.provider ? `${id} ${upstreamIdentity(baseUrl)}` : id,
      provider: config.provider,
      baseUrl,
      apiKey: config.apiKey || null,
      keyEnv: config.keyEnv ?? null,
      quotaPerDay: config.quotaPerDay,
      limits: { concurrency: config.concurrency ?? 0, rpm: config.rpm ?? 0 },
      ...(config.prices ? { prices: config.prices } : {}),
    },
    cache: config.cache ?? { mode: 'off', dir: DEFAULT_CACHE_DIR },
    policy,
  }
}
