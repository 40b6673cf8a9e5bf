import type { Usage } from '../core/schemas.js'
import { type Budget, readBudget } from '../core/budget.js'
import { GatewayError } from './errors.js'
import { costUsd, type ModelPrice } from './prices.js'

/** A trial's budget as given (`{ tokens, usd, calls }`), checked; quota units are not metered per call. */
export function readTrialBudget(value: unknown, source: string): Budget | undefined {
  if (value === undefined || value === null) return undefined
  return readBudget(value, source, ['tokens', 'usd', 'calls'])
}

/** What the calls in flight of a trial hold against its budget until each is settled with its real usage. */
export interface Reservation {
  calls: number
  tokens: number
  usd: number
}

export const noReservation = (): Reservation => ({ calls: 0, tokens: 0, usd: 0 })

/**
 * A call's reservation: one call, its prompt estimated at one token per 4 characters of its request body (about
 * what English text and JSON take), plus the completion it may ask for (`max_tokens`,
 * `max_completion_tokens` or `max_output_tokens`; none given: 0), and their cost at the model's price.
 */
export function estimateCall(
  body: Record<string, unknown> | null,
  bodyChars: number,
  price: ModelPrice | undefined,
): Reservation {
  const limit = [body?.['max_tokens'], body?.['max_completion_tokens'], body?.['max_output_tokens']].find(
    (v) => typeof v === 'number' && Number.isFinite(v) && v > 0,
  )
  const prompt = Math.max(1, Math.ceil(bodyChars / 4))
  const completion = typeof limit === 'number' ? Math.ceil(limit) : 0
  return { calls: 1, tokens: prompt + completion, usd: costUsd(price, prompt, completion) }
}

/**
 * Admits a call before it is forwarded or replayed, counting the calls in flight as if answered: refused when it
 * would be one call more than `calls` (answered and in flight together), or when the tokens or cost spent plus
 * those reserved by calls in flight have reached the limit. A call's own tokens are known only after it, so the
 * call admitted last may pass a token or cost limit; calls in flight at once cannot all pass it.
 */
export function checkBeforeCall(budget: Budget | undefined, usage: Usage, reserved: Reservation, label: string): void {
  if (!budget) return
  const refuse = (what: string) =>
    new GatewayError(403, 'budget_exceeded', `${label}: budget exceeded: ${what}`, 'budget_exceeded')
  const calls = usage.calls + reserved.calls
  if (budget.calls !== undefined && calls + 1 > budget.calls) {
    throw refuse(
      `this would be call ${calls + 1} of at most ${budget.calls}${reserved.calls > 0 ? ` (${reserved.calls} in flight)` : ''}`,
    )
  }
  const inFlight = (amount: string) =>
    reserved.calls > 0 ? ` and ${amount} reserved by ${reserved.calls} call(s) in flight` : ''
  const tokens = usage.promptTokens + usage.completionTokens
  if (budget.tokens !== undefined && tokens + reserved.tokens >= budget.tokens) {
    throw refuse(`${tokens} tokens spent${inFlight(`${reserved.tokens}`)} of at most ${budget.tokens}`)
  }
  if (budget.usd !== undefined && usage.costUsd + reserved.usd >= budget.usd) {
    throw refuse(
      `$${usage.costUsd.toFixed(6)} spent${inFlight(`$${reserved.usd.toFixed(6)}`)} of at most $${budget.usd}`,
    )
  }
}
