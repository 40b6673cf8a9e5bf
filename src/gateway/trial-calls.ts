import type { Usage } from '../core/schemas.js'
import { checkBeforeCall, estimateCall, noReservation, type Reservation } from './budget.js'
import { GatewayError } from './errors.js'
import type { ModelPrice } from './prices.js'
import type { ParsedCall } from './protocol.js'
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
  private running = 0
  private readonly waiting: Array<() => void> = []

  constructor(private readonly concurrency: number) {}

  /** Checks the budget with the calls in flight counted, then reserves this call's estimate; throws the budget's refusal. */
  admit(
    budget: Budget | undefined,
    spent: Usage,
    call: ParsedCall,
    bodyChars: number,
    price: ModelPrice | undefined,
    label: string,
    started: number,
  ): CallInFlight {
    checkBeforeCall(budget, spent, this.reserved, label)
    const reserved = estimateCall(call.body, bodyChars, price)
    this.add(reserved, 1)
    const entry: CallInFlight = {
      call,
      started,
      abort: new AbortController(),
      reserved,
      sent: false,
      partial: null,
      settled: false,
    }
    this.inFlight.add(entry)
    return entry
  }

  /**
   * One of the trial's slots: at once when one is free (no promise, so a call under the cap pays nothing), else
   * the promise of one, in order. Either way, the function that frees it.
   */
  slot(entry: CallInFlight, label: string): (() => void) | Promise<() => void> {
    if (this.running < this.concurrency && this.waiting.length === 0) {
      this.running++
      return this.freer()
    }
    const { signal } = entry.abort
    return new Promise((resolve, reject) => {
      const grant = () => {
        signal.removeEventListener('abort', onAbort)
        resolve(this.freer())
      }
      const onAbort = () => {
        const at = this.waiting.indexOf(grant)
        if (at >= 0) this.waiting.splice(at, 1)
        reject(new GatewayError(499, 'aborted', `${label}: the call was given up while it waited for a slot`, null))
      }
      if (signal.aborted) return onAbort()
      signal.addEventListener('abort', onAbort, { once: true })
      this.waiting.push(grant)
    })
  }

  private freer(): () => void {
    let freed = false
    return () => {
      if (freed) return
      freed = true
      const next = this.waiting.shift()
      // The slot passes straight to the next call waiting, so `running` stays the same.
      if (next) next()
      else this.running--
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
