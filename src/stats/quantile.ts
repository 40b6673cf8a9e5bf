/** Linear-interpolation quantile (Hyndman & Fan type 7, the R and NumPy default) of an ascending array. */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length
  if (n === 0) return Number.NaN
  const h = (n - 1) * q
  const lo = Math.floor(h)
  const hi = Math.min(n - 1, lo + 1)
  const a = sorted[lo]!
  const b = sorted[hi]!
  return a + (h - lo) * (b - a)
}

/** Arithmetic mean (NaN for no values): the one mean every aggregate and comparison uses. */
export function mean(values: readonly number[]): number {
  let sum = 0
  for (const v of values) sum += v
  return sum / values.length
}

/** The mean, or null when there is nothing to average. */
export function meanOrNull(values: readonly number[]): number | null {
  return values.length === 0 ? null : mean(values)
}
