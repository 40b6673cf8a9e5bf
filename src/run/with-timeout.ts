import { AgentFailure, InputError } from '../core/errors.js'
import { formatSeconds } from '../stats/format.js'

/** What a timer can hold: Node fires a setTimeout beyond 2^31−1 ms after 1 ms instead. */
export const MAX_TIMER_MS = 2 ** 31 - 1

/** Refuses a timeout no timer can hold (or that is not a positive number); `what` names the option. */
export function checkTimeoutMs(timeoutMs: number, what: string): void {
  if (!(timeoutMs > 0) || !Number.isFinite(timeoutMs)) throw new InputError(`${what} must be a positive number of milliseconds, got ${timeoutMs}`)
  if (timeoutMs > MAX_TIMER_MS) throw new InputError(`${what} of ${timeoutMs} ms is beyond what a timer can hold (2^31−1 ms, about 24.8 days)`)
}

/** An abort signal created when first read: building one costs more than a trivial trial's own work. */
export interface LazySignal {
  readonly signal: AbortSignal
}

/**
 * Runs `work` with an abort signal that fires after `timeoutMs`. On expiry the promise rejects with an
 * `AgentFailure('timeout')` at once, whether or not the work honours the signal.
 */
export function withTimeout<T>(timeoutMs: number | null, work: (signal: AbortSignal) => Promise<T> | T, parent?: AbortSignal): Promise<T> {
  return withLazyTimeout(timeoutMs, (lazy) => work(lazy.signal), parent)
}

/**
 * `withTimeout` whose work reads the signal only if it needs it (`lazy.signal`): the signal, and its link to
 * `parent`, are made on first read, already aborted if the parent was. The timeout rejects all the same.
 */
export async function withLazyTimeout<T>(
  timeoutMs: number | null,
  work: (lazy: LazySignal) => Promise<T> | T,
  parent?: AbortSignal,
): Promise<T> {
  const controller = new AbortController()
  const onParentAbort = () => controller.abort(parent?.reason)
  let linked = false
  const lazy: LazySignal = {
    get signal() {
      if (parent && !linked) {
        linked = true
        if (parent.aborted) controller.abort(parent.reason)
        else parent.addEventListener('abort', onParentAbort, { once: true })
      }
      return controller.signal
    },
  }
  let timer: NodeJS.Timeout | undefined
  const expired = new Promise<never>((_, reject) => {
    if (timeoutMs === null || !Number.isFinite(timeoutMs)) return
    timer = setTimeout(() => {
      const failure = new AgentFailure('timeout', `timed out after ${formatSeconds(timeoutMs / 1000)} s`)
      controller.abort(failure)
      reject(failure)
    }, timeoutMs)
  })
  try {
    let started: Promise<T>
    try {
      started = Promise.resolve(work(lazy))
    } catch (error) {
      started = Promise.reject(error)
    }
    return await (timeoutMs === null || !Number.isFinite(timeoutMs) ? started : Promise.race([started, expired]))
  } finally {
    clearTimeout(timer)
    if (linked) parent?.removeEventListener('abort', onParentAbort)
  }
}
