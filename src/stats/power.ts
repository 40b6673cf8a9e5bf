import { mcnemar } from './mcnemar.js'

/**
 * The smallest two-sided p a paired test can reach on `pairs` pairs: every pair discordant in one direction.
 * For McNemar's exact test that is 2 · 0.5^pairs (0.25 at 3 pairs); the sign-flip test on F1 reaches the same
 * bound while it enumerates (up to 16 pairs). A gate whose pairs cannot get below alpha can never fire.
 */
export function smallestReachableP(pairs: number): number {
  if (!(Number.isInteger(pairs) && pairs > 0)) return 1
  return mcnemar(pairs, 0).p
}

/** The fewest pairs whose smallest reachable p is below alpha (6 at α = 0.05, 8 at α = 0.01). */
export function pairsNeeded(alpha: number): number {
  let n = 1
  while (smallestReachableP(n) >= alpha && n < 10_000) n++
  return n
}

export interface Power {
  pairs: number
  /** Smallest p these pairs can give. */
  smallestP: number
  /** Pairs needed for a p below alpha. */
  pairsNeeded: number
  /** False when no outcome of these pairs could reach alpha: the test cannot flag a regression. */
  canReachAlpha: boolean
}

export function pairedPower(pairs: number, alpha: number): Power {
  const smallestP = smallestReachableP(pairs)
  return { pairs, smallestP, pairsNeeded: pairsNeeded(alpha), canReachAlpha: smallestP < alpha }
}
