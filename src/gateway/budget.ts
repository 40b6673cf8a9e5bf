import type { Usage } from '../core/schemas.js'
import { InputError } from '../core/errors.js'
import { GatewayError } from './errors.js'
import type { Budget } from './types.js'

/** A budget as given (`{ tokens, usd, calls }`), checked: each field a non-negative number, calls an integer. */
export function checkBudget(value: unknown, source: string): Budget | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'object' || Array.isArray(value)) throw new InputError(`${source}: expected { tokens?, usd?, calls? }`)
  const out: Budget = {}
  for (const [field, v] of Object.entries(value as Record<string, unknown>)) {
    if (field !== 'tokens' && field !== 'usd' && field !== 'calls') throw new InputError(`${source}: unknown field "${field}" (use tokens, usd, calls)`)
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || (field !== 'usd' && !Number.isInteger(v))) {
      throw new InputError(`${source}.${field}: expected a non-negative ${field === 'usd' ? 'number' : 'integer'}, got ${JSON.stringify(v)}`)
    }
    out[field] = v
  }
  return out
}

/**
 * Refuses the next live call when it would pass the budget: one call more than `calls`, or tokens or cost already
 * at the limit (a call's own tokens are known only after it, so the call that reaches the limit is the last one
 * answered). Replayed calls spend nothing and count only against `calls`.
 */
export function checkBeforeCall(budget: Budget | undefined, usage: Usage, label: string): void {
  if (!budget) return
  const refuse = (what: string) => new GatewayError(403, 'budget_exceeded', `${label}: budget exceeded: ${what}`, 'budget_exceeded')
  if (budget.calls !== undefined && usage.calls + 1 > budget.calls) throw refuse(`this would be call ${usage.calls + 1} of at most ${budget.calls}`)
  const tokens = usage.promptTokens + usage.completionTokens
  if (budget.tokens !== undefined && tokens >= budget.tokens) throw refuse(`${tokens} tokens spent of at most ${budget.tokens}`)
  if (budget.usd !== undefined && usage.costUsd >= budget.usd) throw refuse(`$${usage.costUsd.toFixed(6)} spent of at most $${budget.usd}`)
}
