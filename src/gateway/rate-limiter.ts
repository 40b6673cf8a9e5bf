import type { Clock } from './clock.js'

export interface RateLimiterOptions {
  /** Calls in flight at once; Infinity or 0 for no cap. */
  concurrency: number
  /** Call starts per minute, spaced evenly; 0 for no cap. */
  rpm: number
  clock: Clock
}

/**
 * Concurrency cap plus evenly spaced starts: the n-th start is never earlier than n × (60 s / rpm)
 * after the first, so a provider's per-minute window is never exceeded, even in a burst.
 */
export class RateLimiter {
  private readonly maxInFlight: number
  private readonly spacingMs: number
  private inFlight = 0
  private nextStartAt = Number.NEGATIVE_INFINITY
  private readonly waiting: Array<() => void> = []

  constructor(private readonly opts: RateLimiterOptions) {
    this.maxInFlight = opts.concurrency > 0 ? opts.concurrency : Number.POSITIVE_INFINITY
    this.spacingMs = opts.rpm > 0 ? 60_000 / opts.rpm : 0
  }

  /** Waits for a slot; returns the function that frees it. Rejects with the signal's reason on abort. */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    await this.takeSlot(signal)
    try {
      await this.waitForStart(signal)
    } catch (error) {
      this.free()
      throw error
    }
    let freed = false
    return () => {
      if (freed) return
      freed = true
      this.free()
    }
  }

  private takeSlot(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason)
    if (this.inFlight < this.maxInFlight) {
      this.inFlight++
      return Promise.resolve()
    }
    return new Promise<void>((resolve, reject) => {
      const grant = () => {
        signal?.removeEventListener('abort', onAbort)
        resolve()
      }
      const onAbort = () => {
        const at = this.waiting.indexOf(grant)
        if (at >= 0) this.waiting.splice(at, 1)
        reject(signal!.reason)
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      this.waiting.push(grant)
    })
  }

  private async waitForStart(signal?: AbortSignal): Promise<void> {
    if (this.spacingMs === 0) return
    const now = this.opts.clock.now()
    const startAt = Math.max(now, this.nextStartAt)
    this.nextStartAt = startAt + this.spacingMs
    if (startAt > now) await this.opts.clock.sleep(startAt - now, signal)
  }

  private free(): void {
    const next = this.waiting.shift()
    // The slot passes straight to the next waiter, so inFlight stays the same.
    if (next) next()
    else this.inFlight--
  }
}

const shared = new WeakMap<object, Map<string, RateLimiter>>()

/**
 * One limiter per provider endpoint and limits (per clock), so two agents or clients for the same provider
 * in one process share its concurrency and requests-per-minute budget instead of doubling it.
 */
export function sharedRateLimiter(endpoint: string, opts: RateLimiterOptions): RateLimiter {
  let byEndpoint = shared.get(opts.clock)
  if (!byEndpoint) {
    byEndpoint = new Map()
    shared.set(opts.clock, byEndpoint)
  }
  const key = `${endpoint}\n${opts.concurrency}\n${opts.rpm}`
  let limiter = byEndpoint.get(key)
  if (!limiter) {
    limiter = new RateLimiter(opts)
    byEndpoint.set(key, limiter)
  }
  return limiter
}
