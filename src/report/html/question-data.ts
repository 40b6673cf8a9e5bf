import type { RunRecord } from '../../core/run-record.js'
import { wilsonInterval, type ProportionInterval } from '../../stats/wilson.js'
import { isConformanceRecord } from './conformance-data.js'
import { armName } from './labels.js'

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
    .sort((a, b) => (a.category === b.category ? cmp(a.arm, b.arm) : cmp(a.category, b.category)))
    .map((c) => ({ ...c, accuracy: wilsonInterval(c.correct, c.attempted) }))
}

export interface ArmSummary {
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
  const arms = new Map<string, RunRecord[]>()
  for (const r of records) {
    const arm = armName(r.agent, r.model)
    arms.set(arm, [...(arms.get(arm) ?? []), r])
  }
  return [...arms]
    .sort(([a], [b]) => cmp(a, b))
    .map(([arm, rows]) => {
      const correct = rows.filter((r) => r.correct === true).length
      const completed = rows.filter((r) => r.status === 'ok')
      const cases = new Set(rows.map((r) => JSON.stringify([r.suite, r.caseId, r.trial])))
      return {
        arm,
        attempted: rows.length,
        correct,
        accuracy: wilsonInterval(correct, rows.length),
        stepsMean: completed.length ? completed.reduce((s, r) => s + r.steps, 0) / completed.length : null,
        turnsPerCase: cases.size ? rows.length / cases.size : 0,
        tokens: rows.reduce((s, r) => s + r.usage.promptTokens + r.usage.completionTokens, 0),
        costUsd: rows.reduce((s, r) => s + r.usage.costUsd, 0),
        failed: rows.filter((r) => r.status === 'failed').length,
      }
    })
}

export interface ParetoPoint {
  arm: string
  cost: number
  accuracy: number
  onFrontier: boolean
}

/**
 * Cost per attempted question against accuracy, per arm. Cost is USD when any arm spent money, else tokens;
 * null when nothing was spent (keyless agents): there is no trade-off to show. A point is on the frontier when
 * no other arm is at least as accurate for less, or more accurate for the same cost.
 */
export function paretoPoints(arms: readonly ArmSummary[]): { unit: 'USD' | 'tokens'; points: ParetoPoint[] } | null {
  const usable = arms.filter((a) => a.attempted > 0)
  const unit = usable.some((a) => a.costUsd > 0) ? 'USD' : usable.some((a) => a.tokens > 0) ? 'tokens' : null
  if (!unit) return null
  const points = usable.map((a) => ({
    arm: a.arm,
    cost: (unit === 'USD' ? a.costUsd : a.tokens) / a.attempted,
    accuracy: a.correct / a.attempted,
    onFrontier: false,
  }))
  for (const p of points) {
    p.onFrontier = !points.some(
      (q) => q !== p && q.cost <= p.cost && q.accuracy >= p.accuracy && (q.cost < p.cost || q.accuracy > p.accuracy),
    )
  }
  return { unit, points: points.sort((a, b) => a.cost - b.cost || b.accuracy - a.accuracy || cmp(a.arm, b.arm)) }
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
