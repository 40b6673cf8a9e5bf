import { InputError } from '../../core/errors.js'
import { createChatClient } from '../providers/create-chat-client.js'
import { PROVIDER_PRESETS, presetNames } from '../../gateway/presets.js'
import type { ProviderAgentOptions } from '../providers/resolve-provider.js'
import { createDataAgent, type ToolDataAgentOptions, type ToolDataAgent } from './agent.js'

export interface DataAgentCliOptions extends ProviderAgentOptions {
  /** A provider preset (`openrouter`, `groq-llama-70b`) or provider name (`groq`, `gemini`); with only `baseUrl`, `openai-compatible`. */
  provider?: string
  maxSteps?: number
  /** Default `maxTokens`, else 1024. */
  maxTokensPerStep?: number
  /** Per question (`timeoutMs` stays the per-call limit of the provider client). */
  questionTimeoutMs?: number
  maxRows?: number
  name?: string
}

/**
 * `--agent data-agent --model M [--provider P | --base-url URL]`: the same provider flags, keys, cache and
 * limits as the repair agents. Everything is checked now (unknown provider, missing model or key), before any call.
 */
export function dataAgentFromCli(opts: DataAgentCliOptions): ToolDataAgent {
  const preset = presetOf(opts.provider, opts.baseUrl)
  const client = createChatClient(preset, opts)
  const agent: ToolDataAgentOptions = { client, name: opts.name ?? 'data-agent' }
  if (opts.maxSteps !== undefined) agent.maxSteps = opts.maxSteps
  const maxTokens = opts.maxTokensPerStep ?? opts.maxTokens
  if (maxTokens !== undefined) agent.maxTokensPerStep = maxTokens
  if (opts.questionTimeoutMs !== undefined) agent.timeoutMs = opts.questionTimeoutMs
  if (opts.maxRows !== undefined) agent.maxRows = opts.maxRows
  if (opts.temperature !== undefined) agent.temperature = opts.temperature
  return createDataAgent(agent)
}

function presetOf(provider: string | undefined, baseUrl: string | undefined): string {
  if (provider === undefined) {
    if (baseUrl !== undefined) return 'openai-compatible'
    throw new InputError(`agent data-agent needs --provider (one of ${presetNames().join(', ')}) or --base-url`)
  }
  if (provider in PROVIDER_PRESETS) return provider
  const byProvider = Object.values(PROVIDER_PRESETS).find((p) => p.provider === provider)
  if (byProvider) return byProvider.id
  throw new InputError(`--provider: unknown provider "${provider}"; use one of ${presetNames().join(', ')}`)
}
