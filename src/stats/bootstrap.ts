import { InputError } from '../core/errors.js'
import { Random } from '../core/random.js'
import { mean, quantileSorted } from './quantile.js'

export interface BootstrapOptions {
  seed: number
  /** Resamples drawn. Default 2000. */
  iterations?: number
  /** Coverage of the interval. Default 0.95. */
  level?: number
}

/** A mean with its percentile-bootstrap interval; every field but n is null when there are no values. */
export interface MeanInterval {
  mean: number | null
  low: number | null
  high: number | null
  n: number
}

/**
 * Mean with a percentile-bootstrap interval: `iterations` resamples with replacement drawn from a
 * `Random(seed)`, quantiles by linear interpolation. Same values and seed, same interval.
 */
export function bootstrapMeanInterval(values: readonly number[], options: BootstrapOptions): MeanInterval {
  const { iterations, level } = checkOptions(values, options)
  const n = values.length
  if (n === 0) return { mean: null, low: null, high: null, n: 0 }
  const means = resampleMeans(values, options.seed, iterations)
  const tail = (1 - level) / 2
  return { mean: mean(values), low: quantileSorted(means, tail), high: quantileSorted(means, 1 - tail), n }
}

export interface PairedBootstrapResult extends MeanInterval {
  /** Two-sided bootstrap p-value for mean delta = 0 (interval inversion; see `pairedBootstrap`). */
  p: number
}

/**
 * Bootstrap of paired differences: the mean delta, its percentile interval and a two-sided p-value by
 * interval inversion, p = 2·min(#δ* ≤ 0, #δ* ≥ 0) + 1 over iterations + 1, capped at 1 (the +1 keeps a
 * finite resample from claiming p = 0). With no deltas p is 1.
 */
export function pairedBootstrap(deltas: readonly number[], options: BootstrapOptions): PairedBootstrapResult {
  const { iterations, level } = checkOptions(deltas, options)
  const n = deltas.length
  if (n === 0) return { mean: null, low: null, high: null, n: 0, p: 1 }
  const means = resampleMeans(deltas, options.seed, iterations)
  let atOrBelow = 0
  let atOrAbove = 0
  for (const m of means) {
    if (m <= 0) atOrBelow++
    if (m >= 0) atOrAbove++
  }
  const tail = (1 - level) / 2
  return {
    mean: mean(deltas),
    low: quantileSorted(means, tail),
    high: quantileSorted(means, 1 - tail),
    n,
    p: Math.min(1, (2 * Math.min(atOrBelow, atOrAbove) + 1) / (iterations + 1)),
  }
}

/** Sorted means of `iterations` resamples with replacement. */
export function resampleMeans(values: readonly number[], seed: number, iterations: number): Float64Array {
  const n = values.length
  const means = new Float64Array(iterations)
  if (values.every((v) => Object.is(v, values[0]))) {
    // Every draw is the same value, so every resample sums identically: add it up once (same order, same
    // rounding) instead of drawing n × iterations random indices.
    let sum = 0
    for (let i = 0; i < n; i++) sum += values[0]!
    return means.fill(sum / n)
  }
  const rng = new Random(seed)
  for (let it = 0; it < iterations; it++) {
    let sum = 0
    for (let i = 0; i < n; i++) sum += values[Math.floor(rng.next() * n)]!
    means[it] = sum / n
  }
  return means.sort()
}

function checkOptions(values: readonly number[], options: BootstrapOptions): { iterations: number; level: number } {
  const iterations = options.iterations ?? 2000
  const level = options.level ?? 0.95
  if (!Number.isInteger(options.seed)) throw new InputError(`bootstrap: seed must be an integer, got ${options.seed}`)
  if (!Number.isInteger(iterations) || iterations < 1) {
    throw new InputError(`bootstrap: iterations must be a positive integer, got ${iterations}`)
  }
  if (!(level > 0 && level < 1)) throw new InputError(`bootstrap: level must be in (0, 1), got ${level}`)
  values.forEach((v, i) => {
    if (!Number.isFinite(v)) throw new InputError(`bootstrap: value ${i} is not a finite number (${v})`)
  })
  return { iterations, level }
}
