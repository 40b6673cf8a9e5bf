import { groupBy } from '../../core/group-by.js'
import type { RunRecord } from '../../core/run-record.js'
import { sumUsage, tokensSpentAndSaved } from '../../core/usage.js'
import { mean } from '../../stats/quantile.js'
import { armName } from '../aggregate.js'

/** What an agent/model spent and reached over its runs. */
interface ArmCost {
  arm: string
  attempted: number
  /** Accuracy for question suites, mean F1 for repairs: higher is better, in [0, 1]. */
  quality: number
  tokens: number
  costUsd: number
}

export interface ParetoPoint {
  arm: string
  cost: number
  quality: number
  onFrontier: boolean
}

/**
 * Cost per attempted run against quality, per arm. Cost is USD when any arm spent money, else tokens; null
 * when nothing was spent (keyless agents): there is no trade-off to show. A point is on the frontier when no
 * other arm is at least as good for less, or better for the same cost.
 */
export function paretoPoints(arms: readonly ArmCost[]): { unit: 'USD' | 'tokens'; points: ParetoPoint[] } | null {
  const usable = arms.filter((a) => a.attempted > 0)
  const unit = usable.some((a) => a.costUsd > 0) ? 'USD' : usable.some((a) => a.tokens > 0) ? 'tokens' : null
  if (!unit) return null
  const points = usable.map((a) => ({
    arm: a.arm,
    cost: (unit === 'USD' ? a.costUsd : a.tokens) / a.attempted,
    quality: a.quality,
    onFrontier: false,
  }))
  for (const p of points) {
    p.onFrontier = !points.some(
      (q) => q !== p && q.cost <= p.cost && q.quality >= p.quality && (q.cost < p.cost || q.quality > p.quality),
    )
  }
  return {
    unit,
    points: points.sort(
      (a, b) => a.cost - b.cost || b.quality - a.quality || (a.arm < b.arm ? -1 : a.arm > b.arm ? 1 : 0),
    ),
  }
}

/** Repair runs per agent/model: mean F1 over the runs that have one, spend over every attempted run. */
export function repairArmCosts(records: readonly RunRecord[]): ArmCost[] {
  const arms = groupBy(
    records.filter((r) => r.status !== 'skipped'),
    (r) => armName(r.agent, r.model),
  )
  const out: ArmCost[] = []
  for (const [arm, rows] of arms) {
    const scored = rows.filter((r) => r.f1 !== null)
    if (!scored.length) continue
    const usage = sumUsage(rows.map((r) => r.usage))
    out.push({
      arm,
      attempted: rows.length,
      quality: mean(scored.map((r) => r.f1!)),
      tokens: tokensSpentAndSaved(usage).spent,
      costUsd: usage.costUsd,
    })
  }
  return out.sort((a, b) => (a.arm < b.arm ? -1 : a.arm > b.arm ? 1 : 0))
}
