import { InputError } from '../core/errors.js'
import { mcnemar } from './mcnemar.js'

/**
 * The smallest two-sided p a paired test can reach on `units` paired units: every unit discordant in one
 * direction. For McNemar's exact test that is 2 · 0.5^units (0.25 at 3 units); the sign-flip test on per-unit
 * means reaches the same bound while it enumerates (up to 16 units). A gate whose units cannot get below alpha
 * can never fire on its tests.
 */
export function smallestReachableP(units: number): number {
  if (!(Number.isInteger(units) && units > 0)) return 1
  return mcnemar(units, 0).p
}

/** The fewest units whose smallest reachable p is below alpha (6 at α = 0.05, 8 at α = 0.01). */
export function unitsNeeded(alpha: number): number {
  let n = 1
  while (smallestReachableP(n) >= alpha && n < 10_000) n++
  return n
}

/** The name earlier versions used. */
export const pairsNeeded = unitsNeeded

export interface Power {
  /** Paired units the test used. */
  units: number
  /** Smallest p these units can give. */
  smallestP: number
  /** Units needed for a p below alpha. */
  unitsNeeded: number
  /** False when no outcome of these units could reach alpha: the test cannot flag a regression. */
  canReachAlpha: boolean
}

export function pairedPower(units: number, alpha: number): Power {
  const smallestP = smallestReachableP(units)
  return { units, smallestP, unitsNeeded: unitsNeeded(alpha), canReachAlpha: smallestP < alpha }
}

/** Standard normal quantile by Acklam's rational approximation (relative error below 1.2e-9). */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new InputError(`normalQuantile: p must be in (0, 1), got ${p}`)
  const a = [-3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2, -3.066479806614716e1, 2.506628277459239]
  const b = [-5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1]
  const c = [-7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783]
  const d = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416]
  const low = 0.02425
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p))
    return (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) / ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1)
  }
  if (p > 1 - low) return -normalQuantile(1 - p)
  const q = p - 0.5
  const r = q * q
  return ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) /
    (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1)
}

/**
 * Minimum detectable effect of a paired comparison over `units` units (Miller 2024, §5, power formula):
 * MDE = (z_{1−α/2} + z_{power}) · σ_δ / √units, σ_δ the standard deviation of the per-unit differences.
 * Null when there are no units, when σ_δ is unknown (fewer than 2 units) or when the units cannot reach alpha at all.
 */
export function minimumDetectableEffect(options: { units: number; sd: number | null; alpha: number; power?: number }): number | null {
  const power = options.power ?? 0.8
  const { units, sd, alpha } = options
  if (sd === null || units < 2 || !smallestReachablePBelow(units, alpha)) return null
  return ((normalQuantile(1 - alpha / 2) + normalQuantile(power)) * sd) / Math.sqrt(units)
}

function smallestReachablePBelow(units: number, alpha: number): boolean {
  return smallestReachableP(units) < alpha
}

/** Sample standard deviation (n − 1); null below two values. */
export function sampleSd(values: readonly number[]): number | null {
  if (values.length < 2) return null
  let sum = 0
  for (const v of values) sum += v
  const m = sum / values.length
  let ss = 0
  for (const v of values) ss += (v - m) ** 2
  return Math.sqrt(ss / (values.length - 1))
}
