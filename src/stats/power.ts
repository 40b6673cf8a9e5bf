import { InputError } from '../core/errors.js'
import { mcnemar } from './mcnemar.js'
import { logGamma } from './incomplete-gamma.js'
import { erfc } from './special.js'
import { tQuantile } from './t-dist.js'

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
  const a = [
    -3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2, -3.066479806614716e1,
    2.506628277459239,
  ]
  const b = [-5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1]
  const c = [
    -7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ]
  const d = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416]
  const low = 0.02425
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p))
    return (
      (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) /
      ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1)
    )
  }
  if (p > 1 - low) return -normalQuantile(1 - p)
  const q = p - 0.5
  const r = q * q
  return (
    ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) /
    (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1)
  )
}

/**
 * Minimum detectable effect of a paired comparison over `units` units (Miller 2024, §5, power formula):
 * MDE = (z_{1−α/2} + z_{power}) · σ_δ / √units, σ_δ the standard deviation of the per-unit differences.
 * Null when there are no units, when σ_δ is unknown (fewer than 2 units) or when the units cannot reach alpha at all.
 */
export function minimumDetectableEffect(options: {
  units: number
  sd: number | null
  alpha: number
  power?: number
}): number | null {
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

/**
 * Exact power of the gate's McNemar test on `units` binary units to see a drop: each unit is lost (A correct,
 * B not) with probability ψ₀/2 + δ, gained with ψ₀/2, concordant otherwise, ψ₀ the discordance an unchanged
 * agent shows. Power = P(McNemar p < alpha and more lost than gained), summed over every (lost, gained) count.
 */
export function mcnemarDropPower(options: { units: number; noise: number; drop: number; alpha: number }): number {
  const { units: n, noise, drop, alpha } = options
  const pLost = noise / 2 + drop
  const pGained = noise / 2
  const discordant = pLost + pGained
  if (!(n >= 1) || discordant > 1 + 1e-12 || pLost <= 0) return 0
  const psi = Math.min(1, discordant)
  const share = pLost / discordant
  const lf = logFactorials(n)
  let power = 0
  // D discordant units ~ Bin(n, ψ); given D = d, the lost ones ~ Bin(d, share); the test rejects from criticalLost(d) up.
  for (let d = 1; d <= n; d++) {
    const k = criticalLost(d, alpha)
    if (k > d) continue
    const pD = binomialPmf(lf, n, d, psi)
    if (pD < 1e-15) continue
    // the upper tail of Bin(d, share) from k, by the ratio of successive terms (one exp per d)
    if (share >= 1) {
      power += pD
      continue
    }
    let term = binomialPmf(lf, d, k, share)
    let tail = term
    const odds = share / (1 - share)
    for (let b = k; b < d; b++) {
      term *= ((d - b) / (b + 1)) * odds
      tail += term
    }
    power += pD * tail
  }
  return Math.min(1, power)
}

function binomialPmf(lf: readonly number[], n: number, k: number, p: number): number {
  if (p <= 0) return k === 0 ? 1 : 0
  if (p >= 1) return k === n ? 1 : 0
  return Math.exp(lf[n]! - lf[k]! - lf[n - k]! + k * Math.log(p) + (n - k) * Math.log(1 - p))
}

const criticals = new Map<number, number[]>()

/** The fewest lost units among d discordant ones at which McNemar's p is below alpha (d + 1 when none is). */
function criticalLost(d: number, alpha: number): number {
  let table = criticals.get(alpha)
  if (!table) {
    if (criticals.size > 100) criticals.clear()
    table = []
    criticals.set(alpha, table)
  }
  const known = table[d]
  if (known !== undefined) return known
  // p falls as the split grows more lopsided: search the smallest b > d/2 that rejects
  let low = Math.floor(d / 2) + 1
  let high = d + 1
  while (low < high) {
    const mid = (low + high) >> 1
    if (mcnemar(mid, d - mid).p < alpha) high = mid
    else low = mid + 1
  }
  table[d] = low
  return low
}

function logFactorials(n: number): number[] {
  const out = [0]
  for (let i = 1; i <= n; i++) out.push(out[i - 1]! + Math.log(i))
  return out
}

/**
 * The smallest drop in Score (a share of binary units) the exact McNemar test detects with the given power
 * (default 0.8) at `alpha`, for `units` units whose unchanged discordance is `noise` (found by bisection on
 * `mcnemarDropPower`). Null when no drop up to losing every concordant unit reaches that power.
 */
export function mcnemarMde(options: { units: number; noise: number; alpha: number; power?: number }): number | null {
  const key = `${options.units}|${options.noise}|${options.alpha}|${options.power ?? 0.8}`
  const known = mcnemarMdes.get(key)
  if (known !== undefined) return known
  const found = findMcnemarMde(options)
  if (mcnemarMdes.size > 10_000) mcnemarMdes.clear()
  mcnemarMdes.set(key, found)
  return found
}

const mcnemarMdes = new Map<string, number | null>()

function findMcnemarMde(options: { units: number; noise: number; alpha: number; power?: number }): number | null {
  const target = options.power ?? 0.8
  const { units, alpha } = options
  const noise = Math.min(1, Math.max(0, options.noise))
  const most = 1 - noise
  const at = (drop: number) => mcnemarDropPower({ units, noise, drop, alpha })
  if (units < 1 || most <= 0 || at(most) < target) return null
  let low = 0
  let high = most
  for (let i = 0; i < 30; i++) {
    const mid = (low + high) / 2
    if (at(mid) >= target) high = mid
    else low = mid
  }
  return high
}

/**
 * The smallest mean drop the sign-flip test on `units` per-unit differences of standard deviation `sd` detects
 * with the given power (default 0.8) at `alpha`: λ · sd / √n, λ the noncentrality at which the two-sided one-sample
 * t test on n − 1 df has that power (exact noncentral t power, `tTestPower`); the permutation test follows the t
 * test closely (checked by simulation in test/stats/gate-power.test.ts). Null when sd is unknown, below 2 units, or
 * when the units cannot reach alpha at all.
 */
export function signFlipMde(options: {
  units: number
  sd: number | null
  alpha: number
  power?: number
}): number | null {
  const power = options.power ?? 0.8
  const { units, sd, alpha } = options
  if (sd === null || units < 2 || smallestReachableP(units) >= alpha) return null
  return (tNoncentrality(units - 1, alpha, power) * sd) / Math.sqrt(units)
}

const noncentralities = new Map<string, number>()

/** The noncentrality λ at which the two-sided t test on `df` degrees of freedom has `power` at `alpha` (memoized). */
function tNoncentrality(df: number, alpha: number, power: number): number {
  const key = `${df}|${alpha}|${power}`
  const known = noncentralities.get(key)
  if (known !== undefined) return known
  let low = 0
  let high = tQuantile(1 - alpha / 2, df) + tQuantile(power, df) + 1
  while (tTestPower(df, high, alpha) < power) high *= 2
  for (let i = 0; i < 50; i++) {
    const mid = (low + high) / 2
    if (tTestPower(df, mid, alpha) >= power) high = mid
    else low = mid
  }
  if (noncentralities.size > 10_000) noncentralities.clear()
  noncentralities.set(key, high)
  return high
}

/**
 * Power of the two-sided one-sample t test on `df` degrees of freedom against a noncentrality λ (the drop over
 * its standard error): P(|T′| > t_{1−α/2}), T′ = (Z + λ)/√(V/df), V ~ χ²_df, by Simpson's rule over w = √V (which
 * keeps the integrand finite at 0 for every df).
 */
export function tTestPower(df: number, lambda: number, alpha: number): number {
  const critical = tQuantile(1 - alpha / 2, df)
  const upper = Math.sqrt(df + 12 * Math.sqrt(2 * df) + 30)
  const steps = 600
  const h = upper / steps
  const logNorm = -(df / 2) * Math.LN2 - logGamma(df / 2)
  const phi = (x: number) => 0.5 * erfc(-x / Math.SQRT2)
  // the χ² density of w², times dv/dw = 2w: 2 · w^(df − 1) · e^(−w²/2) / (2^(df/2) Γ(df/2))
  const integrand = (w: number) => {
    if (w <= 0) return df === 1 ? 2 * Math.exp(logNorm) * (phi(lambda) + phi(-lambda)) : 0
    const weight = 2 * Math.exp(logNorm + (df - 1) * Math.log(w) - (w * w) / 2)
    const c = (critical * w) / Math.sqrt(df)
    return weight * (phi(lambda - c) + phi(-lambda - c))
  }
  let sum = 0
  for (let i = 0; i <= steps; i++) {
    const w = i === 0 || i === steps ? 1 : i % 2 ? 4 : 2
    sum += w * integrand(i * h)
  }
  return Math.min(1, (sum * h) / 3)
}
