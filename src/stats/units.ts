import { compareText } from '../core/order.js'

/**
 * The unit of analysis. A case (a question, a conversation, a repair task with its own data) is one unit; the
 * trials that share its data are nested samples of it; a conversation's turns cluster within the conversation;
 * trials whose seed made new data (a different dataset sha256) are units of their own.
 */
export type UnitKind = 'case' | 'conversation' | 'generated data'

/** What a row needs for its unit: its case, turn, trial and the data it ran on. */
export interface UnitRow {
  caseId: string
  turn: number | null
  trial: number
  datasetSha256: { dirty: string; clean: string } | null
}

/** A group's units, as every report names them. */
export interface UnitSummary {
  /** What one unit is: a kind, or `mixed` when the group holds several kinds (see `note`). */
  unit: UnitKind | 'mixed'
  /** How many units. */
  units: number
  /** Units of each kind present. */
  byKind: Partial<Record<UnitKind, number>>
  /** Fewest and most runs (trials × turns) in a unit. */
  runsPerUnit: { min: number; max: number }
  /** The rule applied when units are mixed or unequal; null when every unit is alike. */
  note: string | null
}

/**
 * The unit key of every row, in row order, and their summary. A case whose trials ran on different data (a
 * synthetic seed per trial) splits into one unit per distinct data; a row with a turn belongs to its
 * conversation's unit. Rows without a dataset sha256 fall back to their case.
 */
export function assignUnits(rows: readonly UnitRow[]): { keys: string[]; kinds: UnitKind[]; summary: UnitSummary } {
  const dataByCase = new Map<string, Set<string>>()
  for (const r of rows) {
    const set = dataByCase.get(r.caseId)
    if (set) set.add(dataKey(r))
    else dataByCase.set(r.caseId, new Set([dataKey(r)]))
  }
  const keys: string[] = []
  const kinds: UnitKind[] = []
  const unitKinds = new Map<string, UnitKind>()
  const runs = new Map<string, number>()
  for (const r of rows) {
    const split = dataByCase.get(r.caseId)!.size > 1
    const key = split ? JSON.stringify([r.caseId, dataKey(r)]) : JSON.stringify([r.caseId])
    const kind: UnitKind = r.turn !== null ? 'conversation' : split ? 'generated data' : 'case'
    keys.push(key)
    kinds.push(kind)
    if (!unitKinds.has(key) || kind === 'conversation') unitKinds.set(key, kind)
    runs.set(key, (runs.get(key) ?? 0) + 1)
  }
  return { keys, kinds, summary: summarizeUnits(unitKinds, runs) }
}

function dataKey(r: UnitRow): string {
  return r.datasetSha256 ? `${r.datasetSha256.dirty}:${r.datasetSha256.clean}` : ''
}

function summarizeUnits(unitKinds: ReadonlyMap<string, UnitKind>, runs: ReadonlyMap<string, number>): UnitSummary {
  const byKind: Partial<Record<UnitKind, number>> = {}
  for (const kind of unitKinds.values()) byKind[kind] = (byKind[kind] ?? 0) + 1
  const present = (Object.keys(byKind) as UnitKind[]).sort(compareText)
  const counts = [...runs.values()]
  const runsPerUnit = counts.length ? { min: Math.min(...counts), max: Math.max(...counts) } : { min: 0, max: 0 }
  const notes: string[] = []
  if (present.length > 1) notes.push(`mixed units (${present.map((k) => `${byKind[k]} ${plural(k, byKind[k]!)}`).join(', ')}): each counts as one unit`)
  if (runsPerUnit.min !== runsPerUnit.max) {
    notes.push(`units hold ${runsPerUnit.min} to ${runsPerUnit.max} runs: paired tests weigh each unit once (its mean), intervals weigh each run`)
  }
  return {
    unit: present.length === 1 ? present[0]! : present.length === 0 ? 'case' : 'mixed',
    units: unitKinds.size,
    byKind,
    runsPerUnit,
    note: notes.length ? notes.join('; ') : null,
  }
}

/** `case`/`cases`, `conversation`/`conversations`, `generated data` (no plural). */
export function plural(kind: UnitKind | 'mixed', n: number): string {
  if (kind === 'generated data') return n === 1 ? 'generated dataset' : 'generated datasets'
  if (kind === 'mixed') return n === 1 ? 'unit' : 'units'
  return n === 1 ? kind : `${kind}s`
}

/** `17 cases`, `3 conversations`, `5 units (mixed)`. */
export function unitsText(summary: Pick<UnitSummary, 'unit' | 'units'>): string {
  return `${summary.units} ${plural(summary.unit, summary.units)}${summary.unit === 'mixed' ? ' (mixed)' : ''}`
}
