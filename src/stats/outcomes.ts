import type { RunRecord } from '../core/run-record.js'
import { bootstrapMeanInterval, type MeanInterval } from './bootstrap.js'
import { type ProportionInterval, wilsonInterval } from './wilson.js'

export interface OutcomeSummary {
  /** Every row: failed and skipped runs included. */
  attempted: number
  /** Rows with `correct === true`. */
  correct: number
  /** Rows with a usable judgment (`correct !== null`). */
  validated: number
  completed: number
  /** correct / attempted, Wilson 95%. */
  score: ProportionInterval
  /** correct / validated, Wilson 95%. */
  validatedAccuracy: ProportionInterval
  /** completed / attempted, Wilson 95%. */
  completionRate: ProportionInterval
  /** Mean F1 over the rows that have one (n says how many), seeded bootstrap 95%; null when none has. */
  f1: MeanInterval | null
}

export interface SummarizeOptions {
  seed: number
  iterations?: number
}

/**
 * The headline aggregates of a set of RunRecords. A row without a usable judgment (`correct` null)
 * stays in Score's denominator and leaves validated accuracy's.
 */
export function summarizeOutcomes(records: readonly RunRecord[], options: SummarizeOptions): OutcomeSummary {
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
  const attempted = records.length
  return {
    attempted,
    correct,
    validated,
    completed,
    score: wilsonInterval(correct, attempted),
    validatedAccuracy: wilsonInterval(correct, validated),
    completionRate: wilsonInterval(completed, attempted),
    f1:
      f1s.length === 0
        ? null
        : bootstrapMeanInterval(f1s, {
            seed: options.seed,
            ...(options.iterations === undefined ? {} : { iterations: options.iterations }),
          }),
  }
}
