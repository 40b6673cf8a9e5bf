import { BUDGET_FIELDS, type Budget, readBudget } from '../core/budget.js'
import { InputError } from '../core/errors.js'
import type { AgentRunResult, Usage } from '../core/schemas.js'

export type { Budget } from '../core/budget.js'

/**
 * Checks a run's usage against limits. Tokens and calls measure what the agent needed, whether answered live
 * or from the cache; usd and quotaUnits measure what was spent. A result without usage counts as zero.
 */
export function checkBudget(
  result: AgentRunResult | Partial<Usage> | unknown[],
  budget: Budget,
): { passed: boolean; detail: string } {
  const limits = readBudget(budget, 'budget')
  const given = BUDGET_FIELDS.filter((field) => limits[field] !== undefined)
  if (given.length === 0) throw new InputError(`budget: give at least one of ${BUDGET_FIELDS.join(', ')}`)
  const usage = usageOf(result)
  const cachedTokens = (usage.cachedPromptTokens ?? 0) + (usage.cachedCompletionTokens ?? 0)
  const actual: Record<keyof Budget, number> = {
    tokens: (usage.promptTokens ?? 0) + (usage.completionTokens ?? 0) + cachedTokens,
    usd: usage.costUsd ?? 0,
    calls: usage.calls ?? 0,
    quotaUnits: usage.quotaUnits ?? 0,
  }
  const parts: string[] = []
  let passed = true
  for (const field of given) {
    const limit = limits[field]!
    const ok = actual[field] <= limit
    if (!ok) passed = false
    const note = field === 'tokens' && cachedTokens > 0 ? ` (${cachedTokens} from cache)` : ''
    parts.push(`${field} ${show(actual[field])}${note} ${ok ? '<=' : '>'} ${show(limit)}`)
  }
  return { passed, detail: `${passed ? 'within budget' : 'over budget'}: ${parts.join(', ')}` }
}

function usageOf(result: AgentRunResult | Partial<Usage> | unknown[]): Partial<Usage> {
  if (Array.isArray(result)) return {}
  if ('fixes' in result) return (result as AgentRunResult).usage ?? {}
  return result as Partial<Usage>
}

function show(n: number): string {
  return Number.isInteger(n) ? String(n) : String(Number(n.toPrecision(6)))
}
