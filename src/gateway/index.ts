/** The model gateway: every agent's model calls, with rate limits, the replay cache, usage, prices and budgets. */
export { startGateway, type Gateway, type GatewayOptions, type GatewayTrial } from './gateway.js'
export { closeSharedGateway } from './shared.js'
export { resolveUpstream, upstreamIdentity, type LlmOption, noteKeyVariable, checkUpstreamUrl } from './upstream.js'
export { LLM_PRESETS, PROVIDER_PRESETS, presetNames } from './presets.js'
export { cassetteKey } from './cassette.js'
export type { TrialSpec, Upstream, CallPolicy } from './types.js'
export {
  openLlmTrial,
  applyLlmOutcome,
  outcomeSince,
  type LlmConfig,
  type LlmOutcome,
  toolCallsSince,
} from './trial-llm.js'
export { resolveLlmConfig, parseBudget } from './config.js'
export { agentGateway } from './process.js'
export { type Clock, realClock } from './clock.js'
export { withOwnUpstream, ownUpstreamOf } from './agent-upstream.js'
export { noteAgentTool } from './agent-tools.js'
export { redactSecrets } from './redact.js'
export { usageOfCall } from './accounting.js'
export { usageOfJson } from './usage.js'
export type { BackoffOptions } from './backoff.js'
export { type CacheOptions, DEFAULT_CACHE_DIR, resolveCacheOptions } from './cache.js'
export { type PriceMap, resolvePrices, loadPriceFile } from './prices.js'
export { loadEnvironment, requireApiKey } from './env-file.js'
