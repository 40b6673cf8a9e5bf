import type { Usage } from './schemas.js'

/** Tokens the run paid for, and tokens the cache answered without a call: reported apart. */
export function tokensSpentAndSaved(usage: Partial<Usage>): { spent: number; saved: number } {
  return {
    spent: (usage.promptTokens ?? 0) + (usage.completionTokens ?? 0),
    saved: (usage.cachedPromptTokens ?? 0) + (usage.cachedCompletionTokens ?? 0),
  }
}

/** Cost ÷ correct fixes (true positives); null when there is no correct fix to divide by. */
export function costPerCorrectFix(usage: Partial<Usage>, tp: number): number | null {
  if (!(tp > 0)) return null
  return (usage.costUsd ?? 0) / tp
}
