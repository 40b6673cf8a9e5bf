import { upperGammaQ } from './incomplete-gamma.js'

/**
 * Complementary error function to near full double precision, computed as the regularized upper
 * incomplete gamma function erfc(x) = Q(1/2, x²), which keeps relative accuracy for tiny tails.
 */
export function erfc(x: number): number {
  if (Number.isNaN(x)) return Number.NaN
  if (x < 0) return 2 - erfc(-x)
  return upperGammaQ(0.5, x * x)
}

/** P(X > x) for X ~ χ² with one degree of freedom. */
export function chiSquareSurvival1(x: number): number {
  if (Number.isNaN(x)) return Number.NaN
  if (x <= 0) return 1
  return erfc(Math.sqrt(x / 2))
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
