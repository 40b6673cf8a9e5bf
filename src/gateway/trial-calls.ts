import type { Usage } from '../core/schemas.js'
import { checkBeforeCall, estimateCall, noReservation, type Reservation } from './budget.js'
import type { Clock } from './clock.js'
import { GatewayError } from './errors.js'
import type { ModelPrice } from './prices.js'
import type { ParsedCall } from './protocol.js'
import { RateLimiter } from './rate-limiter.js'
import type { Budget } from './types.js'
import type { StreamUsage } from './usage.js'

/** Calls one trial may have going upstream (or replaying) at once; more wait at the gateway (default 8). */
export const DEFAULT_TRIAL_CONCURRENCY = 8

/** One call the budget admitted, from admission until it is accounted. */
export interface CallInFlight {
  call: ParsedCall
  started: number
  /** Aborts the upstream request: the agent closed its connection, or the trial ended. */
  abort: AbortController
  reserved: Reservation
  /** Sent upstream or being replayed (a cancelled call counts as a call only then). */
  sent: boolean
  /** What a stream has reported so far, for a call cancelled halfway. */
  partial: StreamUsage | null
  /** Accounted (answered, refused or cancelled): nothing more is recorded for it. */
  settled: boolean
}

/**
 * A trial's calls in flight: admitted under its budget with a reservation (so calls at once cannot pass it
 * together), held to the trial's concurrency, and cancelled when the trial ends.
 */
export class TrialCalls {
  /** What the calls in flight hold against the budget. */
  readonly reserved: Reservation = noReservation()
  private readonly inFlight = new Set<CallInFlight>()
  private readonly slots: RateLimiter

  constructor(concurrency: number, clock: Clock) {
    this.slots = new RateLimiter({ concurrency, rpm: 0, clock })
  }

  /** Checks the budget with the calls in flight counted, then reserves this call's estimate; throws the budget's refusal. */
  admit(budget: Budget | undefined, spent: Usage, call: ParsedCall, bodyChars: number, price: ModelPrice | undefined, label: string, started: number): CallInFlight {
    checkBeforeCall(budget, spent, this.reserved, label)
    const reserved = estimateCall(call.body, bodyChars, price)
    this.add(reserved, 1)
    const entry: CallInFlight = { call, started, abort: new AbortController(), reserved, sent: false, partial: null, settled: false }
    this.inFlight.add(entry)
    return entry
  }

  /** Waits for one of the trial's slots; returns the function that frees it. */
  async slot(entry: CallInFlight, label: string): Promise<() => void> {
    try {
      return await this.slots.acquire(entry.abort.signal)
    } catch {
      throw new GatewayError(499, 'aborted', `${label}: the call was given up while it waited for a slot`, null)
    }
  }

  /** The call is over (answered, refused or cancelled): its reservation is released. Idempotent. */
  end(entry: CallInFlight): void {
    if (!this.inFlight.delete(entry)) return
    this.add(entry.reserved, -1)
  }

  /**
   * Cancels every call not yet accounted: `account` puts it on the ledger (and settles it), then its upstream
   * request is aborted. Returns how many there were.
   */
  cancelAll(account: (entry: CallInFlight) => void): number {
    const cancelled = [...this.inFlight].filter((entry) => !entry.settled)
    for (const entry of cancelled) {
      account(entry)
      entry.abort.abort()
      this.end(entry)
    }
    return cancelled.length
  }

  private add(r: Reservation, sign: 1 | -1): void {
    this.reserved.calls += sign * r.calls
    this.reserved.tokens += sign * r.tokens
    this.reserved.usd += sign * r.usd
    // No rounding residue once nothing is in flight.
    if (this.reserved.calls === 0) Object.assign(this.reserved, noReservation())
  }
}
