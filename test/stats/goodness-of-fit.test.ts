import { describe, expect, it } from 'vitest'
import {
  chiSquareGoodnessOfFit,
  EXACT_MULTINOMIAL_MAX_OUTCOMES,
  exactMultinomialTest,
  goodnessOfFit,
  multinomialOutcomeCount,
} from '../../src/stats/goodness-of-fit.js'
import { chiSquareSurvival, logGamma, upperGammaQ } from '../../src/stats/incomplete-gamma.js'
import { largestRemainder } from '../../src/stats/largest-remainder.js'

describe('χ² survival function', () => {
  it('matches the closed forms for 1 to 4 degrees of freedom', () => {
    // df = 2: P(X ≥ x) = e^(−x/2). x = 1.0583…: e^(−0.52917) = 0.589096.
    expect(chiSquareSurvival(1.0583333333333333, 2)).toBeCloseTo(0.5890956782532626, 12)
    // df = 1: erfc(√(x/2)); x = 10/3: erfc(1.29099) = 0.0678892.
    expect(chiSquareSurvival(10 / 3, 1)).toBeCloseTo(0.06788915486182903, 12)
    // df = 3: erfc(√(x/2)) + √(2x/π)·e^(−x/2); x = 5: 0.0253473 + 1.78412 × 0.0820850 = 0.171797.
    expect(chiSquareSurvival(5, 3)).toBeCloseTo(0.17179714429673315, 12)
    // df = 4: e^(−x/2)(1 + x/2); x = 7: 0.0301974 × 4.5 = 0.135888.
    expect(chiSquareSurvival(7, 4)).toBeCloseTo(0.13588822540043324, 12)
    expect(chiSquareSurvival(0, 3)).toBe(1)
    expect(chiSquareSurvival(Number.POSITIVE_INFINITY, 3)).toBe(0)
  })

  it('keeps relative accuracy far in the tail and knows ln Γ', () => {
    // df = 2, x = 200: e^(−100) = 3.72008e−44.
    expect(chiSquareSurvival(200, 2) / Math.exp(-100)).toBeCloseTo(1, 10)
    expect(logGamma(5)).toBeCloseTo(Math.log(24), 12)
    expect(logGamma(0.5)).toBeCloseTo(0.5 * Math.log(Math.PI), 12)
    expect(upperGammaQ(1, 2)).toBeCloseTo(Math.exp(-2), 14)
  })
})

describe('goodness of fit', () => {
  it('χ²: 45/28/27 against 40/30/30', () => {
    // expected 40, 30, 30: χ² = 5²/40 + 2²/30 + 3²/30 = 0.625 + 0.1333 + 0.3 = 1.05833, df 2, p = e^(−0.52917) = 0.58910.
    const r = chiSquareGoodnessOfFit([45, 28, 27], [0.4, 0.3, 0.3])
    expect(r.statistic).toBeCloseTo(1.0583333333, 9)
    expect(r.degreesOfFreedom).toBe(2)
    expect(r.pValue).toBeCloseTo(0.5891, 5)
  })

  it('χ²: an observed label with probability 0 is impossible (p = 0); an unobserved one drops out', () => {
    expect(chiSquareGoodnessOfFit([5, 5, 1], [0.5, 0.5, 0]).pValue).toBe(0)
    // 10/20 against ½/½ (the zero column left out): χ² = 25/15 + 25/15 = 3.333, df 1, p = erfc(√1.6667) = 0.067889.
    const r = chiSquareGoodnessOfFit([10, 20, 0], [0.5, 0.5, 0])
    expect(r.degreesOfFreedom).toBe(1)
    expect(r.pValue).toBeCloseTo(0.067889, 6)
  })

  it('exact multinomial p-values worked out by hand', () => {
    // n = 3, p = (½, ½): outcomes (3,0) 1/8, (2,1) 3/8, (1,2) 3/8, (0,3) 1/8. Observed (3,0): 1/8 + 1/8 = 0.25.
    expect(exactMultinomialTest([3, 0], [0.5, 0.5]).pValue).toBeCloseTo(0.25, 12)
    // n = 2, three labels at ⅓: (2,0,0)-type outcomes 1/9 each (3 of them), (1,1,0)-type 2/9 each.
    // Observed (2,0,0): the three 1/9 outcomes → p = 1/3.
    expect(exactMultinomialTest([2, 0, 0], [1 / 3, 1 / 3, 1 / 3]).pValue).toBeCloseTo(1 / 3, 12)
    // n = 2, p = (½, ¼, ¼): P(2,0,0) = ¼, P(1,1,0) = P(1,0,1) = ¼, P(0,1,1) = ⅛, P(0,2,0) = P(0,0,2) = 1/16.
    // Observed (0,1,1), probability ⅛: ⅛ + 1/16 + 1/16 = 0.25 (ties count).
    expect(exactMultinomialTest([0, 1, 1], [0.5, 0.25, 0.25]).pValue).toBeCloseTo(0.25, 12)
    // Observed exactly as expected is the most likely outcome: p = 1.
    expect(exactMultinomialTest([2, 1, 1], [0.5, 0.25, 0.25]).pValue).toBeCloseTo(1, 12)
  })

  it('switches from exact to χ² where the outcome space passes 10⁶ count vectors', () => {
    expect(multinomialOutcomeCount(100, 3)).toBe(5151) // C(102, 2)
    expect(multinomialOutcomeCount(1412, 3)).toBeLessThanOrEqual(EXACT_MULTINOMIAL_MAX_OUTCOMES)
    expect(multinomialOutcomeCount(1413, 3)).toBeGreaterThan(EXACT_MULTINOMIAL_MAX_OUTCOMES)
    const small = goodnessOfFit([45, 28, 27], [0.4, 0.3, 0.3])
    expect(small.method).toBe('exact-multinomial')
    expect(small.outcomes).toBe(5151)
    // Enumerated independently (python, exact rationals): 0.61063.
    expect(small.pValue).toBeCloseTo(0.6106345802, 8)
    const large = goodnessOfFit([600, 420, 393], [0.4, 0.3, 0.3])
    expect(large.method).toBe('chi-square')
    // expected 565.2, 423.9, 423.9: χ² = 34.8²/565.2 + 3.9²/423.9 + 30.9²/423.9 = 2.14268 + 0.03588 + 2.25244 = 4.43100, p = e^(−2.21550) = 0.10910.
    expect(large.statistic).toBeCloseTo(4.431, 4)
    expect(large.pValue).toBeCloseTo(0.1091, 4)
  })
})

describe('largest-remainder rounding', () => {
  it('gives the floors, then the largest remainders', () => {
    // 40/30/30 of 7: quotas 2.8, 2.1, 2.1 → floors 2, 2, 2, one left → the 0.8 remainder.
    expect(largestRemainder([40, 30, 30], 7)).toEqual([3, 2, 2])
    expect(largestRemainder([40, 30, 30], 100)).toEqual([40, 30, 30])
  })

  it('breaks ties by the larger quota, then by position', () => {
    // ⅓ each of 4: quotas 1.333 each, one seat left, equal remainders and quotas → the first.
    expect(largestRemainder([1, 1, 1], 4)).toEqual([2, 1, 1])
    expect(largestRemainder([1, 1, 1], 5)).toEqual([2, 2, 1])
    // 25/25/50 of 2: quotas 0.5, 0.5, 1 → floors 0, 0, 1; remainders 0.5, 0.5, 0 → the first 0.5.
    expect(largestRemainder([25, 25, 50], 2)).toEqual([1, 0, 1])
    // 30/45/25 of 2: quotas 0.6, 0.9, 0.5 → floors 0, 0, 0; two seats: 0.9, then 0.6.
    expect(largestRemainder([30, 45, 25], 2)).toEqual([1, 1, 0])
  })

  it('never gives a seat to a zero share, and handles zero totals', () => {
    expect(largestRemainder([50, 0, 50], 3)).toEqual([2, 0, 1])
    expect(largestRemainder([0, 100, 0], 5)).toEqual([0, 5, 0])
    expect(largestRemainder([40, 30, 30], 0)).toEqual([0, 0, 0])
    expect(() => largestRemainder([0, 0], 1)).toThrow(/zero weights/)
    expect(() => largestRemainder([1, -1], 1)).toThrow(/non-negative/)
  })
})
