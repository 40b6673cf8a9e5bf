import { chiSquareSurvival, logGamma } from './incomplete-gamma.js'

/**
 * The exact multinomial test enumerates every count vector of n over k categories, C(n + k − 1, k − 1) of them.
 * Up to this many it is used; beyond it the χ² approximation (where it is also accurate, every expected count
 * being large there unless a category is rare). For 3 categories that is n ≤ 1,412; for 4, n ≤ 179; for 5, n ≤ 67;
 * for 10, n ≤ 14.
 */
export const EXACT_MULTINOMIAL_MAX_OUTCOMES = 1_000_000

/** Relative slack when comparing outcome probabilities with the observed one (ties computed in floating point). */
const TIE_TOLERANCE = 1e-7

export interface GoodnessOfFit {
  /**
   * `impossible`: a category of probability 0 was observed, so the observation cannot happen under the
   * hypothesis: p = 0 exactly, decided without a test statistic or an enumeration.
   */
  method: 'exact-multinomial' | 'chi-square' | 'impossible'
  /** Pearson's χ² = Σ (observed − expected)² / expected over categories with a positive probability; null for `impossible`. */
  statistic: number | null
  /** Categories with a positive probability, minus one. */
  degreesOfFreedom: number
  pValue: number
  /** Count vectors enumerated by the exact test (0 for χ² and `impossible`). */
  outcomes: number
  /** For `impossible`: the indexes of the observed categories whose probability is 0. */
  impossible?: number[]
}

/** The observed categories of probability 0: any makes the observation impossible under the hypothesis. */
function impossibleCategories(observed: readonly number[], probabilities: readonly number[]): number[] {
  const out: number[] = []
  for (let i = 0; i < observed.length; i++) if (probabilities[i] === 0 && observed[i]! > 0) out.push(i)
  return out
}

function impossibleResult(probabilities: readonly number[], impossible: number[]): GoodnessOfFit {
  const categories = probabilities.filter((p) => p > 0).length
  return {
    method: 'impossible',
    statistic: null,
    degreesOfFreedom: Math.max(categories - 1, 0),
    pValue: 0,
    outcomes: 0,
    impossible,
  }
}

/** Number of count vectors of n over k categories, C(n + k − 1, k − 1); Infinity past 2^53. */
export function multinomialOutcomeCount(n: number, k: number): number {
  if (k <= 1) return 1
  let count = 1
  const r = Math.min(k - 1, n)
  for (let i = 1; i <= r; i++) {
    count = (count * (n + k - 1 - r + i)) / i
    if (count > Number.MAX_SAFE_INTEGER) return Number.POSITIVE_INFINITY
  }
  return Math.round(count)
}

function checkInput(observed: readonly number[], probabilities: readonly number[]): void {
  if (observed.length !== probabilities.length)
    throw new RangeError('goodness of fit: observed and probabilities differ in length')
  for (const o of observed)
    if (!(Number.isInteger(o) && o >= 0))
      throw new RangeError(`goodness of fit: counts must be non-negative integers, got ${o}`)
  for (const p of probabilities)
    if (!(Number.isFinite(p) && p >= 0))
      throw new RangeError(`goodness of fit: probabilities must be non-negative, got ${p}`)
  const sum = probabilities.reduce((a, b) => a + b, 0)
  if (Math.abs(sum - 1) > 1e-9) throw new RangeError(`goodness of fit: probabilities must sum to 1, got ${sum}`)
}

/**
 * Pearson's χ² goodness of fit. A category with probability 0 that was observed makes the observation
 * impossible under the hypothesis (method `impossible`, no statistic, p = 0); one that was not observed is left out.
 */
export function chiSquareGoodnessOfFit(observed: readonly number[], probabilities: readonly number[]): GoodnessOfFit {
  checkInput(observed, probabilities)
  const impossible = impossibleCategories(observed, probabilities)
  if (impossible.length) return impossibleResult(probabilities, impossible)
  const n = observed.reduce((a, b) => a + b, 0)
  let statistic = 0
  let categories = 0
  for (let i = 0; i < observed.length; i++) {
    const p = probabilities[i]!
    if (p === 0) continue
    categories++
    const expected = n * p
    statistic += (observed[i]! - expected) ** 2 / expected
  }
  const degreesOfFreedom = Math.max(categories - 1, 0)
  const pValue = n === 0 || degreesOfFreedom === 0 ? 1 : chiSquareSurvival(statistic, degreesOfFreedom)
  return { method: 'chi-square', statistic, degreesOfFreedom, pValue, outcomes: 0 }
}

/**
 * Exact multinomial test: the probability, under the hypothesis, of every count vector no more likely than the
 * observed one (the "probability" ordering, as R's EMT package does). Categories with probability 0 must be
 * empty in every possible outcome, so an observed one gives p = 0.
 */
export function exactMultinomialTest(observed: readonly number[], probabilities: readonly number[]): GoodnessOfFit {
  const chi = chiSquareGoodnessOfFit(observed, probabilities)
  const n = observed.reduce((a, b) => a + b, 0)
  if (chi.method === 'impossible') return chi
  const probs = probabilities.filter((p) => p > 0)
  const k = probs.length
  const outcomes = multinomialOutcomeCount(n, k)
  if (outcomes > EXACT_MULTINOMIAL_MAX_OUTCOMES) {
    throw new RangeError(
      `exact multinomial test: ${outcomes} outcomes is over the ${EXACT_MULTINOMIAL_MAX_OUTCOMES} limit`,
    )
  }
  const logFactorial = Array.from({ length: n + 1 }, (_, i) => logGamma(i + 1))
  const logP = probs.map(Math.log)
  const kept = observed.filter((_, i) => probabilities[i]! > 0)
  const logProbOf = (counts: readonly number[]) => {
    let s = logFactorial[n]!
    for (let i = 0; i < k; i++) s += counts[i]! * logP[i]! - logFactorial[counts[i]!]!
    return s
  }
  const threshold = logProbOf(kept) + Math.log1p(TIE_TOLERANCE)
  let pValue = 0
  const counts = new Array<number>(k).fill(0)
  const visit = (index: number, left: number, partial: number): void => {
    if (index === k - 1) {
      counts[index] = left
      const lp = partial + left * logP[index]! - logFactorial[left]!
      if (lp <= threshold) pValue += Math.exp(lp)
      return
    }
    for (let c = 0; c <= left; c++) {
      counts[index] = c
      visit(index + 1, left - c, partial + c * logP[index]! - logFactorial[c]!)
    }
  }
  visit(0, n, logFactorial[n]!)
  return { ...chi, method: 'exact-multinomial', pValue: Math.min(1, pValue), outcomes }
}

/** The exact multinomial test while its outcome space is at most `EXACT_MULTINOMIAL_MAX_OUTCOMES`, else χ². */
export function goodnessOfFit(observed: readonly number[], probabilities: readonly number[]): GoodnessOfFit {
  checkInput(observed, probabilities)
  const impossible = impossibleCategories(observed, probabilities)
  if (impossible.length) return impossibleResult(probabilities, impossible)
  const n = observed.reduce((a, b) => a + b, 0)
  const k = probabilities.filter((p) => p > 0).length
  return multinomialOutcomeCount(n, k) <= EXACT_MULTINOMIAL_MAX_OUTCOMES
    ? exactMultinomialTest(observed, probabilities)
    : chiSquareGoodnessOfFit(observed, probabilities)
}
