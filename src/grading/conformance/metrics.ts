import type { ConformanceEvaluation } from './evaluate.js'

/** Metric holding the 0-100 score on a RunRecord; the leaderboard's conformance section looks for it. */
export const CONFORMANCE_SCORE_METRIC = 'conformanceScore'

/**
 * The numbers a RunRecord carries for one evaluated sample set: the score, and per property its score,
 * p-value and samples analyzed (`conformance.<property>.score|p|analyzed`), plus the rules' pass rate.
 */
export function conformanceMetrics(result: ConformanceEvaluation): Record<string, number> {
  const metrics: Record<string, number> = {}
  if (result.conformanceScore !== null) metrics[CONFORMANCE_SCORE_METRIC] = result.conformanceScore
  for (const a of result.distributionAnalysis) {
    metrics[`conformance.${a.propertyName}.analyzed`] = a.totalSamplesAnalyzed
    if (a.score !== null) metrics[`conformance.${a.propertyName}.score`] = a.score
    if (a.test) metrics[`conformance.${a.propertyName}.p`] = a.test.pValue
  }
  if (result.rules) metrics['conformance.rulesPassRate'] = result.rules.passRate
  return metrics
}
