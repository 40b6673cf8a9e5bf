import type { Usage } from '../core/schemas.js'
import { emptyUsage } from '../core/usage.js'
import { costUsd, type ModelPrice } from './prices.js'

interface TokenCounts {
  promptTokens: number
  completionTokens: number
}

/**
 * Usage of one model call. A live call adds tokens, quota (1/quotaPerDay of the provider's daily free tier)
 * and cost; a cached call adds only to the `cached*` fields. Both count as a call.
 */
export function usageOfCall(
  tokens: TokenCounts,
  opts: { cached: boolean; quotaPerDay: number; price?: ModelPrice },
): Usage {
  const usage = emptyUsage()
  usage.calls = 1
  if (opts.cached) {
    usage.cachedCalls = 1
    usage.cachedPromptTokens = tokens.promptTokens
    usage.cachedCompletionTokens = tokens.completionTokens
    return usage
  }
  usage.promptTokens = tokens.promptTokens
  usage.completionTokens = tokens.completionTokens
  usage.quotaUnits = opts.quotaPerDay > 0 ? 1 / opts.quotaPerDay : 0
  usage.costUsd = costUsd(opts.price, tokens.promptTokens, tokens.completionTokens)
  return usage
}
