import { InputError } from '../core/errors.js'

// Apart from the gates: the reporter checks its options when the config loads, before the gates' graph is needed.
/** Minimum values per metric. `f1` is the mean F1 over runs; `pooledF1` uses summed counts. */
export interface ThresholdSpec {
  f1?: number
  pooledF1?: number
  precision?: number
  recall?: number
  passRate?: number
  completionRate?: number
}

/** Glob pattern (`*`, `?`) → minimums. A pattern matches a group's name, suite, dataset, agent or category. */
export type Thresholds = Record<string, ThresholdSpec>

const KNOWN_METRICS = new Set<keyof ThresholdSpec>([
  'f1',
  'pooledF1',
  'precision',
  'recall',
  'passRate',
  'completionRate',
])

/** Refuses (InputError) unknown metrics and bars that are not rates in [0, 1], naming pattern and metric. */
export function validateThresholds(thresholds: Thresholds): void {
  if (typeof thresholds !== 'object' || thresholds === null || Array.isArray(thresholds)) {
    throw new InputError("thresholds: expected an object of pattern → minimums, e.g. { 'hospital*': { f1: 0.6 } }")
  }
  for (const [pattern, spec] of Object.entries(thresholds)) {
    if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) {
      throw new InputError(`thresholds["${pattern}"]: expected an object of minimums, e.g. { f1: 0.6 }`)
    }
    for (const [metric, value] of Object.entries(spec)) {
      if (!KNOWN_METRICS.has(metric as keyof ThresholdSpec)) {
        throw new InputError(
          `thresholds["${pattern}"].${metric}: unknown metric; use one of ${[...KNOWN_METRICS].join(', ')}`,
        )
      }
      if (typeof value !== 'number' || !(value >= 0 && value <= 1)) {
        throw new InputError(
          `thresholds["${pattern}"].${metric}: must be a number between 0 and 1, got ${JSON.stringify(value) ?? String(value)}`,
        )
      }
    }
  }
}
