/** The model gateway: every agent's model calls, with rate limits, the replay cache, usage, prices and budgets. */
export {
  startGateway,
  gatewayFetch,
  type Gateway,
  type GatewayOptions,
  type GatewayTrial,
  type LlmAccess,
  type ProcessLease,
} from './gateway.js'
export { sharedGateway, closeSharedGateway } from './shared.js'
export { gatewayEnv } from './env.js'
export { resolveUpstream, upstreamIdentity, type LlmOption, type ResolveUpstreamOptions } from './upstream.js'
export { LLM_PRESETS, DEFAULT_URL_KEY_ENV } from './presets.js'
export { readTrialBudget } from './budget.js'
export { cassetteKey, CassetteStore, type CassetteEntry, type CassetteKeyParts } from './cassette.js'
export { GatewayError } from './errors.js'
export type { Budget, CallTrace, Protocol, TrialLedger, TrialSpec, Upstream, GatewayFailure } from './types.js'
export { openLlmTrial, applyLlmOutcome, outcomeSince, type LlmConfig, type LlmOutcome } from './trial-llm.js'
export { resolveLlmConfig, parseBudget, type LlmConfigInput } from './config.js'
export { agentGateway, type AgentGateway } from './process.js'
