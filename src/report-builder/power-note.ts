import type { GroupDelta } from './baseline.js'
import { powerText, unitsText, untestableRemedy } from './comparison-verdict.js'

/**
 * The groups compared with the baseline whose units can never give a paired p below α: they fail only through a
 * threshold or the floor. Said once per run (one line listing them), not as a warning per group: no care in a
 * pull request can clear it, only more cases (or, for one unit, more trials).
 */
function underpoweredGroups(deltas: readonly GroupDelta[], alpha: number): GroupDelta[] {
  return deltas.filter((d) => d.status === 'compared' && d.verdict !== null && powerText(d.verdict, alpha) !== '')
}

/**
 * `underpowered: 2 groups have too few units for a paired test to reach α=0.05 (6 are needed), so they fail only
 * through a threshold or the floor: baseline · synthetic (3 generated datasets), conformance (2 cases)`; empty when
 * every compared group can reach α. `escapeName` makes group names safe for the output kind.
 */
export function underpoweredLine(
  deltas: readonly GroupDelta[],
  alpha: number,
  escapeName: (text: string) => string = (t) => t,
): string {
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

/**
 * `untestable here: 3 groups have one unit with too few trials for a test: products (1 case), …; add trials: 4 a
 * side, or 2 identical a side for a deterministic agent; or add cases`, once per remedy; empty when no group is.
 */
export function untestableLines(
  deltas: readonly GroupDelta[],
  escapeName: (text: string) => string = (t) => t,
): string[] {
  const byRemedy = new Map<string, string[]>()
  for (const d of deltas) {
    if (d.status !== 'compared' || d.verdict?.method !== 'untestable') continue
    const remedy = untestableRemedy(d.verdict)
    byRemedy.set(remedy, [...(byRemedy.get(remedy) ?? []), `${escapeName(d.group)} (${unitsText(d.verdict)})`])
  }
  return [...byRemedy].map(([remedy, named]) => {
    const many = named.length === 1 ? '1 group has' : `${named.length} groups have`
    return `untestable here: ${many} one unit with too few trials for a test: ${named.join(', ')}; ${remedy}`
  })
}

/**
 * A delta's verdict line without the clauses said once for the run: the power clause (`underpoweredLine`) and an
 * untestable unit's remedy (`untestableLines`).
 */
export function withoutPowerClause(d: GroupDelta, alpha: number): string {
  const compared = d.verdict && d.status === 'compared' ? d.verdict : null
  const power = compared ? powerText(compared, alpha) : ''
  const message = power ? d.message.replace(`; ${power}`, '') : d.message
  return compared?.method === 'untestable' ? message.replace(` (${untestableRemedy(compared)})`, '') : message
}
