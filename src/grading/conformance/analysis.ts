import { goodnessOfFit, type GoodnessOfFit } from '../../stats/goodness-of-fit.js'
import { largestRemainder } from '../../stats/largest-remainder.js'
import type { Classification } from './classify.js'
import { dataRecord, ownValue } from '../../core/data-record.js'

export interface LabelDeviation {
  label: string
  requestedPercent: number
  evaluatedPercent: number
  /** evaluated − requested, in percentage points. */
  deviationPoints: number
}

export interface DistributionAnalysis {
  propertyName: string
  classifier: string
  totalSamples: number
  /** Samples the classifier labelled; the unclassified ones are left out of every share below. */
  totalSamplesAnalyzed: number
  unclassifiedSamples: number
  /** Of the unclassified, how many the classifier failed on (threw, or a model call failed). */
  classifierErrors: number
  /** The first few reasons samples went unclassified, with their sample index. */
  unclassifiedExamples: Array<{ sampleIndex: number; reason: string }>
  /** label → requested percentage. */
  requestedDistributions: Record<string, number>
  /** label → whole count of analyzed samples: the generation plan, else the request by largest remainder. */
  expectedDistributions: Record<string, number>
  expectedSource: 'plan' | 'request'
  /** label → count of analyzed samples; labels outside the request appear with 0% requested. */
  evaluatedDistributions: Record<string, number>
  /** label → percentage of analyzed samples. */
  evaluatedPercentages: Record<string, number>
  /** ½ Σ |requested share − evaluated share|, in [0, 1]; null when nothing was analyzed. */
  totalVariationDistance: number | null
  /** 100 × (1 − total variation distance); null when nothing was analyzed. */
  score: number | null
  /** Goodness of fit of the evaluated counts to the request; null when nothing was analyzed. */
  test: GoodnessOfFit | null
  /** Every label, largest absolute deviation first. */
  deviations: LabelDeviation[]
  /** With a plan: share of analyzed samples whose label is the one planned for them. */
  planAgreement: number | null
}

interface PropertyInput {
  name: string
  classifier: string
  labels: readonly string[]
  distribution: Record<string, number>
  /** Per sample: its planned label, when the spec names a plan field. */
  plan: readonly string[] | null
}

const EXAMPLES_KEPT = 5

/** Per-property distribution analysis over the samples the classifier labelled. */
export function analyzeProperty(
  property: PropertyInput,
  classifications: readonly Classification[],
): DistributionAnalysis {
  const counts = new Map<string, number>(property.labels.map((l) => [l, 0]))
  const planCounts = new Map<string, number>(property.labels.map((l) => [l, 0]))
  const unclassifiedExamples: DistributionAnalysis['unclassifiedExamples'] = []
  let unclassified = 0
  let errors = 0
  let agreeing = 0
  const extra = new Set<string>()
  classifications.forEach((c, sampleIndex) => {
    if (c.label === null) {
      unclassified++
      if (c.error) errors++
      if (unclassifiedExamples.length < EXAMPLES_KEPT) unclassifiedExamples.push({ sampleIndex, reason: c.reason })
      return
    }
    if (!counts.has(c.label)) extra.add(c.label)
    counts.set(c.label, (counts.get(c.label) ?? 0) + 1)
    const planned = property.plan?.[sampleIndex]
    if (planned !== undefined) {
      planCounts.set(planned, planCounts.get(planned)! + 1)
      if (planned === c.label) agreeing++
    }
  })
  const labels = [...property.labels, ...[...extra].sort()]
  const n = classifications.length - unclassified
  const requested = (l: string) => ownValue(property.distribution, l) ?? 0
  const evaluatedPercent = (l: string) => (n === 0 ? 0 : (100 * counts.get(l)!) / n)
  const rounded = largestRemainder(property.labels.map(requested), n)
  const expected = property.plan
    ? dataRecord(property.labels.map((l) => [l, planCounts.get(l)!]))
    : dataRecord(property.labels.map((l, i) => [l, rounded[i]!]))
  const tvd = n === 0 ? null : labels.reduce((s, l) => s + Math.abs(requested(l) / 100 - counts.get(l)! / n), 0) / 2
  const deviations = labels
    .map((label, order) => ({
      label,
      order,
      requestedPercent: requested(label),
      evaluatedPercent: evaluatedPercent(label),
    }))
    // tidy: equal deviations (+1.7 and −1.7 points) must tie, so spec order decides and not floating-point dust.
    .map((d) => ({ ...d, deviationPoints: tidy(d.evaluatedPercent - d.requestedPercent) }))
    .sort((a, b) => Math.abs(b.deviationPoints) - Math.abs(a.deviationPoints) || a.order - b.order)
    .map(({ order: _order, ...d }) => d)
  return {
    propertyName: property.name,
    classifier: property.classifier,
    totalSamples: classifications.length,
    totalSamplesAnalyzed: n,
    unclassifiedSamples: unclassified,
    classifierErrors: errors,
    unclassifiedExamples,
    requestedDistributions: dataRecord(property.labels.map((l) => [l, requested(l)])),
    expectedDistributions: expected,
    expectedSource: property.plan ? 'plan' : 'request',
    evaluatedDistributions: dataRecord(labels.map((l) => [l, counts.get(l)!])),
    evaluatedPercentages: dataRecord(labels.map((l) => [l, evaluatedPercent(l)])),
    totalVariationDistance: tvd === null ? null : tidy(tvd),
    score: tvd === null ? null : tidy(100 * (1 - tvd)),
    test:
      n === 0
        ? null
        : goodnessOfFit(
            labels.map((l) => counts.get(l)!),
            probabilities(labels.map(requested)),
          ),
    deviations,
    planAgreement: property.plan && n > 0 ? agreeing / n : null,
  }
}

/** Requested percentages as probabilities summing to exactly 1 (the spec allows ± 0.01 points). */
function probabilities(percentages: readonly number[]): number[] {
  const sum = percentages.reduce((a, b) => a + b, 0)
  return percentages.map((p) => p / sum)
}

/** Rounds off floating-point dust (0.05 + 0.02 + 0.03 is not exactly 0.1), keeping 9 decimals. */
export function tidy(x: number): number {
  return Math.round(x * 1e9) / 1e9
}
