import { InputError } from '../../core/errors.js'
import { formatNumber, formatP, formatPClause } from '../../stats/number-format.js'
import type { ConformanceEvaluation } from './evaluate.js'
import { worstFirst } from './explanation.js'

export interface ConformanceBars {
  /** The score (0-100) must reach this. */
  minScore?: number
  /** Every property's goodness-of-fit p-value must be at least this (no significant departure). */
  alpha?: number
}

export interface ConformanceVerdict {
  passed: boolean
  /** One line: score, worst property, p-values. */
  summary: string
  /** Why it failed (empty when it passed). */
  reasons: string[]
}

export function checkBars(bars: ConformanceBars, where = ''): void {
  const { minScore, alpha } = bars
  if (minScore !== undefined && !(Number.isFinite(minScore) && minScore >= 0 && minScore <= 100)) {
    throw new InputError(`${where}minScore: expected a number from 0 to 100, got ${minScore}`)
  }
  if (alpha !== undefined && !(alpha > 0 && alpha < 1))
    throw new InputError(`${where}alpha: expected a number between 0 and 1, got ${alpha}`)
}

/** One line for terminals and annotations: `score 95.0 · worst sentiment 95.0 · p sentiment 0.5891`. */
export function conformanceSummary(result: ConformanceEvaluation): string {
  if (result.status === 'FAILED') return `conformance FAILED: ${result.errorMessage}`
  const worst = worstFirst(result.distributionAnalysis)[0]
  const ps = result.distributionAnalysis.map((a) => `${a.propertyName} ${formatP(a.test?.pValue)}`).join(', ')
  const rules = result.rules ? ` · rules ${result.rules.samplesPassing}/${result.rules.samplesChecked}` : ''
  const unclassified = result.distributionAnalysis.reduce((s, a) => s + a.unclassifiedSamples, 0)
  return (
    `conformance ${formatNumber(result.conformanceScore, 1)} · worst ${worst?.propertyName} ${formatNumber(worst?.score, 1)} · p ${ps}${rules}` +
    (unclassified ? ` · ${unclassified} unclassified` : '')
  )
}

/** Pass/fail against the bars; with no bar the score must be 100. A FAILED evaluation never passes. */
export function conformanceVerdict(result: ConformanceEvaluation, bars: ConformanceBars = {}): ConformanceVerdict {
  const reasons: string[] = []
  if (result.status !== 'SUCCEEDED') reasons.push(`the evaluation failed: ${result.errorMessage}`)
  else {
    const minScore = bars.minScore ?? (bars.alpha === undefined ? 100 : undefined)
    if (minScore !== undefined && result.conformanceScore! < minScore) {
      reasons.push(`score ${formatNumber(result.conformanceScore, 1)} is below ${formatNumber(minScore, 1)}`)
    }
    if (bars.alpha !== undefined) {
      for (const a of result.distributionAnalysis) {
        if (a.test && a.test.pValue < bars.alpha)
          reasons.push(
            `${a.propertyName} departs from the request (${formatPClause(a.test.pValue)} < α = ${bars.alpha})`,
          )
      }
    }
  }
  return { passed: reasons.length === 0, summary: conformanceSummary(result), reasons }
}
