import type { GroupDelta } from './baseline.js'
import { powerText, unitsText } from './comparison-verdict.js'

/**
 * The groups compared with the baseline whose units can never give a paired p below α: they fail only through a
 * threshold or the floor. Said once per run (one line listing them), not as a warning per group: no care in a
 * pull request can clear it, only more cases (or, for one unit, more trials).
 */
export function underpoweredGroups(deltas: readonly GroupDelta[], alpha: number): GroupDelta[] {
  return deltas.filter((d) => d.status === 'compared' && d.verdict !== null && powerText(d.verdict, alpha) !== '')
}

/**
 * `underpowered: 2 groups have too few units for a paired test to reach α=0.05 (6 are needed), so they fail only
 * through a threshold or the floor: baseline · synthetic (3 generated datasets), conformance (2 cases)`; empty when
 * every compared group can reach α. `escapeName` makes group names safe for the output kind.
 */
export function underpoweredLine(deltas: readonly GroupDelta[], alpha: number, escapeName: (text: string) => string = (t) => t): string {
  const groups = underpoweredGroups(deltas, alpha)
  if (!groups.length) return ''
  const needed = groups.map((d) => d.verdict!.power).find((p) => p.basis !== 'trials')?.unitsNeeded
  const named = groups.map((d) => {
    const v = d.verdict!
    return `${escapeName(d.group)} (${unitsText(v)}${v.power.basis === 'trials' ? `, ${v.rows.a} vs ${v.rows.b} trials: add trials` : ''})`
  })
  const many = groups.length === 1 ? '1 group has' : `${groups.length} groups have`
  return `underpowered: ${many} too few units for a paired test to reach α=${alpha}${needed === undefined ? '' : ` (${needed} are needed)`}, so ${groups.length === 1 ? 'it fails' : 'they fail'} only through a threshold or the floor: ${named.join(', ')}`
}

/** A delta's verdict line without its power clause, which `underpoweredLine` says once for the run. */
export function withoutPowerClause(d: GroupDelta, alpha: number): string {
  const power = d.verdict && d.status === 'compared' ? powerText(d.verdict, alpha) : ''
  return power ? d.message.replace(`; ${power}`, '') : d.message
}
