import type { CellIssue } from '../core/repair-score.js'
import type { RunRecord } from '../core/run-record.js'

type CellVerdict = 'right' | 'wrong value' | 'over-repair' | 'wrong cell' | 'missed' | 'column case'

/** One graded cell of a repair run: where, what the agent saw and proposed, and the grader's verdict. */
export interface GradedCell {
  row: number
  column: string
  /** The dirty value the agent saw; undefined when the record does not keep it (a right fix). */
  dirty: string | undefined
  /** The agent's value; undefined for a missed cell (left unchanged). */
  agent: string | undefined
  verdict: CellVerdict
}

export const cellKey = (row: number, column: string) => `${row}\u0000${column}`

/**
 * The cells a repair run touched or should have, graded, sorted by row then column. Read from the record
 * alone: `diagnostics` names every wrong, over-repaired, misplaced and missed cell; a fix in `fixes` that none
 * of them names was right. Records never keep clean values, so neither does this.
 */
export function gradedCells(record: RunRecord): GradedCell[] {
  const d = record.diagnostics
  if (!d) return []
  const cells: GradedCell[] = []
  const named = new Set<string>()
  const take = (verdict: CellVerdict, issues: readonly CellIssue[]) => {
    for (const c of issues) {
      named.add(cellKey(c.row, c.column))
      cells.push({
        row: c.row,
        column: c.column,
        dirty: c.dirty,
        agent: verdict === 'missed' ? undefined : c.got,
        verdict,
      })
    }
  }
  take('wrong value', d.wrongValue)
  take('over-repair', d.overRepair)
  take('wrong cell', d.wrongCell)
  take('column case', d.caseInsensitiveColumn)
  take('missed', d.missedRepair)
  for (const fix of record.fixes ?? []) {
    if (!named.has(cellKey(fix.row, fix.column)))
      cells.push({ row: fix.row, column: fix.column, dirty: undefined, agent: fix.newValue, verdict: 'right' })
  }
  return cells.sort((a, b) => a.row - b.row || (a.column < b.column ? -1 : a.column > b.column ? 1 : 0))
}

/** How many right cells the record counts (tp) but does not list (its fixes cut by the size policy, or an oracle's). */
export function unlistedRightCells(record: RunRecord, cells: readonly GradedCell[]): number {
  const listed = cells.filter((c) => c.verdict === 'right').length
  return Math.max(0, (record.tp ?? 0) - listed)
}

/** The columns of a run's cells that were not right: what the index's column filter matches. */
export function problemColumns(record: RunRecord): string[] {
  const d = record.diagnostics
  if (!d) return []
  const columns = new Set<string>()
  for (const list of [d.wrongValue, d.overRepair, d.wrongCell, d.caseInsensitiveColumn, d.missedRepair])
    for (const c of list) columns.add(c.column)
  return [...columns].sort()
}

type RunKind = 'repair' | 'question' | 'conformance'

/** One layout for all runs; this names which body it shows. */
export function runKind(record: RunRecord): RunKind {
  if (record.diagnostics !== null || record.f1 !== null || record.fixes !== null) return 'repair'
  // A failed repair run keeps no score; its data's dirty and clean digests differ (a question's are one).
  if (record.datasetSha256 && record.datasetSha256.dirty !== record.datasetSha256.clean) return 'repair'
  if ('conformanceScore' in record.metrics || Object.keys(record.metrics).some((k) => k.startsWith('conformance.')))
    return 'conformance'
  return 'question'
}
