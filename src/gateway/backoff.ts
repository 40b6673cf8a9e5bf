export interface BackoffOptions {
  /** First wait before jitter. */
  baseMs: number
  /** No computed wait exceeds this. */
  capMs: number
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 1_000, capMs: 60_000 }

type HeaderSource = { get(name: string): string | null } | undefined

/**
 * The wait a server asked for: `retry-after-ms` (milliseconds) first, then `Retry-After`
 * (seconds or an HTTP date). Undefined when neither is present and valid.
 */
export function serverRetryDelayMs(headers: HeaderSource, nowEpochMs: number = Date.now()): number | undefined {
  if (!headers) return undefined
  const ms = headers.get('retry-after-ms')
  if (ms !== null && ms.trim() !== '') {
    const value = Number(ms)
    if (Number.isFinite(value) && value >= 0) return value
  }
  const after = headers.get('retry-after')
  if (after === null || after.trim() === '') return undefined
  const seconds = Number(after)
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000
  const date = Date.parse(after)
  if (Number.isFinite(date)) return Math.max(0, date - nowEpochMs)
  return undefined
}

/**
 * Exponential backoff with "equal jitter": half the exponential step is fixed, half is random,
 * so waits never collapse to zero yet parallel callers spread out. `attempt` counts from 0.
 */
export function backoffDelayMs(attempt: number, random: () => number, opts: BackoffOptions = DEFAULT_BACKOFF): number {
  const step = Math.min(opts.capMs, opts.baseMs * 2 ** attempt)
  return step / 2 + random() * (step / 2)
}
