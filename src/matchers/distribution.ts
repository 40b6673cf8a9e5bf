import { AgentFailure } from '../core/errors.js'
import type { ClassifyOption } from '../grading/conformance/classify.js'
import { type ConformanceEvaluation, runConformance } from '../grading/conformance/evaluate.js'
import { conformanceMetrics } from '../grading/conformance/metrics.js'
import type { ConformanceSpec } from '../grading/conformance/spec.js'
import { type ConformanceBars, checkBars, conformanceVerdict } from '../grading/conformance/bars.js'
import { currentMeta } from './recorder.js'
import { putFailure, putMetric, putUsage } from '../test-meta/put.js'
import { conclude, type MatcherContext, type MatcherOutcome } from './conclude.js'

export interface DistributionMatcherOptions extends ConformanceBars {
  /** `field:NAME`, a function, a model classifier, or one per property; default each property's own field. */
  classify?: ClassifyOption
}

/**
 * `expect(samples).toMatchDistribution(spec, { classify, minScore, alpha })`: evaluates conformance, records
 * the score and per-property metrics on the test, and passes when the bars are met (no bar: score 100).
 * Await it when the classifier is asynchronous (a model classifier).
 */
export function toMatchDistribution(
  this: MatcherContext,
  received: unknown,
  spec: ConformanceSpec,
  opts: DistributionMatcherOptions = {},
): MatcherOutcome | Promise<MatcherOutcome> {
  checkBars(opts, 'toMatchDistribution: ')
  const result = runConformance(received, spec, {
    ...(opts.classify !== undefined ? { classify: opts.classify } : {}),
    ...(opts.alpha !== undefined ? { alpha: opts.alpha } : {}),
  })
  return result instanceof Promise
    ? result.then((r) => concludeConformance(this, r, opts))
    : concludeConformance(this, result, opts)
}

function concludeConformance(
  ctx: MatcherContext,
  result: ConformanceEvaluation,
  bars: ConformanceBars,
): MatcherOutcome {
  const meta = currentMeta(ctx.task)
  if (meta) {
    for (const [name, value] of Object.entries(conformanceMetrics(result))) putMetric(meta, name, value)
    if (result.usage) putUsage(meta, result.usage, undefined, undefined)
    // A failed evaluation says nothing about the samples: the run is a failure, not a wrong answer.
    if (result.status === 'FAILED') {
      const byModel = result.distributionAnalysis.some(
        (a) => a.classifier.startsWith('model:') && a.totalSamplesAnalyzed === 0,
      )
      putFailure(
        meta,
        new AgentFailure(
          byModel ? 'provider_error' : 'exception',
          `conformance evaluation failed: ${result.errorMessage}`,
        ),
      )
    }
  }
  const verdict = conformanceVerdict(result, bars)
  const negated = ctx.isNot === true
  const held = negated ? !verdict.passed : verdict.passed
  return conclude(ctx, 'toMatchDistribution', {
    passed: verdict.passed,
    summary: `${negated ? 'not.' : ''}toMatchDistribution ${held ? 'passed' : 'failed'}: ${verdict.summary}`,
    failureText: `${verdict.reasons.join('; ') || 'passed'}. ${result.conformanceExplanation}`,
    ...(result.conformanceScore !== null ? { score: result.conformanceScore / 100 } : {}),
  })
}
