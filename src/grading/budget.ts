import { InputError } from '../core/errors.js'
import type { AgentRunResult, Usage } from '../core/schemas.js'

export interface Budget {
  /** Prompt + completion tokens, counting cached answers too, so a replay is held to the same budget. */
  tokens?: number
  /** USD actually spent (cached answers cost nothing). */
  usd?: number
  /** Model calls, cached or not. */
  calls?: number
  /** Free-tier quota units actually spent (cached answers cost none). */
  quotaUnits?: number
}

const FIELDS = ['tokens', 'usd', 'calls', 'quotaUnits'] as const

/**
 * Checks a run's usage against limits. Tokens and calls measure what the agent needed, whether answered live
 * or from the cache; usd and quotaUnits measure what was spent. A result without usage counts as zero.
 */
export function checkBudget(result: AgentRunResult | Partial<Usage> | unknown[], budget: Budget): { passed: boolean; detail: string } {
  const given = FIELDS.filter((field) => budget[field] !== undefined)
  if (given.length === 0) throw new InputError(`budget: give at least one of ${FIELDS.join(', ')}`)
  for (const field of given) {
    const limit = budget[field]!
    if (typeof limit !== 'number' || !Number.isFinite(limit) || limit < 0) {
      throw new InputError(`budget.${field}: expected a non-negative number, got ${String(limit)}`)
    }
  }
  const usage = usageOf(result)
  const cachedTokens = (usage.cachedPromptTokens ?? 0) + (usage.cachedCompletionTokens ?? 0)
  const actual: Record<(typeof FIELDS)[number], number> = {
    tokens: (usage.promptTokens ?? 0) + (usage.completionTokens ?? 0) + cachedTokens,
    usd: usage.costUsd ?? 0,
    calls: usage.calls ?? 0,
    quotaUnits: usage.quotaUnits ?? 0,
  }
  const parts: string[] = []
  let passed = true
  for (const field of given) {
    const limit = budget[field]!
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
