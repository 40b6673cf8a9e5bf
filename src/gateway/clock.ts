import { realClearTimeout, realNow, realSetTimeout } from '../core/real-timers.js'

/** Time as the rate limiter and backoff see it; tests inject a virtual clock so long waits take no real time. */
export interface Clock {
  /** Milliseconds, monotonic. */
  now(): number
  /** Resolves after `ms`, rejects with the signal's reason when it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>
}

export const realClock: Clock = {
  now: realNow,
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason)
      const onAbort = () => {
        realClearTimeout(timer)
        reject(signal!.reason)
      }
      const timer = realSetTimeout(
        () => {
          signal?.removeEventListener('abort', onAbort)
          resolve()
        },
        Math.max(0, ms),
      )
      signal?.addEventListener('abort', onAbort, { once: true })
    }),
}
