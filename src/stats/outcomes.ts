import type { RunRecord } from '../core/run-record.js'
import type { MeanInterval } from './bootstrap.js'
import { type ClusteredProportion, clusterBootstrapMeanInterval, clusteredProportion, type IntervalMethod } from './clustered.js'
import { assignUnits, type UnitSummary } from './units.js'
import type { ProportionInterval } from './wilson.js'

export interface OutcomeSummary {
  /** Every row: failed and skipped runs included. */
  attempted: number
  /** Rows with `correct === true`. */
  correct: number
  /** Rows with a usable judgment (`correct !== null`). */
  validated: number
  completed: number
  /** correct / attempted, 95% interval over units (see `intervalMethods`). */
  score: ProportionInterval
  /** correct / validated, 95% interval over units. */
  validatedAccuracy: ProportionInterval
  /** completed / attempted, 95% interval over units. */
  completionRate: ProportionInterval
  /** Mean F1 over the rows that have one (n says how many), seeded (cluster) bootstrap 95%; null when none has. */
  f1: MeanInterval | null
  /** The units the intervals follow: a case, a conversation or a generated dataset, and how many. */
  units: UnitSummary
  /** How each interval was computed (`stats/clustered.ts`): `wilson` where every unit is one run. */
  intervalMethods: { score: IntervalMethod; validatedAccuracy: IntervalMethod; completionRate: IntervalMethod; f1: IntervalMethod | null }
}

export interface SummarizeOptions {
  seed: number
  iterations?: number
}

/**
 * The headline aggregates of a set of RunRecords. A row without a usable judgment (`correct` null)
 * stays in Score's denominator and leaves validated accuracy's. The intervals follow the units
 * (`assignUnits`): where every unit is one run they are today's Wilson and bootstrap intervals; where trials
 * repeat a unit, they are clustered by unit, so repeating a deterministic agent's trials does not narrow them.
 */
export function summarizeOutcomes(records: readonly RunRecord[], options: SummarizeOptions): OutcomeSummary {
  const { keys, summary } = assignUnits(records)
  const passes: boolean[] = []
  const done: boolean[] = []
  const judged: boolean[] = []
  const judgedKeys: string[] = []
  const f1s: number[] = []
  const f1Keys: string[] = []
  records.forEach((r, i) => {
    passes.push(r.correct === true)
    done.push(r.completed)
    if (r.correct !== null) {
      judged.push(r.correct)
      judgedKeys.push(keys[i]!)
    }
    if (r.f1 !== null) {
      f1s.push(r.f1)
      f1Keys.push(keys[i]!)
    }
  })
  const score = clusteredProportion(passes, keys)
  const validatedAccuracy = clusteredProportion(judged, judgedKeys)
  const completionRate = clusteredProportion(done, keys)
  const f1 =
    f1s.length === 0
      ? null
      : clusterBootstrapMeanInterval(f1s, f1Keys, {
          seed: options.seed,
          ...(options.iterations === undefined ? {} : { iterations: options.iterations }),
        })
  return {
    attempted: records.length,
    correct: passes.filter(Boolean).length,
    validated: judged.length,
    completed: done.filter(Boolean).length,
    score: plain(score),
    validatedAccuracy: plain(validatedAccuracy),
    completionRate: plain(completionRate),
    f1: f1 && { mean: f1.mean, low: f1.low, high: f1.high, n: f1.n },
    units: summary,
    intervalMethods: {
      score: score.method,
      validatedAccuracy: validatedAccuracy.method,
      completionRate: completionRate.method,
      f1: f1?.method ?? null,
    },
  }
}

/** The interval alone, in the shape reports have always had. */
function plain(p: ClusteredProportion): ProportionInterval {
  return { point: p.point, low: p.low, high: p.high }
}
