import type { ConformanceEvaluation } from './evaluate.js'

/** Metric holding the 0-100 score on a RunRecord; the leaderboard's conformance section looks for it. */
export const CONFORMANCE_SCORE_METRIC = 'conformanceScore'

/** Every other conformance metric's name starts with this. */
export const CONFORMANCE_METRIC_PREFIX = 'conformance.'

/** Whether a run's metrics are a conformance evaluation's (what `conformanceMetrics` wrote). */
export function isConformanceRecord(record: { metrics: Record<string, number> }): boolean {
  return CONFORMANCE_SCORE_METRIC in record.metrics || Object.keys(record.metrics).some((k) => k.startsWith(CONFORMANCE_METRIC_PREFIX))
}

/**
 * The numbers a RunRecord carries for one evaluated sample set: the score, and per property its score,
 * p-value and samples analyzed (`conformance.<property>.score|p|analyzed`), each label's requested and
 * evaluated share in percent (`conformance.<property>.<label>.requested|evaluated`, what the HTML report draws),
 * plus the rules' pass rate.
 */
export function conformanceMetrics(result: ConformanceEvaluation): Record<string, number> {
  const metrics: Record<string, number> = {}
  if (result.conformanceScore !== null) metrics[CONFORMANCE_SCORE_METRIC] = result.conformanceScore
  for (const a of result.distributionAnalysis) {
    metrics[`${CONFORMANCE_METRIC_PREFIX}${a.propertyName}.analyzed`] = a.totalSamplesAnalyzed
    if (a.score !== null) metrics[`${CONFORMANCE_METRIC_PREFIX}${a.propertyName}.score`] = a.score
    if (a.test) metrics[`${CONFORMANCE_METRIC_PREFIX}${a.propertyName}.p`] = a.test.pValue
    if (a.totalSamplesAnalyzed > 0) {
      for (const d of a.deviations) {
        metrics[`${CONFORMANCE_METRIC_PREFIX}${a.propertyName}.${d.label}.requested`] = d.requestedPercent
        metrics[`${CONFORMANCE_METRIC_PREFIX}${a.propertyName}.${d.label}.evaluated`] = d.evaluatedPercent
      }
    }
  }
  if (result.rules) metrics[`${CONFORMANCE_METRIC_PREFIX}rulesPassRate`] = result.rules.passRate
  return metrics
}
