import type { Usage } from './schemas.js'

export function emptyUsage(): Usage {
  return {
    calls: 0,
    promptTokens: 0,
    completionTokens: 0,
    quotaUnits: 0,
    costUsd: 0,
    cachedCalls: 0,
    cachedPromptTokens: 0,
    cachedCompletionTokens: 0,
  }
}

export function addUsage(a: Usage, b: Partial<Usage>): Usage {
  return {
    calls: a.calls + (b.calls ?? 0),
    promptTokens: a.promptTokens + (b.promptTokens ?? 0),
    completionTokens: a.completionTokens + (b.completionTokens ?? 0),
    quotaUnits: a.quotaUnits + (b.quotaUnits ?? 0),
    costUsd: a.costUsd + (b.costUsd ?? 0),
    cachedCalls: a.cachedCalls + (b.cachedCalls ?? 0),
    cachedPromptTokens: a.cachedPromptTokens + (b.cachedPromptTokens ?? 0),
    cachedCompletionTokens: a.cachedCompletionTokens + (b.cachedCompletionTokens ?? 0),
  }
}
