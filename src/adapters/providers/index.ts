export { PROVIDER_PRESETS, presetNames, type ProviderPreset, type ProviderLimits } from '../../gateway/presets.js'
export { createProviderAgent } from './provider-agent.js'
export { resolveProviderConfig, type ProviderAgentOptions } from './resolve-provider.js'
export { createChatClient } from './create-chat-client.js'
export { openChatClient, type ChatClient, type ChatClientConfig } from './chat-client.js'
export type {
  CallContext,
  ChatMessage,
  ChatReply,
  ChatRequest,
  ChatTool,
  ToolCall,
  ToolCallWire,
  ToolChoice,
} from './chat-types.js'
export {
  buildRepairPrompt,
  estimateTokens,
  DEFAULT_CHUNK_TOKEN_BUDGET,
  type RepairChunk,
  type RepairPrompt,
  type RepairPromptOptions,
} from './repair-prompt.js'
export { parseRepairResponse, type ParsedRepair, type ParseContext } from './repair-parse.js'
export {
  resolveCacheOptions,
  CACHE_MODES,
  DEFAULT_CACHE_DIR,
  type CacheMode,
  type CacheOptions,
} from '../../gateway/cache.js'
export { usageOfCall } from '../../gateway/accounting.js'
export {
  parsePriceMap,
  loadPriceFile,
  priceMapFromOpenRouterModels,
  costUsd,
  type PriceMap,
  type ModelPrice,
} from '../../gateway/prices.js'
export { serverRetryDelayMs, backoffDelayMs, DEFAULT_BACKOFF, type BackoffOptions } from '../../gateway/backoff.js'
export { RateLimiter, sharedRateLimiter, type RateLimiterOptions } from '../../gateway/rate-limiter.js'
export type { Clock as ProviderClock } from '../../gateway/clock.js'
export { loadEnvironment, parseEnvFile, requireApiKey } from '../../gateway/env-file.js'
export { ProviderFailure } from './failure.js'
