import type { RunRecord } from '../core/run-record.js'
import { bootstrapMeanInterval, type MeanInterval } from './bootstrap.js'
import {
  type ClusteredProportion,
  clusterTMeanInterval,
  clusteredProportion,
  type IntervalMethod,
} from './clustered.js'
import { assignUnits, type UnitSummary } from './units.js'
import { type ProportionInterval, wilsonInterval, Z_95 } from './wilson.js'

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
  /** Mean F1 over the rows that have one (n says how many), 95% t interval over units (one unit: bootstrap of its trials); null when none has. */
  f1: MeanInterval | null
  /** The units the intervals follow: a case, a conversation or a generated dataset, and how many. */
  units: UnitSummary
  /** How each interval was computed (`stats/clustered.ts`): `wilson` where every unit is one run. */
  intervalMethods: {
    score: IntervalMethod
    validatedAccuracy: IntervalMethod
    completionRate: IntervalMethod
    f1: IntervalMethod | null
  }
}

export interface SummarizeOptions {
  seed: number
  iterations?: number
}

/**
 * The headline aggregates of a set of RunRecords. A row without a usable judgment (`correct` null)
 * stays in Score's denominator and leaves validated accuracy's. The intervals follow the units
 * (`assignUnits`): where every unit is one run they are Wilson and the t interval over runs; where trials
 * repeat a unit, they are clustered by unit, so repeating a deterministic agent's trials does not narrow them.
 */
export function summarizeOutcomes(records: readonly RunRecord[], options: SummarizeOptions): OutcomeSummary {
  const { keys, summary } = assignUnits(records)
  const bootstrap = {
    seed: options.seed,
    ...(options.iterations === undefined ? {} : { iterations: options.iterations }),
  }
  const n = records.length
  if (summary.units === n || summary.units === 1) {
    // Independent runs, or the trials of one unit: plain Wilson (what the clustered proportion reduces to here),
    // without building the unit keys of each subset.
    let correct = 0
    let validated = 0
    let completed = 0
    const f1s: number[] = []
    for (const r of records) {
      if (r.correct === true) correct++
      if (r.correct !== null) validated++
      if (r.completed) completed++
      if (r.f1 !== null) f1s.push(r.f1)
    }
    const method: IntervalMethod = summary.units === n ? 'wilson' : 'wilson-trials'
    // Independent runs: the t interval over runs; one unit: the bootstrap over its trials.
    const f1 =
      f1s.length === 0
        ? null
        : summary.units === n
          ? clusterTMeanInterval(
              f1s,
              f1s.map((_, i) => String(i)),
              { ...bootstrap, bounds: [0, 1] },
            )
          : { ...bootstrapMeanInterval(f1s, bootstrap), method: 'bootstrap' as const }
    return {
      attempted: n,
      correct,
      validated,
      completed,
      score: wilsonInterval(correct, n),
      validatedAccuracy: wilsonInterval(correct, validated),
      completionRate: wilsonInterval(completed, n),
      f1: f1 && { mean: f1.mean, low: f1.low, high: f1.high, n: f1.n },
      units: summary,
      intervalMethods: { score: method, validatedAccuracy: method, completionRate: method, f1: f1?.method ?? null },
    }
  }
  const passes: boolean[] = []
  const done: boolean[] = []
  const judged: boolean[] = []
  const judgedKeys: string[] = []
  const f1s: number[] = []
  const f1Keys: string[] = []
  let correct = 0
  let completed = 0
  records.forEach((r, i) => {
    if (r.correct === true) correct++
    if (r.completed) completed++
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
  const score = clusteredProportion(passes, keys, Z_95, summary.units)
  const validatedAccuracy = clusteredProportion(judged, judgedKeys)
  const completionRate = clusteredProportion(done, keys, Z_95, summary.units)
  const f1 = f1s.length === 0 ? null : clusterTMeanInterval(f1s, f1Keys, { ...bootstrap, bounds: [0, 1] })
  return {
    attempted: n,
    correct,
    validated: judged.length,
    completed,
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
