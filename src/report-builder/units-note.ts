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

/** Groups named in full in one part of a units note; past this, the first ones and a count of the others. */
const NAMED_GROUPS = 3

/**
 * One sentence naming each group's unit where its intervals are not over independent runs:
 * `Intervals follow the units …: mock · hospital: 1 case, 6 runs (interval over this one unit's trials, …); …`.
 * Groups alike (same units, runs and interval) share one part, `a, b and 98 other groups: 1 conversation, 10 runs
 * each (…)`, so a hundred conversations of one agent make one line; the HTML report's table names every group.
 * Empty when every group's units are single runs (plain Wilson and t intervals). Group names come from agents and
 * data: `escapeName` makes them safe for the output kind (Markdown text, terminal text).
 */
export function unitsNote(aggregates: readonly Aggregate[], escapeName: (text: string) => string): string {
  const alike = new Map<string, { groups: string[]; entry: UnitsNoteEntry }>()
  for (const entry of unitsNoteEntries(aggregates)) {
    const key = JSON.stringify([entry.units, entry.runs, entry.how, entry.note])
    const seen = alike.get(key)
    if (seen) seen.groups.push(entry.group)
    else alike.set(key, { groups: [entry.group], entry })
  }
  const parts = [...alike.values()].map(({ groups, entry: e }) => {
    const runs = `${e.runs} run${e.runs === 1 ? '' : 's'}${groups.length > 1 ? ' each' : ''}`
    return `${namedGroups(groups.map(escapeName))}: ${e.units}, ${runs} (${e.how}${e.note ? `; ${e.note}` : ''})`
  })
  return parts.length ? `${UNITS_NOTE_LEAD}: ${parts.join('; ')}.` : ''
}

/** `a`, `a and b`, `a, b and c`, `a, b and 98 other groups`. */
function namedGroups(names: readonly string[]): string {
  if (names.length === 1) return names[0]!
  if (names.length <= NAMED_GROUPS) return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`
  const shown = NAMED_GROUPS - 1
  return `${names.slice(0, shown).join(', ')} and ${names.length - shown} other groups`
}
