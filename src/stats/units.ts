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
 * conversation's unit. A row without a dataset sha256 joins its case (it never splits one).
 */
export function assignUnits(rows: readonly UnitRow[]): { keys: string[]; kinds: UnitKind[]; summary: UnitSummary } {
  // Per case: the first data seen, and whether another was seen too (then the case splits by data). A row
  // without a sha256 says nothing of its data: it never splits a case.
  const firstData = new Map<string, string>()
  const split = new Set<string>()
  for (const r of rows) {
    if (!r.datasetSha256) continue
    const data = dataKey(r)
    const first = firstData.get(r.caseId)
    if (first === undefined) firstData.set(r.caseId, data)
    else if (first !== data) split.add(r.caseId)
  }
  const keys: string[] = new Array(rows.length)
  const kinds: UnitKind[] = new Array(rows.length)
  const units = new Map<string, { kind: UnitKind; runs: number }>()
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!
    const isSplit = split.size > 0 && split.has(r.caseId)
    // The case id alone, or with its data after a NUL (no case id a person writes holds one). In a case that
    // split, a row without a sha256 is a unit of its own (its data unknown), never paired with known data.
    const key = isSplit ? `${r.caseId}\u0000${dataKey(r)}` : r.caseId
    const kind: UnitKind = r.turn !== null ? 'conversation' : isSplit ? 'generated data' : 'case'
    keys[i] = key
    kinds[i] = kind
    const unit = units.get(key)
    if (!unit) units.set(key, { kind, runs: 1 })
    else {
      unit.runs++
      if (kind === 'conversation') unit.kind = kind
    }
  }
  return { keys, kinds, summary: summarizeUnits(units) }
}

function dataKey(r: UnitRow): string {
  return r.datasetSha256 ? `${r.datasetSha256.dirty}:${r.datasetSha256.clean}` : ''
}

function summarizeUnits(units: ReadonlyMap<string, { kind: UnitKind; runs: number }>): UnitSummary {
  const byKind: Partial<Record<UnitKind, number>> = {}
  let min = Number.POSITIVE_INFINITY
  let max = 0
  for (const { kind, runs } of units.values()) {
    byKind[kind] = (byKind[kind] ?? 0) + 1
    if (runs < min) min = runs
    if (runs > max) max = runs
  }
  const present = (Object.keys(byKind) as UnitKind[]).sort(compareText)
  const runsPerUnit = units.size ? { min, max } : { min: 0, max: 0 }
  const notes: string[] = []
  if (present.length > 1)
    notes.push(
      `mixed units (${present.map((k) => `${byKind[k]} ${plural(k, byKind[k]!)}`).join(', ')}): each counts as one unit`,
    )
  if (runsPerUnit.min !== runsPerUnit.max) {
    notes.push(
      `units hold ${runsPerUnit.min} to ${runsPerUnit.max} runs: paired tests weigh each unit once (its mean), intervals weigh each run`,
    )
  }
  return {
    unit: present.length === 1 ? present[0]! : present.length === 0 ? 'case' : 'mixed',
    units: units.size,
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
