import { InputError } from '../core/errors.js'
import { Random } from '../core/random.js'
import { mean } from './quantile.js'

/** Up to this many ways of splitting the pooled values every split is enumerated and p is exact. */
export const TWO_SAMPLE_EXACT_MAX_SPLITS = 65_536

export interface TwoSampleResult {
  nA: number
  nB: number
  /** mean(b) − mean(a); null when a side is empty. */
  meanDelta: number | null
  /** Two-sided permutation p for equal means (1 when a side is empty). */
  p: number
  method: 'exact' | 'monte-carlo'
}

/**
 * Two-sample permutation test of mean(b) − mean(a): the pooled values are split into groups of the two sizes in
 * every way (exact, up to 65 536 splits) or `iterations` seeded random ways, and p is the share of splits whose
 * |difference| reaches the observed one (Monte Carlo: (1 + count) / (iterations + 1)). On 0/1 outcomes it is a
 * two-sided Fisher-type exact test. The trials of two arms on one fixed case are such samples.
 */
export function twoSamplePermutationTest(
  a: readonly number[],
  b: readonly number[],
  options: { seed: number; iterations?: number },
): TwoSampleResult {
  const iterations = options.iterations ?? 10_000
  if (!Number.isInteger(options.seed))
    throw new InputError(`two-sample test: seed must be an integer, got ${options.seed}`)
  if (!Number.isInteger(iterations) || iterations < 1) {
    throw new InputError(`two-sample test: iterations must be a positive integer, got ${iterations}`)
  }
  const pooled = [...a, ...b]
  pooled.forEach((v, i) => {
    if (!Number.isFinite(v)) throw new InputError(`two-sample test: value ${i} is not a finite number (${v})`)
  })
  const nA = a.length
  const nB = b.length
  if (nA === 0 || nB === 0) return { nA, nB, meanDelta: null, p: 1, method: 'exact' }
  const n = nA + nB
  const total = pooled.reduce((s, v) => s + v, 0)
  // |mean(B) − mean(A)| as a function of A's sum alone.
  const statistic = (sumA: number) => Math.abs((total - sumA) / nB - sumA / nA)
  const observed = statistic(a.reduce((s, v) => s + v, 0))
  const threshold = observed - 1e-9 * Math.max(1, observed)
  const splits = choose(n, nA)
  let p: number
  let method: TwoSampleResult['method']
  if (splits <= TWO_SAMPLE_EXACT_MAX_SPLITS) {
    let extreme = 0
    const walk = (start: number, left: number, sum: number): void => {
      if (left === 0) {
        if (statistic(sum) >= threshold) extreme++
        return
      }
      for (let i = start; i <= n - left; i++) walk(i + 1, left - 1, sum + pooled[i]!)
    }
    walk(0, nA, 0)
    p = extreme / splits
    method = 'exact'
  } else {
    const rng = new Random(options.seed)
    const work = pooled.slice()
    let extreme = 0
    for (let it = 0; it < iterations; it++) {
      // Partial Fisher–Yates: the first nA slots are a uniform random A.
      let sum = 0
      for (let i = 0; i < nA; i++) {
        const j = i + Math.floor(rng.next() * (n - i))
        const t = work[i]!
        work[i] = work[j]!
        work[j] = t
        sum += work[i]!
      }
      if (statistic(sum) >= threshold) extreme++
    }
    p = (1 + extreme) / (iterations + 1)
    method = 'monte-carlo'
  }
  return { nA, nB, meanDelta: mean(b) - mean(a), p: Math.min(1, p), method }
}

/** The smallest p the two-sample test can give with these sizes: one extreme split (two when the sizes match). */
export function twoSampleSmallestP(nA: number, nB: number): number {
  if (nA < 1 || nB < 1) return 1
  return Math.min(1, (nA === nB ? 2 : 1) / choose(nA + nB, nA))
}

/** C(n, k) as a double (exact while it fits in 2^53). */
export function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0
  const m = Math.min(k, n - k)
  let c = 1
  for (let i = 1; i <= m; i++) c = (c * (n - m + i)) / i
  return Math.round(c)
}
