const TINY = 1e-300
const EPS = 1e-16
const MAX_TERMS = 10_000

// Lanczos approximation (g = 7, n = 9), about 15 significant digits for x > 0.
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
]

/** ln Γ(x) for x > 0. */
export function logGamma(x: number): number {
  if (!(x > 0)) throw new RangeError(`logGamma: x must be > 0, got ${x}`)
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x)
  const z = x - 1
  let a = LANCZOS[0]!
  const t = z + 7.5
  for (let i = 1; i < 9; i++) a += LANCZOS[i]! / (z + i)
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a)
}

/**
 * Regularized upper incomplete gamma Q(a, x) = Γ(a, x) / Γ(a) (Numerical Recipes §6.2: the series for P below
 * x < a + 1, Lentz's continued fraction for Q above, so the small tail keeps its relative accuracy).
 */
export function upperGammaQ(a: number, x: number): number {
  if (!(a > 0)) throw new RangeError(`upperGammaQ: a must be > 0, got ${a}`)
  if (Number.isNaN(x)) return Number.NaN
  if (x <= 0) return 1
  if (!Number.isFinite(x)) return 0
  const logPrefix = -x + a * Math.log(x) - logGamma(a)
  if (x < a + 1) {
    let term = 1 / a
    let sum = term
    for (let n = 1; n < MAX_TERMS; n++) {
      term *= x / (a + n)
      sum += term
      if (Math.abs(term) < Math.abs(sum) * EPS) break
    }
    return Math.max(0, 1 - sum * Math.exp(logPrefix))
  }
  let b = x + 1 - a
  let c = 1 / TINY
  let d = 1 / b
  let h = d
  for (let i = 1; i < MAX_TERMS; i++) {
    const an = -i * (i - a)
    b += 2
    d = an * d + b
    if (Math.abs(d) < TINY) d = TINY
    c = b + an / c
    if (Math.abs(c) < TINY) c = TINY
    d = 1 / d
    const delta = d * c
    h *= delta
    if (Math.abs(delta - 1) < EPS) break
  }
  return Math.exp(logPrefix) * h
}

/** P(X ≥ x) for X ~ χ² with `df` degrees of freedom. */
export function chiSquareSurvival(x: number, df: number): number {
  if (!(Number.isInteger(df) && df >= 1))
    throw new RangeError(`chiSquareSurvival: df must be a positive integer, got ${df}`)
  if (Number.isNaN(x)) return Number.NaN
  if (x <= 0) return 1
  return upperGammaQ(df / 2, x / 2)
}
