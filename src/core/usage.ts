import type { Usage } from './schemas.js'

/** Every field of `Usage`, in the schema's order: the zod-free meta check and the Parquet columns read this list. */
export const USAGE_FIELDS = [
  'calls',
  'promptTokens',
  'completionTokens',
  'quotaUnits',
  'costUsd',
  'cachedCalls',
  'cachedPromptTokens',
  'cachedCompletionTokens',
] as const satisfies readonly (keyof Usage)[]

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

/** No call, token, quota unit or cost in it (absent fields count as zero). */
export function isZeroUsage(usage: Partial<Usage>): boolean {
  for (const key in usage) if (usage[key as keyof Usage] !== 0 && usage[key as keyof Usage] !== undefined) return false
  return true
}

/** The usage of many runs or calls added up. */
export function sumUsage(usages: Iterable<Partial<Usage>>): Usage {
  const total = emptyUsage()
  for (const u of usages) addUsageInPlace(total, u)
  return total
}

/** Adds `b` into `total` (the sums `addUsage` makes, without a new object per addition). */
export function addUsageInPlace(total: Usage, b: Partial<Usage>): void {
  total.calls += b.calls ?? 0
  total.promptTokens += b.promptTokens ?? 0
  total.completionTokens += b.completionTokens ?? 0
  total.quotaUnits += b.quotaUnits ?? 0
  total.costUsd += b.costUsd ?? 0
  total.cachedCalls += b.cachedCalls ?? 0
  total.cachedPromptTokens += b.cachedPromptTokens ?? 0
  total.cachedCompletionTokens += b.cachedCompletionTokens ?? 0
}

export function addUsage(a: Usage, b: Partial<Usage>): Usage {
  const total = emptyUsage()
  addUsageInPlace(total, a)
  addUsageInPlace(total, b)
  return total
}
