const LOG_SQRT_PI = 0.5 * Math.log(Math.PI)
const TINY = 1e-300
const MAX_TERMS = 1000

/**
 * Complementary error function to near full double precision, computed as the regularized upper
 * incomplete gamma function erfc(x) = Q(1/2, x²), which keeps relative accuracy for tiny tails.
 */
export function erfc(x: number): number {
  if (Number.isNaN(x)) return Number.NaN
  if (x < 0) return 2 - erfc(-x)
  return upperGammaHalf(x * x)
}

/** P(X > x) for X ~ χ² with one degree of freedom. */
export function chiSquareSurvival1(x: number): number {
  if (Number.isNaN(x)) return Number.NaN
  if (x <= 0) return 1
  return erfc(Math.sqrt(x / 2))
}

/** Regularized Q(a, x) for a = 1/2, where Γ(1/2) = √π (Numerical Recipes §6.2: series below a + 1, Lentz's continued fraction above). */
function upperGammaHalf(x: number): number {
  const a = 0.5
  if (x === 0) return 1
  if (!Number.isFinite(x)) return 0
  const logPrefix = -x + a * Math.log(x) - LOG_SQRT_PI
  if (x < a + 1) {
    let term = 1 / a
    let sum = term
    for (let n = 1; n < MAX_TERMS; n++) {
      term *= x / (a + n)
      sum += term
      if (Math.abs(term) < Math.abs(sum) * 1e-17) break
    }
    return 1 - sum * Math.exp(logPrefix)
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
    if (Math.abs(delta - 1) < 1e-16) break
  }
  return Math.exp(logPrefix) * h
}

/**
 * P(X ≤ k) for X ~ Binomial(n, 1/2). Exact for n ≤ 50 (integer binomial coefficients over a power of
 * two, all representable in a double); a running product of probabilities beyond that.
 */
export function binomialHalfCdf(k: number, n: number): number {
  if (k < 0) return 0
  if (k >= n) return 1
  if (n <= 50) {
    let coefficient = 1
    let count = 1
    for (let i = 0; i < k; i++) {
      coefficient = (coefficient * (n - i)) / (i + 1)
      count += coefficient
    }
    return count / 2 ** n
  }
  let logPmf = -n * Math.LN2
  let sum = Math.exp(logPmf)
  for (let i = 0; i < k; i++) {
    logPmf += Math.log((n - i) / (i + 1))
    sum += Math.exp(logPmf)
  }
  return Math.min(1, sum)
}
