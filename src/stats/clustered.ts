import { InputError } from '../core/errors.js'
import { Random } from '../core/random.js'
import { bootstrapMeanInterval, type BootstrapOptions, type MeanInterval } from './bootstrap.js'
import { quantileSorted } from './quantile.js'
import { tQuantile } from './t-dist.js'
import { type ProportionInterval, wilsonInterval, Z_95 } from './wilson.js'

/**
 * How an interval was computed:
 * - `wilson`: Wilson over runs, used where runs are independent (every unit holds one run);
 * - `wilson-clustered`: Wilson on the effective sample size n_eff = p(1 − p) / SE², SE² the cluster-robust
 *   variance over units (Miller 2024, eq. 4) times G/(G − 1) (CR1), capped at the runs; at p = 0 or 1, n_eff = units;
 * - `wilson-trials`: one unit: Wilson over its trials, an interval for that one case only;
 * - `bootstrap`: seeded percentile bootstrap over runs (the trials of one unit);
 * - `cluster-bootstrap`: seeded percentile bootstrap resampling whole units (no longer used by reports);
 * - `t`: mean ± t_{n−1} · s/√n over independent runs (every unit one run);
 * - `cluster-t`: mean ± t_{G−1} · SE over G units, SE the cluster-robust SE with the small-sample factor G/(G − 1) (CR1).
 */
export type IntervalMethod =
  | 'wilson'
  | 'wilson-clustered'
  | 'wilson-trials'
  | 'bootstrap'
  | 'cluster-bootstrap'
  | 't'
  | 'cluster-t'

export interface ClusterRobustMean {
  /** Σy / N, every run weighing the same. */
  mean: number | null
  /** Cluster-robust (CR0) standard error: sqrt(Σ_g (Σ_{i∈g} (y_i − ȳ))² ) / N. */
  se: number | null
  /** Units (clusters) and runs. */
  units: number
  n: number
}

/**
 * The mean of `values` with its cluster-robust standard error, `clusters[i]` naming the unit of value i
 * (Miller 2024, "Adding Error Bars to Evals", eq. 4, without a small-sample factor: with G units it
 * understates the variance by about (G − 1)/G). With one run per unit it is the plug-in iid SE,
 * sqrt(Σ(y − ȳ)²)/N. One unit gives SE 0: there is no spread between units to see.
 */
export function clusterRobustMean(values: readonly number[], clusters: readonly string[]): ClusterRobustMean {
  checkPaired(values, clusters)
  const n = values.length
  if (n === 0) return { mean: null, se: null, units: 0, n: 0 }
  let sum = 0
  for (const v of values) sum += v
  const m = sum / n
  const residuals = new Map<string, number>()
  for (let i = 0; i < n; i++) residuals.set(clusters[i]!, (residuals.get(clusters[i]!) ?? 0) + values[i]! - m)
  let ss = 0
  for (const r of residuals.values()) ss += r * r
  return { mean: m, se: Math.sqrt(ss) / n, units: residuals.size, n }
}

export interface ClusteredProportion extends ProportionInterval {
  method: IntervalMethod
  units: number
  /** The sample size the interval is worth: runs for `wilson`, less for clustered runs. */
  effectiveN: number
}

/**
 * A proportion of 0/1 outcomes with an interval that follows the units: Wilson over runs when each unit is
 * one run (the numbers of `wilsonInterval`); Wilson over trials when there is one unit; otherwise Wilson on
 * the cluster-robust effective sample size. A deterministic agent over 17 cases gets Wilson(17) whether each
 * case ran once or five times.
 */
export function clusteredProportion(
  outcomes: readonly boolean[],
  clusters: readonly string[],
  z = Z_95,
  /** The number of distinct clusters, when the caller knows it already. */
  knownUnits?: number,
): ClusteredProportion {
  checkPaired(outcomes, clusters)
  const n = outcomes.length
  let successes = 0
  for (const o of outcomes) if (o) successes++
  const units = knownUnits ?? new Set(clusters).size
  if (units === n || units === 1) {
    return {
      ...wilsonInterval(successes, n, z),
      method: units === n ? 'wilson' : 'wilson-trials',
      units,
      effectiveN: n,
    }
  }
  const p = successes / n
  const { se } = clusterRobustMean(
    outcomes.map((o) => (o ? 1 : 0)),
    clusters,
  )
  // CR1: the small-sample factor G/(G − 1). Where every unit has the same mean the variance is 0 and n_eff is its
  // limit, the runs (so moving one success between units moves the interval a little, not from units to runs).
  const variance = (se! * se! * units) / (units - 1)
  const effectiveN = p === 0 || p === 1 ? units : variance === 0 ? n : Math.min(n, (p * (1 - p)) / variance)
  return { ...wilsonOnProportion(p, effectiveN, z), method: 'wilson-clustered', units, effectiveN }
}

/**
 * The mean of `values` with a small-sample interval over units: mean ± t_{G−1, (1+level)/2} · SE, SE² the
 * cluster-robust variance (`clusterRobustMean`) times G/(G − 1) (CR1), G the units; clipped to `bounds`. With
 * one run per unit it is the classical t interval (`t`); with one unit there is no spread between units, and it
 * falls back to the bootstrap over that unit's trials. Seeded simulation (test/stats/intervals-coverage.test.ts)
 * puts its coverage at 0.93 to 0.95 from 3 units up, where the percentile bootstrap covered 0.75 at 3 and 0.84 at 5.
 */
export function clusterTMeanInterval(
  values: readonly number[],
  clusters: readonly string[],
  options: BootstrapOptions & { bounds?: [number, number] },
): ClusteredMeanInterval {
  const { mean, se, units, n } = clusterRobustMean(values, clusters)
  if (units < 2) return { ...bootstrapMeanInterval(values, options), method: 'bootstrap', units }
  const level = options.level ?? 0.95
  const half = tQuantile(1 - (1 - level) / 2, units - 1) * se! * Math.sqrt(units / (units - 1))
  const [lowest, highest] = options.bounds ?? [Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY]
  return {
    mean,
    low: Math.max(lowest, mean! - half),
    high: Math.min(highest, mean! + half),
    n,
    method: units === n ? 't' : 'cluster-t',
    units,
  }
}

/** Wilson's formula for a proportion p over a (possibly fractional) sample size n. */
function wilsonOnProportion(p: number, n: number, z: number): ProportionInterval {
  const z2 = z * z
  const denominator = 1 + z2 / n
  const center = (p + z2 / (2 * n)) / denominator
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator
  return { point: p, low: p === 0 ? 0 : Math.max(0, center - half), high: p === 1 ? 1 : Math.min(1, center + half) }
}

export interface ClusteredMeanInterval extends MeanInterval {
  method: IntervalMethod
  units: number
}

/**
 * Mean with a seeded percentile-bootstrap interval that resamples whole units: each resample draws `units`
 * units with replacement and takes Σ values / Σ runs over them. With one run per unit this is exactly
 * `bootstrapMeanInterval` (same draws, same numbers); with one unit it resamples that unit's trials.
 * With few units the percentile interval is too narrow (about √((G − 1)/G) of the right width) and it can
 * only take values the units' means allow.
 */
export function clusterBootstrapMeanInterval(
  values: readonly number[],
  clusters: readonly string[],
  options: BootstrapOptions,
): ClusteredMeanInterval {
  checkPaired(values, clusters)
  const order: string[] = []
  const sums = new Map<string, { sum: number; count: number }>()
  values.forEach((v, i) => {
    const key = clusters[i]!
    const s = sums.get(key)
    if (s) {
      s.sum += v
      s.count++
    } else {
      sums.set(key, { sum: v, count: 1 })
      order.push(key)
    }
  })
  const units = order.length
  if (units === values.length || units === 1) {
    return { ...bootstrapMeanInterval(values, options), method: 'bootstrap', units }
  }
  // Options checked (seed, iterations, level, finite values) by the same rules as the run bootstrap.
  const plain = bootstrapMeanInterval(values, { ...options, iterations: 1 })
  const iterations = options.iterations ?? 2000
  const level = options.level ?? 0.95
  const unitSums = order.map((k) => sums.get(k)!.sum)
  const unitCounts = order.map((k) => sums.get(k)!.count)
  const rng = new Random(options.seed)
  const means = new Float64Array(iterations)
  for (let it = 0; it < iterations; it++) {
    let sum = 0
    let count = 0
    for (let i = 0; i < units; i++) {
      const u = Math.floor(rng.next() * units)
      sum += unitSums[u]!
      count += unitCounts[u]!
    }
    means[it] = sum / count
  }
  means.sort()
  const tail = (1 - level) / 2
  return {
    mean: plain.mean,
    low: quantileSorted(means, tail),
    high: quantileSorted(means, 1 - tail),
    n: values.length,
    method: 'cluster-bootstrap',
    units,
  }
}

function checkPaired(values: readonly unknown[], clusters: readonly string[]): void {
  if (values.length !== clusters.length) {
    throw new InputError(
      `clustered statistics: ${values.length} values but ${clusters.length} unit keys; each value needs its unit`,
    )
  }
}
