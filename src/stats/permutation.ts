import { InputError } from '../core/errors.js'
import { Random } from '../core/random.js'
import { resampleMeans } from './bootstrap.js'
import { mean, quantileSorted } from './quantile.js'

/** Up to this many pairs every sign pattern is enumerated (2^16 = 65 536) and p is exact. */
export const PERMUTATION_EXACT_MAX_N = 16

export interface PairedTestOptions {
  seed: number
  /** Random sign flips when n is too large to enumerate. Default 10 000. */
  iterations?: number
  /** Bootstrap resamples for the interval on the mean delta. Default 2000. */
  bootstrapIterations?: number
  /** Default 0.95. */
  level?: number
}

export interface PairedTestResult {
  n: number
  /** Mean of b[i] − a[i]; null when there are no pairs. */
  meanDelta: number | null
  /** Percentile-bootstrap interval on the mean delta. */
  low: number | null
  high: number | null
  /** Two-sided sign-flip permutation p-value for mean delta = 0 (1 when there are no pairs). */
  p: number
  method: 'exact' | 'monte-carlo'
}

/**
 * Paired sign-flip permutation test of the mean of `b[i] − a[i]`, with a seeded percentile-bootstrap
 * interval on that mean. Exact (all 2^n sign patterns) for n ≤ 16; otherwise `iterations` random flips with
 * p = (1 + #|S*| ≥ |S|) / (iterations + 1), which never reports 0.
 */
export function pairedPermutationTest(
  a: readonly number[],
  b: readonly number[],
  options: PairedTestOptions,
): PairedTestResult {
  if (a.length !== b.length) {
    throw new InputError(
      `pairedPermutationTest: a has ${a.length} values and b has ${b.length}; pairs need equal lengths`,
    )
  }
  const deltas = b.map((v, i) => v - a[i]!)
  return signFlipTest(deltas, options)
}

/** The same test on precomputed deltas. */
export function signFlipTest(deltas: readonly number[], options: PairedTestOptions): PairedTestResult {
  const iterations = options.iterations ?? 10_000
  const level = options.level ?? 0.95
  if (!Number.isInteger(options.seed))
    throw new InputError(`permutation test: seed must be an integer, got ${options.seed}`)
  if (!Number.isInteger(iterations) || iterations < 1) {
    throw new InputError(`permutation test: iterations must be a positive integer, got ${iterations}`)
  }
  deltas.forEach((d, i) => {
    if (!Number.isFinite(d)) throw new InputError(`permutation test: pair ${i} has a non-finite delta (${d})`)
  })
  const n = deltas.length
  const exact = n <= PERMUTATION_EXACT_MAX_N
  if (n === 0) return { n, meanDelta: null, low: null, high: null, p: 1, method: 'exact' }

  const magnitudes = deltas.map(Math.abs)
  const observed = Math.abs(deltas.reduce((s, d) => s + d, 0))
  // Sums that differ from the observed one only by rounding count as ties.
  const threshold = observed - 1e-9 * Math.max(1, observed)
  let p: number
  if (exact) {
    const patterns = 2 ** n
    let extreme = 0
    for (let mask = 0; mask < patterns; mask++) {
      let sum = 0
      for (let i = 0; i < n; i++) sum += mask & (1 << i) ? -magnitudes[i]! : magnitudes[i]!
      if (Math.abs(sum) >= threshold) extreme++
    }
    p = extreme / patterns
  } else {
    const rng = new Random(options.seed)
    let extreme = 0
    for (let it = 0; it < iterations; it++) {
      let sum = 0
      let bits = 0
      for (let i = 0; i < n; i++) {
        // Random.next() is a uint32 over 2^32: one draw gives 32 fair coin flips.
        if ((i & 31) === 0) bits = (rng.next() * 4294967296) >>> 0
        sum += (bits >>> (i & 31)) & 1 ? -magnitudes[i]! : magnitudes[i]!
      }
      if (Math.abs(sum) >= threshold) extreme++
    }
    p = (1 + extreme) / (iterations + 1)
  }

  const means = resampleMeans(deltas, options.seed, options.bootstrapIterations ?? 2000)
  const tail = (1 - level) / 2
  return {
    n,
    meanDelta: mean(deltas),
    low: quantileSorted(means, tail),
    high: quantileSorted(means, 1 - tail),
    p: Math.min(1, p),
    method: exact ? 'exact' : 'monte-carlo',
  }
}
