import { describe, expect, it } from 'vitest'
import { formatSeconds } from '../../../src/stats/number-format.js'
import { backoffDelayMs, RateLimiter, serverRetryDelayMs } from '../../../src/adapters/providers/index.js'
import { virtualClock } from '../../helpers/providers.js'

function headers(values: Record<string, string>) {
  return new Headers(values)
}

describe('RateLimiter', () => {
  it('spaces starts evenly to stay within requests per minute', async () => {
    const clock = virtualClock()
    const limiter = new RateLimiter({ concurrency: 0, rpm: 60, clock })
    const starts: number[] = []
    await Promise.all(
      Array.from({ length: 5 }, async () => {
        const release = await limiter.acquire()
        starts.push(clock.now())
        release()
      }),
    )
    expect(starts).toEqual([0, 1_000, 2_000, 3_000, 4_000])
  })

  it('lets no more than `concurrency` calls run at once, and hands slots on in order', async () => {
    const clock = virtualClock()
    const limiter = new RateLimiter({ concurrency: 2, rpm: 0, clock })
    const a = await limiter.acquire()
    const b = await limiter.acquire()
    const order: string[] = []
    const c = limiter.acquire().then((release) => {
      order.push('c')
      return release
    })
    const d = limiter.acquire().then((release) => {
      order.push('d')
      return release
    })
    await Promise.resolve()
    expect(order).toEqual([])
    a()
    a() // a second release of the same slot is ignored
    const releaseC = await c
    expect(order).toEqual(['c'])
    b()
    const releaseD = await d
    expect(order).toEqual(['c', 'd'])
    releaseC()
    releaseD()
    const e = await limiter.acquire()
    e()
  })

  it('gives up a queued slot when the signal aborts', async () => {
    const limiter = new RateLimiter({ concurrency: 1, rpm: 0, clock: virtualClock() })
    const first = await limiter.acquire()
    const controller = new AbortController()
    const waiting = limiter.acquire(controller.signal)
    controller.abort(new Error('stop'))
    await expect(waiting).rejects.toThrow('stop')
    first()
    const next = await limiter.acquire()
    next()
  })
})

describe('backoff', () => {
  it('reads retry-after-ms, Retry-After seconds and HTTP dates', () => {
    expect(serverRetryDelayMs(headers({ 'retry-after-ms': '250' }))).toBe(250)
    expect(serverRetryDelayMs(headers({ 'retry-after': '12' }))).toBe(12_000)
    expect(serverRetryDelayMs(headers({ 'retry-after': '0.5' }))).toBe(500)
    const now = Date.parse('2025-01-01T00:00:00Z')
    expect(serverRetryDelayMs(headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:30 GMT' }), now)).toBe(30_000)
    expect(serverRetryDelayMs(headers({ 'retry-after': 'soon' }))).toBeUndefined()
    expect(serverRetryDelayMs(headers({}))).toBeUndefined()
    expect(serverRetryDelayMs(undefined)).toBeUndefined()
  })

  it('grows exponentially with jitter in [step/2, step], capped', () => {
    const opts = { baseMs: 1_000, capMs: 10_000 }
    expect([0, 1, 2, 3, 4, 5].map((n) => backoffDelayMs(n, () => 0, opts))).toEqual([
      500, 1_000, 2_000, 4_000, 5_000, 5_000,
    ])
    expect([0, 1, 2, 3, 4, 5].map((n) => backoffDelayMs(n, () => 1, opts))).toEqual([
      1_000, 2_000, 4_000, 8_000, 10_000, 10_000,
    ])
  })

  it('formats seconds for log lines', () => {
    expect(formatSeconds(7)).toBe('7')
    expect(formatSeconds(1.5)).toBe('1.5')
    expect(formatSeconds(0.25)).toBe('0.25')
    expect(formatSeconds(61.234)).toBe('61.2')
  })
})
