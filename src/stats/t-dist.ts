import { InputError } from '../core/errors.js'
import { logGamma } from './incomplete-gamma.js'

/**
 * Regularized incomplete beta I_x(a, b) by Lentz's continued fraction (Numerical Recipes §6.4), using the
 * symmetry I_x(a, b) = 1 − I_{1−x}(b, a) where the fraction converges slowly.
 */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (!(a > 0 && b > 0)) throw new InputError(`incompleteBeta: a and b must be > 0, got ${a}, ${b}`)
  if (x <= 0) return 0
  if (x >= 1) return 1
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x))
  if (x > (a + 1) / (a + b + 2)) return 1 - (front * betaFraction(1 - x, b, a)) / b
  return (front * betaFraction(x, a, b)) / a
}

function betaFraction(x: number, a: number, b: number): number {
  const tiny = 1e-300
  let c = 1
  let d = 1 - ((a + b) * x) / (a + 1)
  if (Math.abs(d) < tiny) d = tiny
  d = 1 / d
  let h = d
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m
    let aa = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2))
    d = 1 + aa * d
    if (Math.abs(d) < tiny) d = tiny
    c = 1 + aa / c
    if (Math.abs(c) < tiny) c = tiny
    d = 1 / d
    h *= d * c
    aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1))
    d = 1 + aa * d
    if (Math.abs(d) < tiny) d = tiny
    c = 1 + aa / c
    if (Math.abs(c) < tiny) c = tiny
    d = 1 / d
    const step = d * c
    h *= step
    if (Math.abs(step - 1) < 1e-15) break
  }
  return h
}

/** P(T ≤ t) for Student's t with `df` degrees of freedom. */
export function tCdf(t: number, df: number): number {
  if (!(df > 0)) throw new InputError(`tCdf: df must be > 0, got ${df}`)
  const tail = 0.5 * incompleteBeta(df / (df + t * t), df / 2, 0.5)
  return t >= 0 ? 1 - tail : tail
}

const quantiles = new Map<string, number>()

/** The p quantile of Student's t with `df` degrees of freedom (bisection on `tCdf`, to 1e-12; memoized). */
export function tQuantile(p: number, df: number): number {
  if (!(p > 0 && p < 1)) throw new InputError(`tQuantile: p must be in (0, 1), got ${p}`)
  if (p < 0.5) return -tQuantile(1 - p, df)
  if (p === 0.5) return 0
  const key = `${p}|${df}`
  const known = quantiles.get(key)
  if (known !== undefined) return known
  const q = searchQuantile(p, df)
  if (quantiles.size > 10_000) quantiles.clear()
  quantiles.set(key, q)
  return q
}

function searchQuantile(p: number, df: number): number {
  let low = 0
  let high = 1
  while (tCdf(high, df) < p) high *= 2
  for (let i = 0; i < 200 && high - low > 1e-12 * Math.max(1, high); i++) {
    const mid = (low + high) / 2
    if (tCdf(mid, df) < p) low = mid
    else high = mid
  }
  return (low + high) / 2
}
