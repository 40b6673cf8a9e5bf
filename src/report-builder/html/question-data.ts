import { groupBy } from '../../core/group-by.js'
import type { RunRecord } from '../../core/run-record.js'
import { sumUsage, tokensSpentAndSaved } from '../../core/usage.js'
import { meanOrNull } from '../../stats/quantile.js'
import { wilsonInterval, type ProportionInterval } from '../../stats/wilson.js'
import { isConformanceRecord } from '../../grading/conformance/metrics.js'
import { armName } from '../aggregate.js'
import { compareText } from '../../core/order.js'

/**
 * Question-suite runs: turns of a conversation, or runs of a suite that grades answers rather than repairs
 * (no repair counts on any of its runs, not a repair category, not a conformance check). Skipped runs are left out.
 */
export function questionRecords(records: readonly RunRecord[]): RunRecord[] {
  const repairSuites = new Set(records.filter((r) => r.tp !== null).map((r) => r.suite))
  return records.filter(
    (r) =>
      r.status !== 'skipped' &&
      !isConformanceRecord(r) &&
      (r.turn !== null || (r.tp === null && r.category !== 'repair' && !repairSuites.has(r.suite))),
  )
}

export interface GridCell {
  category: string
  arm: string
  correct: number
  attempted: number
  accuracy: ProportionInterval
}

/** Accuracy (correct / attempted, Wilson 95%) per category × agent/model. Categories fall back to the suite. */
export function categoryGrid(records: readonly RunRecord[]): GridCell[] {
  const cells = new Map<string, { category: string; arm: string; correct: number; attempted: number }>()
  for (const r of records) {
    const category = r.category ?? r.suite
    const arm = armName(r.agent, r.model)
    const key = JSON.stringify([category, arm])
    const cell = cells.get(key) ?? { category, arm, correct: 0, attempted: 0 }
    cell.attempted++
    if (r.correct === true) cell.correct++
    cells.set(key, cell)
  }
  return [...cells.values()]
    .sort((a, b) => (a.category === b.category ? compareText(a.arm, b.arm) : compareText(a.category, b.category)))
    .map((c) => ({ ...c, accuracy: wilsonInterval(c.correct, c.attempted) }))
}

interface ArmSummary {
  arm: string
  attempted: number
  correct: number
  accuracy: ProportionInterval
  stepsMean: number | null
  /** Distinct turns asked per case (1 for single-shot cases). */
  turnsPerCase: number
  tokens: number
  costUsd: number
  failed: number
}

export function armSummaries(records: readonly RunRecord[]): ArmSummary[] {
  return [...groupBy(records, (r) => armName(r.agent, r.model))]
    .sort(([a], [b]) => compareText(a, b))
    .map(([arm, rows]) => {
      const correct = rows.filter((r) => r.correct === true).length
      const completed = rows.filter((r) => r.status === 'ok')
      const cases = new Set(rows.map((r) => JSON.stringify([r.suite, r.caseId, r.trial])))
      const usage = sumUsage(rows.map((r) => r.usage))
      return {
        arm,
        attempted: rows.length,
        correct,
        accuracy: wilsonInterval(correct, rows.length),
        stepsMean: meanOrNull(completed.map((r) => r.steps)),
        turnsPerCase: cases.size ? rows.length / cases.size : 0,
        tokens: tokensSpentAndSaved(usage).spent,
        costUsd: usage.costUsd,
        failed: rows.filter((r) => r.status === 'failed').length,
      }
    })
}
