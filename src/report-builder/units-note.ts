import type { Aggregate } from './aggregate.js'
import { unitsText } from '../stats/units.js'

/** The opening of every units note, whatever the output kind. */
export const UNITS_NOTE_LEAD =
  'Intervals follow the units (a case, a conversation or a generated dataset; see docs/statistics.md)'

/** One group whose intervals are not over independent runs: its units, its runs, and how its intervals are drawn. */
interface UnitsNoteEntry {
  group: string
  /** `1 case`, `3 conversations`. */
  units: string
  runs: number
  how: string
  /** What the units summary adds (mixed units, …); empty when nothing. */
  note: string
}

/** The groups a units note names, in the aggregates' order; none when every group's units are single runs. */
export function unitsNoteEntries(aggregates: readonly Aggregate[]): UnitsNoteEntry[] {
  return aggregates.flatMap((a) => {
    const m = a.intervalMethods
    if (m.score === 'wilson' && (m.f1 === null || m.f1 === 't') && a.units.units !== 1) return []
    const how =
      a.units.units === 1
        ? "interval over this one unit's trials, which says nothing of other cases"
        : 'clustered by unit: Wilson on the cluster-robust effective n, F1 by a t interval over units'
    return [
      {
        group: a.group,
        units: unitsText(a.units),
        runs: a.trialsRequested - a.trialsSkipped,
        how,
        note: a.units.note ?? '',
      },
    ]
  })
}

/**
 * One sentence naming each group's unit where its intervals are not over independent runs:
 * `Intervals follow the units …: mock · hospital: 1 case, 6 runs (interval over this one unit's trials, …); …`.
 * Empty when every group's units are single runs (plain Wilson and t intervals). Group names come from
 * agents and data: `escapeName` makes them safe for the output kind (Markdown text, terminal text).
 */
export function unitsNote(aggregates: readonly Aggregate[], escapeName: (text: string) => string): string {
  const parts = unitsNoteEntries(aggregates).map(
    (e) =>
      `${escapeName(e.group)}: ${e.units}, ${e.runs} run${e.runs === 1 ? '' : 's'} (${e.how}${e.note ? `; ${e.note}` : ''})`,
  )
  return parts.length ? `${UNITS_NOTE_LEAD}: ${parts.join('; ')}.` : ''
}
