import { counted, formatNumber, formatP, formatPClause, formatSigned } from '../stats/number-format.js'
import { namesText } from './compare-units.js'
import type { PairedGroupComparison, TestMethod } from './compare.js'
import { unitsText as formatUnits } from '../stats/units.js'

/**
 * The one wording of a paired verdict, shared by the gate's messages, the terminal, the leaderboard and
 * `compare`. Every p names the test behind it.
 */

interface VerdictSettings {
  alpha: number
  floor: number | null
  /** What side A is called in sentences: 'baseline', 'A', 'the previous run'. */
  against: string
}

/** The name of the test behind a p, as every report prints it. */
export function testName(method: TestMethod): string {
  switch (method) {
    case 'mcnemar-exact':
      return 'McNemar exact'
    case 'mcnemar-chi2':
      return 'McNemar χ²'
    case 'sign-flip-exact':
      return 'sign-flip exact'
    case 'sign-flip-monte-carlo':
      return 'sign-flip Monte Carlo'
    case 'two-sample-exact':
      return 'two-sample permutation exact'
    case 'two-sample-monte-carlo':
      return 'two-sample permutation Monte Carlo'
    case 'deterministic':
      return 'deterministic (exact, no p)'
    case 'none':
      return 'none'
  }
}

/**
 * `pass/fail McNemar exact b=1 c=0 p=1.0000 · F1 sign-flip exact p=0.0020 (8 cases)`; for one unit the trials'
 * two-sample tests, and for a deterministic change the exact deltas.
 */
export function testsText(g: PairedGroupComparison): string {
  const units = unitsText(g)
  if (g.method === 'deterministic') {
    return `deterministic change on ${units} (every trial identical on each side, ${g.rows.a} vs ${g.rows.b} trials): exact, no p-value${exactText(g)}`
  }
  if (g.method === 'untestable') return untestableText(g)
  const secondary = (metric: 'f1' | 'pass/fail') =>
    g.primaryMetric && g.primaryMetric !== metric ? ' (shown, not gating)' : ''
  const f1 =
    g.f1 && g.f1.p !== null
      ? `F1 ${testName(g.f1.test)} ${pClause(g.f1.p, g.f1.pAdjusted)}${secondary('f1')}`
      : 'F1 n/a'
  if (g.method === 'two-sample') {
    return `${units}: trials as two samples (${g.rows.a} vs ${g.rows.b}): pass/fail ${testName(g.passFailTest)} ${pClause(g.p, g.pAdjusted)}${secondary('pass/fail')} · ${f1}`
  }
  const counts = g.mcnemar ? ` b=${g.mcnemar.b} c=${g.mcnemar.c}` : ''
  const f1Units = g.f1 && g.f1.n !== g.n ? `, F1 on ${g.f1.n}` : ''
  return `pass/fail ${testName(g.passFailTest)}${counts} ${pClause(g.p, g.pAdjusted)}${secondary('pass/fail')} · ${f1} (${units}${f1Units})`
}

/** `p=0.0123`, and where Holm's correction raised it `p=0.0123 (Holm 0.0492)`. */
function pClause(p: number | null, adjusted: number | null | undefined): string {
  const raw = formatPClause(p, true)
  return adjusted !== null && adjusted !== undefined && p !== null && formatP(adjusted) !== formatP(p)
    ? `${raw} (Holm ${formatP(adjusted)})`
    : raw
}

/** `; exact on 3 units: dropped on q03` for a group compared exactly unit by unit; empty for one unit or a group that was tested. */
function exactText(g: PairedGroupComparison): string {
  const e = g.exact
  if (!e || g.method !== 'deterministic') return ''
  const moved = [
    e.dropped.length ? `dropped on ${namesText(e.dropped)}` : '',
    e.gained.length ? `gained on ${namesText(e.gained)}` : '',
  ]
    .filter(Boolean)
    .join(', ')
  if (g.method === 'deterministic' && g.units === 1) return ''
  return `; exact on ${counted(e.units, 'unit')}${moved ? `: ${moved}` : ': no change'}`
}

/**
 * One unit that is not exact, with too few trials for the two-sample test: `1 case with 1 vs 1 trials, too few for
 * a test (add trials: 4 a side, or 2 identical a side for a deterministic agent; or add cases)`. The facts and the
 * remedy only: the label (`untestable here`) or the gate's reason (`new failures`) goes before it.
 */
function untestableText(g: PairedGroupComparison): string {
  return `${unitsText(g)} with ${g.rows.a} vs ${g.rows.b} trials, too few for a test (${untestableRemedy(g)})`
}

/** What makes an untestable unit testable: `add trials: 4 a side, or 2 identical a side for a deterministic agent; or add cases`. */
export function untestableRemedy(g: Pick<PairedGroupComparison, 'power'>): string {
  return `add trials: ${g.power.trialsNeeded ?? 4} a side, or 2 identical a side for a deterministic agent; or add cases`
}

/** `17 cases`, `3 conversations`, `1 generated dataset`, `5 units (mixed)`. */
export function unitsText(g: { unit: PairedGroupComparison['unit']; units: number }): string {
  return formatUnits({ unit: g.unit, units: g.units })
}

/** `Δscore -0.125, ΔF1 -0.125`: deltas are B − A over the paired units. */
export function deltasText(g: PairedGroupComparison): string {
  return `Δscore ${formatSigned(g.delta)}, ΔF1 ${g.f1 ? formatSigned(g.f1.meanDelta) : 'n/a'}`
}

/** What a verdict's wording needs of a paired comparison (the HTML page takes deltas with no more than this). */
interface VerdictFacts {
  isNew?: boolean
  /** `deterministic` words the verdict as an exact change; `untestable` as one that needs more trials. */
  method?: string
  n: number
  significantWorse: boolean
  significantBetter?: boolean
  belowFloor: boolean
  f1?: { significantWorse?: boolean; significantBetter?: boolean } | null
  /** Why the group failed, as the comparison worded it; when present it is the label. */
  reasons?: readonly string[]
}

/** How the verdict reads to someone deciding on it: failing, better, unchanged or not compared. */
type VerdictTone = 'bad' | 'good' | 'ok' | 'muted'

/** A short label: what the gate concluded for the group. */
export function verdictLabel(g: VerdictFacts): string {
  if (g.isNew) return 'new'
  if (g.n === 0) return 'no pairs'
  if (g.reasons?.length) return g.reasons.join(', ')
  const parts: string[] = []
  const exact = g.method === 'deterministic'
  const drop = exact ? 'deterministic drop' : 'regression'
  if (!g.reasons) {
    if (g.significantWorse) parts.push(`${drop} (pass/fail)`)
    if (g.f1?.significantWorse) parts.push(`${drop} (F1)`)
    if (g.belowFloor) parts.push('below floor')
  }
  if (parts.length) return parts.join(', ')
  if (g.significantBetter || g.f1?.significantBetter) return exact ? 'better (deterministic)' : 'better'
  if (g.method === 'untestable') return 'untestable here'
  return exact ? 'no deterministic drop' : 'no significant change'
}

export function verdictTone(g: VerdictFacts | null): VerdictTone {
  if (!g || g.isNew || g.n === 0) return 'muted'
  if (g.reasons ? g.reasons.length > 0 : g.significantWorse || g.f1?.significantWorse || g.belowFloor) return 'bad'
  if (g.method === 'untestable') return 'muted'
  return g.significantBetter || g.f1?.significantBetter ? 'good' : 'ok'
}

/** A group's row against the baseline: `new (not in the baseline)`, `no pairs`, or the verdict's label. */
export function deltaLabel(d: { status?: 'compared' | 'new'; before: unknown; verdict: VerdictFacts | null }): string {
  if (d.status === 'new' || d.before === null) return 'new (not in the baseline)'
  return d.verdict ? verdictLabel(d.verdict) : 'no pairs'
}

/** The line for a group the other side does not have. */
export function newGroupLine(name: string, against: string): string {
  return `${name}: new (no counterpart in the ${against}; not compared)`
}

/**
 * Empty when the test can reach alpha (and always for a deterministic change); else, in units, why it cannot:
 * `with 4 cases no paired test reaches α=0.05 (smallest p 0.1250); 6 cases are needed`.
 */
export function powerText(g: PairedGroupComparison, alpha: number): string {
  if (g.n === 0 || g.method === 'deterministic' || g.method === 'untestable' || g.power.canReachAlpha) return ''
  if (g.power.basis === 'trials') {
    return `underpowered: one unit with ${g.rows.a} and ${g.rows.b} trials: the smallest possible p is ${formatP(g.power.smallestP)}, so α=${alpha} cannot be reached; run more trials, or add cases to test across cases`
  }
  const needed = formatUnits({ unit: g.unit, units: g.power.unitsNeeded })
  return `underpowered: with ${unitsText(g)} no paired test reaches α=${alpha} (smallest possible p ${formatP(g.power.smallestP)}); ${needed} are needed`
}

/** `ΔScore ±0.21, ΔF1 ±0.08`: what the units can detect (α, power 0.8); empty when it cannot be stated. */
export function detectableText(g: PairedGroupComparison): string {
  if (g.method !== 'paired' || !g.power.canReachAlpha) return ''
  const parts = [
    g.power.mde.score === null ? null : `ΔScore ±${formatNumber(g.power.mde.score)}`,
    g.power.mde.f1 === null ? null : `ΔF1 ±${formatNumber(g.power.mde.f1)}`,
  ].filter((x) => x !== null)
  const level = (g.holmTests ?? 1) > 1 ? ` at α/${g.holmTests} (Holm)` : ''
  return parts.length ? `detectable with ${unitsText(g)} (80% power${level}): ${parts.join(', ')}` : ''
}

/** One line per group: `name: verdict: tests, deltas; floor; failures; power; units; family`. */
export function verdictLine(g: PairedGroupComparison, s: VerdictSettings): string {
  const name = g.key === null ? 'overall' : g.group
  if (g.isNew) return newGroupLine(name, s.against)
  if (g.n === 0) return `${name}: no unit in common with ${theSide(s.against)}${g.unitNote ? ` (${g.unitNote})` : ''}`
  let text = `${name}: ${verdictLabel(g)} vs ${s.against} (α=${s.alpha}): ${testsText(g)}; ${deltasText(g)}`
  if (g.belowFloor) text += `; Score ${formatNumber(g.current.score)} is below the floor ${s.floor}`
  if (g.failedWhereScored?.length) {
    text += `; runs failed (crash, timeout or budget) on ${namesText(g.failedWhereScored)}, where ${theSide(s.against)} scored on every run`
  }
  if (g.status === 'nothing-scored') text += `; no run of either side scored: the gate fails closed`
  const power = powerText(g, s.alpha)
  if (power) text += `; ${power}`
  if (g.unitNote) text += `; ${g.unitNote}`
  if ((g.holmTests ?? 1) > 1) text += `; Holm-corrected over ${g.holmTests} tests`
  return text
}

/** `A` stays bare; `baseline` reads `the baseline`. */
function theSide(against: string): string {
  return against.length === 1 ? against : `the ${against}`
}
