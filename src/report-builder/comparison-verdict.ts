import { formatNumber, formatP, formatSigned } from '../stats/number-format.js'
import type { PairedGroupComparison } from './compare.js'

/**
 * The one wording of a paired verdict, shared by the gate's messages, the terminal, the leaderboard and
 * `compare`. Every p names the test behind it.
 */

export interface VerdictSettings {
  alpha: number
  floor: number | null
  /** What side A is called in sentences: 'baseline', 'A', 'the previous run'. */
  against: string
}

/** `pass/fail McNemar b=1 c=0 p=1.0000 · F1 paired p=0.0020 (8 pairs)`. */
export function testsText(g: PairedGroupComparison): string {
  const f1 = g.f1 ? `F1 paired p=${formatP(g.f1.p)}` : 'F1 paired n/a'
  const f1Pairs = g.f1 && g.f1.n !== g.n ? `, F1 on ${g.f1.n}` : ''
  return `pass/fail McNemar b=${g.b} c=${g.c} p=${formatP(g.p)} · ${f1} (${g.n} pairs${f1Pairs})`
}

/** `Δscore -0.125, ΔF1 -0.125`: deltas are B − A over the paired rows. */
export function deltasText(g: PairedGroupComparison): string {
  return `Δscore ${formatSigned(g.delta)}, ΔF1 ${g.f1 ? formatSigned(g.f1.meanDelta) : 'n/a'}`
}

/** What a verdict's wording needs of a paired comparison (the HTML page takes deltas with no more than this). */
export interface VerdictFacts {
  isNew?: boolean
  n: number
  significantWorse: boolean
  significantBetter?: boolean
  belowFloor: boolean
  f1?: { significantWorse?: boolean; significantBetter?: boolean } | null
}

/** How the verdict reads to someone deciding on it: failing, better, unchanged or not compared. */
export type VerdictTone = 'bad' | 'good' | 'ok' | 'muted'

/** A short label: what the gate concluded for the group. */
export function verdictLabel(g: VerdictFacts): string {
  if (g.isNew) return 'new'
  if (g.n === 0) return 'no pairs'
  const parts: string[] = []
  if (g.significantWorse) parts.push('regression (pass/fail)')
  if (g.f1?.significantWorse) parts.push('regression (F1)')
  if (g.belowFloor) parts.push('below floor')
  if (parts.length) return parts.join(', ')
  if (g.significantBetter || g.f1?.significantBetter) return 'better'
  return 'no significant change'
}

export function verdictTone(g: VerdictFacts | null): VerdictTone {
  if (!g || g.isNew || g.n === 0) return 'muted'
  if (g.significantWorse || g.f1?.significantWorse || g.belowFloor) return 'bad'
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

/** Empty when the pairs can reach alpha; else what the smallest p is and how many pairs would reach alpha. */
export function powerText(g: PairedGroupComparison, alpha: number): string {
  if (g.n === 0 || g.power.canReachAlpha) return ''
  return `underpowered: with ${g.n} pairs the smallest possible p is ${formatP(g.power.smallestP)}, so α=${alpha} cannot be reached; ${g.power.pairsNeeded} pairs (cases × trials) are needed`
}

/** One line per group: `name: verdict: tests, deltas; floor; power`. */
export function verdictLine(g: PairedGroupComparison, s: VerdictSettings): string {
  const name = g.key === null ? 'overall' : g.group
  if (g.isNew) return newGroupLine(name, s.against)
  if (g.n === 0) return `${name}: no paired rows in the ${s.against}`
  let text = `${name}: ${verdictLabel(g)} vs ${s.against} (α=${s.alpha}): ${testsText(g)}; ${deltasText(g)}`
  if (g.belowFloor) text += `; Score ${formatNumber(g.current.score)} is below the floor ${s.floor}`
  const power = powerText(g, s.alpha)
  if (power) text += `; ${power}`
  return text
}
