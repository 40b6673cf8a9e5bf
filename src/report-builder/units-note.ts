import type { Aggregate } from './aggregate.js'
import { unitsText } from '../stats/units.js'

/**
 * One sentence naming each group's unit where its intervals are not over independent runs:
 * `Intervals follow the units …: mock · hospital: 1 case, 6 runs (interval over this one unit's trials, …); …`.
 * Empty when every group's units are single runs (plain Wilson and bootstrap intervals). Group names come from
 * agents and data: `escapeName` makes them safe for the output kind (Markdown text, terminal text).
 */
export function unitsNote(aggregates: readonly Aggregate[], escapeName: (text: string) => string): string {
  const parts = aggregates.flatMap((a) => {
    const m = a.intervalMethods
    if (m.score === 'wilson' && (m.f1 === null || m.f1 === 'bootstrap') && a.units.units !== 1) return []
    const runs = a.trialsRequested - a.trialsSkipped
    const how =
      a.units.units === 1
        ? "interval over this one unit's trials, which says nothing of other cases"
        : 'clustered by unit: Wilson on the cluster-robust effective n, F1 by a bootstrap of whole units'
    const note = a.units.note ? `; ${a.units.note}` : ''
    return [`${escapeName(a.group)}: ${unitsText(a.units)}, ${runs} run${runs === 1 ? '' : 's'} (${how}${note})`]
  })
  return parts.length ? `Intervals follow the units (a case, a conversation or a generated dataset; see docs/statistics.md): ${parts.join('; ')}.` : ''
}
