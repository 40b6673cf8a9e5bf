import { formatNumber, formatPClause, formatSigned } from '../../stats/number-format.js'
import type { DistributionAnalysis, LabelDeviation } from './analysis.js'

export interface RulesSummary {
  samplesChecked: number
  samplesPassing: number
  /** samplesPassing / samplesChecked. */
  passRate: number
  /** Top-level field (or `(sample)`) → samples with a violation there, most frequent first. */
  violationsByField: Record<string, number>
}

interface ExplanationInput {
  score: number | null
  totalSamples: number
  analyses: readonly DistributionAnalysis[]
  rules: RulesSummary | null
  alpha: number
  errorMessage: string | null
}

const pct = (x: number) => `${formatNumber(x, 1)}%`
const points = (x: number) => `${formatSigned(x, 1)} points`

function deviationText(d: LabelDeviation): string {
  return `${d.label} ${pct(d.evaluatedPercent)} vs ${pct(d.requestedPercent)} requested (${points(d.deviationPoints)})`
}

function testText(a: DistributionAnalysis, alpha: number): string {
  const t = a.test!
  if (t.method === 'impossible') {
    const labels = Object.keys(a.evaluatedDistributions)
    const which = (t.impossible ?? []).map((i) => labels[i] ?? '?').join(', ')
    return `p = 0: ${which} observed though requested at 0% (impossible under the request), a significant departure at α = ${alpha}`
  }
  const method =
    t.method === 'exact-multinomial'
      ? 'exact multinomial'
      : `χ²(${t.degreesOfFreedom}) = ${formatNumber(t.statistic, 2)}`
  const verdict = t.pValue < alpha ? `a significant departure at α = ${alpha}` : `within sampling noise at α = ${alpha}`
  return `${method} ${formatPClause(t.pValue)}, ${verdict}`
}

/** Analyzed properties, worst score first (then spec order); unanalyzed ones last. */
export function worstFirst(analyses: readonly DistributionAnalysis[]): DistributionAnalysis[] {
  return analyses
    .map((a, order) => ({ a, order }))
    .sort(
      (x, y) => (x.a.score ?? Number.POSITIVE_INFINITY) - (y.a.score ?? Number.POSITIVE_INFINITY) || x.order - y.order,
    )
    .map((x) => x.a)
}

function propertySentence(a: DistributionAnalysis, alpha: number): string {
  const coverage =
    a.unclassifiedSamples > 0
      ? `${a.totalSamplesAnalyzed} of ${a.totalSamples} samples analyzed, ${a.unclassifiedSamples} unclassified${a.classifierErrors ? ` (${a.classifierErrors} classifier failures)` : ''}`
      : `${a.totalSamplesAnalyzed} samples analyzed`
  if (a.score === null) return `${a.propertyName}: no sample could be classified (${coverage}).`
  const off = a.deviations.filter((d) => Math.abs(d.deviationPoints) >= 0.05).slice(0, 2)
  const largest = off.length
    ? `largest deviation${off.length > 1 ? 's' : ''} ${off.map(deviationText).join(', ')}`
    : 'every label exactly as requested'
  return `${a.propertyName} scores ${formatNumber(a.score, 1)} (${coverage}; total variation distance ${formatNumber(a.totalVariationDistance, 3)}): ${largest}; ${testText(a, alpha)}.`
}

function rulesSentence(r: RulesSummary): string {
  if (r.samplesPassing === r.samplesChecked) return `All ${r.samplesChecked} samples pass the rules.`
  const top = Object.entries(r.violationsByField)
    .slice(0, 3)
    .map(([f, n]) => `${f} ${n}`)
    .join(', ')
  return `${r.samplesPassing} of ${r.samplesChecked} samples (${pct(100 * r.passRate)}) pass the rules; violations by field: ${top}.`
}

/** The explanation, generated from the numbers only (same numbers, same text). */
export function explain(input: ExplanationInput): string {
  const parts: string[] = []
  const ordered = worstFirst(input.analyses)
  if (input.errorMessage) parts.push(`Evaluation failed: ${input.errorMessage}.`)
  else parts.push(`Conformance score ${formatNumber(input.score, 1)} of 100 over ${input.totalSamples} samples.`)
  if (ordered.length > 1 && ordered[0]!.score !== null) parts.push(`Worst property: ${ordered[0]!.propertyName}.`)
  for (const a of ordered) parts.push(propertySentence(a, input.alpha))
  if (input.rules) parts.push(rulesSentence(input.rules))
  return parts.join(' ')
}

function distributionText(values: Record<string, number>, unit: string): string {
  return Object.entries(values)
    .map(([l, v]) => `${l} ${formatNumber(v, 1)}${unit}`)
    .join(', ')
}

/** Properties within sampling noise of the request (p ≥ α) and properties off it, plus the rules, as one-liners. */
export function areas(
  analyses: readonly DistributionAnalysis[],
  rules: RulesSummary | null,
  alpha: number,
): { conformant: string[]; nonConformant: string[] } {
  const conformant: string[] = []
  const nonConformant: string[] = []
  for (const a of worstFirst(analyses)) {
    if (a.score === null || a.test === null) {
      nonConformant.push(`${a.propertyName}: no sample could be classified`)
      continue
    }
    const p = formatPClause(a.test.pValue)
    if (a.test.pValue >= alpha) {
      conformant.push(
        `${a.propertyName}: ${distributionText(a.evaluatedPercentages, '%')} against ${distributionText(a.requestedDistributions, '%')} requested (${p})`,
      )
    } else {
      const off = a.deviations
        .filter((d) => Math.abs(d.deviationPoints) >= 0.05)
        .slice(0, 3)
        .map(deviationText)
        .join(', ')
      nonConformant.push(`${a.propertyName}: ${off} (${p})`)
    }
  }
  if (rules) {
    if (rules.samplesPassing === rules.samplesChecked)
      conformant.push(`rules: all ${rules.samplesChecked} samples pass`)
    else {
      const top = Object.entries(rules.violationsByField)
        .slice(0, 3)
        .map(([f, n]) => `${f} ${n}`)
        .join(', ')
      nonConformant.push(
        `rules: ${rules.samplesChecked - rules.samplesPassing} of ${rules.samplesChecked} samples fail (${top})`,
      )
    }
  }
  return { conformant, nonConformant }
}
