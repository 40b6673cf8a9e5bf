import { InputError } from '../core/errors.js'

/** z for a two-sided 95% interval: the 0.975 quantile of the standard normal. */
export const Z_95 = 1.959963984540054

/** A proportion with its interval. `point` is null when there is nothing to estimate (0 of 0). */
export interface ProportionInterval {
  point: number | null
  low: number
  high: number
}

/**
 * Wilson score interval without continuity correction.
 * For n = 0 there is no estimate: point null and the interval is the whole of [0, 1].
 * The bounds are exactly 0 at 0 successes and exactly 1 at n successes.
 */
export function wilsonInterval(successes: number, n: number, z = Z_95): ProportionInterval {
  if (!Number.isInteger(successes) || !Number.isInteger(n) || n < 0 || successes < 0 || successes > n) {
    throw new InputError(`wilsonInterval: need integers 0 ≤ successes ≤ n, got ${successes} of ${n}`)
  }
  if (n === 0) return { point: null, low: 0, high: 1 }
  const p = successes / n
  const z2 = z * z
  const denominator = 1 + z2 / n
  const center = (p + z2 / (2 * n)) / denominator
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator
  return {
    point: p,
    low: successes === 0 ? 0 : Math.max(0, center - half),
    high: successes === n ? 1 : Math.min(1, center + half),
  }
}
