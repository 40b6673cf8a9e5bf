import { AgentFailure, InputError } from '../core/errors.js'
import { formatSeconds } from '../stats/number-format.js'
import { realClearTimeout, realSetTimeout } from '../core/real-timers.js'

/** What a timer can hold: Node fires a setTimeout beyond 2^31−1 ms after 1 ms instead. */
export const MAX_TIMER_MS = 2 ** 31 - 1

/** Refuses a timeout no timer can hold (or that is not a positive number); `what` names the option. */
export function checkTimeoutMs(timeoutMs: number, what: string): void {
  if (!(timeoutMs > 0) || !Number.isFinite(timeoutMs))
    throw new InputError(`${what} must be a positive number of milliseconds, got ${timeoutMs}`)
  if (timeoutMs > MAX_TIMER_MS)
    throw new InputError(`${what} of ${timeoutMs} ms is beyond what a timer can hold (2^31−1 ms, about 24.8 days)`)
}

/**
 * The test runner's timeout for a test whose own time is `ownMs`: 5 s past it, so a trial or turn that runs out of
 * time fails with our `timeout` (its kind set where it happened), not with the runner's error.
 */
export function runnerTimeoutMs(ownMs: number): number {
  return ownMs + 5_000
}

/** An abort signal created when first read: building one costs more than a trivial trial's own work. */
export interface LazySignal {
  readonly signal: AbortSignal
}

/**
 * Runs `work` with an abort signal that fires after `timeoutMs`. On expiry the promise rejects with an
 * `AgentFailure('timeout')` at once, whether or not the work honours the signal.
 */
export function withTimeout<T>(
  timeoutMs: number | null,
  work: (signal: AbortSignal) => Promise<T> | T,
  parent?: AbortSignal,
): Promise<T> {
  return withLazyTimeout(timeoutMs, (lazy) => work(lazy.signal), parent)
}

/** A parent signal, or a function that gives it when first needed (Vitest's test signal is itself lazy). */
export type ParentSignal = AbortSignal | (() => AbortSignal | undefined)

/**
 * `withTimeout` whose work reads the signal only if it needs it (`lazy.signal`): the controller, its signal and
 * their link to `parent` are made on first read, already aborted if the parent was or the time is up. The
 * timeout rejects all the same. Most trivial trials never read it, and an AbortController costs more than
 * their own work.
 */
export function withLazyTimeout<T>(
  timeoutMs: number | null,
  work: (lazy: LazySignal) => Promise<T> | T,
  parent?: ParentSignal,
): Promise<T> {
  let controller: AbortController | undefined
  let expired: AgentFailure | undefined
  let linked: AbortSignal | undefined
  const onParentAbort = () => controller?.abort(linked?.reason)
  const lazy: LazySignal = {
    get signal() {
      if (!controller) {
        controller = new AbortController()
        const from = typeof parent === 'function' ? parent() : parent
        if (expired) controller.abort(expired)
        else if (from?.aborted) controller.abort(from.reason)
        else if (from) {
          linked = from
          from.addEventListener('abort', onParentAbort, { once: true })
        }
      }
      return controller.signal
    },
  }
  const timed = timeoutMs !== null && Number.isFinite(timeoutMs)
  return new Promise<T>((resolve, reject) => {
    const settle = () => {
      realClearTimeout(timer)
      linked?.removeEventListener('abort', onParentAbort)
    }
    const timer = timed
      ? realSetTimeout(() => {
          expired = new AgentFailure('timeout', `timed out after ${formatSeconds(timeoutMs / 1000)} s`)
          controller?.abort(expired)
          settle()
          reject(expired)
        }, timeoutMs)
      : undefined
    let started: Promise<T>
    try {
      started = Promise.resolve(work(lazy))
    } catch (error) {
      started = Promise.reject(error)
    }
    started.then(
      (value) => {
        settle()
        resolve(value)
      },
      (error: unknown) => {
        settle()
        reject(error)
      },
    )
  })
}
