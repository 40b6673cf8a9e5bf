import { InputError } from '../core/errors.js'
import { binomialHalfCdf, chiSquareSurvival1 } from './special.js'

/** Discordant-pair count at or below which the exact binomial test is used. */
export const MCNEMAR_EXACT_MAX = 25

export interface McNemarResult {
  /** Pairs where A was correct and B was not. */
  b: number
  /** Pairs where A was not correct and B was. */
  c: number
  /** Discordant pairs, b + c. */
  n: number
  method: 'exact' | 'chi2'
  /** exact: min(b, c), the binomial count; chi2: (max(0, |b − c| − 1))² / (b + c). */
  statistic: number
  /** Two-sided p-value. */
  p: number
}

/**
 * McNemar's test on the discordant pairs of a paired comparison.
 * b + c ≤ 25: exact two-sided binomial, p = min(1, 2·P(X ≤ min(b, c))), X ~ Bin(b + c, 1/2).
 * Otherwise: χ² with Edwards' continuity correction and 1 df, as R's `mcnemar.test` computes it
 * (no correction when b = c, where the statistic is 0).
 */
export function mcnemar(b: number, c: number): McNemarResult {
  for (const [name, v] of [
    ['b', b],
    ['c', c],
  ] as const) {
    if (!Number.isInteger(v) || v < 0) throw new InputError(`mcnemar: ${name} must be a non-negative integer, got ${v}`)
  }
  const n = b + c
  if (n <= MCNEMAR_EXACT_MAX) {
    const k = Math.min(b, c)
    return { b, c, n, method: 'exact', statistic: k, p: n === 0 ? 1 : Math.min(1, 2 * binomialHalfCdf(k, n)) }
  }
  const corrected = Math.max(0, Math.abs(b - c) - 1)
  const statistic = (corrected * corrected) / n
  return { b, c, n, method: 'chi2', statistic, p: chiSquareSurvival1(statistic) }
}
