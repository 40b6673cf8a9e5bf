import { InputError } from '../../core/errors.js'
import { hashOf } from '../../core/hash.js'
import type { Usage } from '../../core/schemas.js'
import { sumUsage } from '../../core/usage.js'
import { analyzeProperty, type DistributionAnalysis, tidy } from './analysis.js'
import {
  type Classification,
  type ClassifiedSamples,
  type ClassifyOption,
  classifierName,
  classifySamples,
  type PropertyInfo,
  resolveClassifiers,
  type Sample,
} from './classify.js'
import { areas, explain, type RulesSummary } from './explanation.js'
import { ruleViolations } from './rules.js'
import { type ConformanceSpec, type ResolvedSpec, resolveSpec } from './spec.js'
import { dataRecord } from '../../core/data-record.js'

export type ConformanceStatus = 'PENDING' | 'PROCESSING' | 'SUCCEEDED' | 'FAILED'

export interface SampleClassification {
  sampleIndex: number
  /** property → label (null when unclassified). */
  labels: Record<string, string | null>
  /** property → planned label, for properties with a plan field. */
  planned: Record<string, string>
  /** property → why it is unclassified. */
  unclassifiedReasons: Record<string, string>
  /** null when the spec has no rules. */
  rulesPassed: boolean | null
  ruleViolations: string[]
}

/** The result, shaped like hosted evaluation APIs' conformance results (plus the test statistics). */
export interface ConformanceEvaluation {
  id: string
  status: ConformanceStatus
  /** 0-100; null when the evaluation FAILED. */
  conformanceScore: number | null
  conformanceExplanation: string
  conformantAreas: string[]
  nonConformantAreas: string[]
  distributionAnalysis: DistributionAnalysis[]
  sampleClassifications: SampleClassification[]
  rules: RulesSummary | null
  /** Significance level of the per-property tests (areas and explanation). */
  alpha: number
  /** Model-classifier usage (tokens, calls, cost); null without a model classifier. */
  usage: Usage | null
  startedAt: string
  completedAt: string
  durationSeconds: number
  errorMessage: string | null
}

export interface ConformanceOptions {
  classify?: ClassifyOption
  /** Significance level for the per-property tests. Default 0.05. */
  alpha?: number
  /** Called on every status change: PENDING, PROCESSING, then SUCCEEDED or FAILED. */
  onStatus?: (status: ConformanceStatus) => void
  /** Clock for startedAt/completedAt (tests). */
  now?: () => Date
  /** Names the spec in error messages (a file path). Default `spec`. */
  specSource?: string
  /** Names the samples in error messages (a file path): `s.jsonl[3]: …`. Default `samples`. */
  samplesSource?: string
}

interface Prepared {
  spec: ResolvedSpec
  samples: readonly Sample[]
  properties: PropertyInfo[]
  classifiers: ReturnType<typeof resolveClassifiers>
  plans: Array<string[] | null>
  alpha: number
  startedAt: Date
  now: () => Date
  onStatus: (status: ConformanceStatus) => void
}

function prepare(samples: unknown, specInput: ConformanceSpec | unknown, opts: ConformanceOptions): Prepared {
  const now = opts.now ?? (() => new Date())
  const onStatus = opts.onStatus ?? (() => undefined)
  const spec = resolveSpec(specInput, opts.specSource ?? 'spec')
  const src = opts.samplesSource ?? 'samples'
  if (!Array.isArray(samples)) throw new InputError(`${src}: expected an array of records`)
  if (samples.length === 0) throw new InputError(`${src}: empty; there is nothing to evaluate`)
  samples.forEach((s, i) => {
    if (typeof s !== 'object' || s === null || Array.isArray(s))
      throw new InputError(
        `${src}[${i}]: expected a record (an object), got ${Array.isArray(s) ? 'an array' : s === null ? 'null' : typeof s}`,
      )
  })
  const alpha = opts.alpha ?? 0.05
  if (!(alpha > 0 && alpha < 1)) throw new InputError(`alpha: expected a number between 0 and 1, got ${alpha}`)
  const classifiers = resolveClassifiers(spec, opts.classify)
  const hiddenFields = spec.properties.flatMap((p) => (p.planField ? [p.planField] : []))
  const properties = spec.properties.map((p) => ({
    name: p.name,
    labels: p.labels,
    ...(p.description ? { description: p.description } : {}),
    hiddenFields,
  }))
  const plans = spec.properties.map((p) =>
    p.planField ? planOf(samples as Sample[], p.name, p.planField, p.labels, src) : null,
  )
  // Accepted: bad input has thrown by now, so a status line never precedes an input error.
  onStatus('PENDING')
  return { spec, samples: samples as Sample[], properties, classifiers, plans, alpha, startedAt: now(), now, onStatus }
}

function planOf(
  samples: readonly Sample[],
  property: string,
  field: string,
  labels: readonly string[],
  src: string,
): string[] {
  return samples.map((s, i) => {
    const value = s[field]
    if (value === undefined || value === null || value === '')
      throw new InputError(`${src}[${i}]: no plan field "${field}" for property "${property}"`)
    const label = String(value)
    if (!labels.includes(label)) {
      throw new InputError(
        `${src}[${i}].${field}: planned label "${label}" is not one of property "${property}"'s labels (${labels.join(', ')})`,
      )
    }
    return label
  })
}

function finish(p: Prepared, classified: ClassifiedSamples): ConformanceEvaluation {
  const analyses = p.spec.properties.map((property, j) =>
    analyzeProperty(
      {
        name: property.name,
        classifier: classifierName(p.classifiers[j]!),
        labels: property.labels,
        distribution: property.distribution,
        plan: p.plans[j]!,
      },
      classified.classifications.map((row) => row[j]!),
    ),
  )
  const violations = p.spec.rules ? p.samples.map((s) => ruleViolations(p.spec.rules!, s)) : null
  const rules = violations ? summarizeRules(violations) : null
  const failedProperty = analyses.find((a) => a.totalSamplesAnalyzed === 0)
  const errorMessage = failedProperty ? failureMessage(failedProperty) : null
  const analyzed = analyses.reduce((s, a) => s + a.totalSamplesAnalyzed, 0)
  const weighted = analyses.reduce((s, a) => s + (a.score ?? 0) * a.totalSamplesAnalyzed, 0)
  const score = errorMessage ? null : tidy((weighted / analyzed) * (rules ? rules.passRate : 1))
  const { conformant, nonConformant } = areas(analyses, rules, p.alpha)
  const completedAt = p.now()
  const status: ConformanceStatus = errorMessage ? 'FAILED' : 'SUCCEEDED'
  p.onStatus(status)
  return {
    id: `conformance-${hashOf({ samples: p.samples, properties: p.spec.properties, classifiers: analyses.map((a) => a.classifier) }).slice(0, 16)}`,
    status,
    conformanceScore: score,
    conformanceExplanation: explain({
      score,
      totalSamples: p.samples.length,
      analyses,
      rules,
      alpha: p.alpha,
      errorMessage,
    }),
    conformantAreas: conformant,
    nonConformantAreas: nonConformant,
    distributionAnalysis: analyses,
    sampleClassifications: p.samples.map((_, i) =>
      sampleClassification(i, p, classified.classifications[i]!, violations?.[i] ?? null),
    ),
    rules,
    alpha: p.alpha,
    usage: classified.usage.length ? sumUsage(classified.usage) : null,
    startedAt: p.startedAt.toISOString(),
    completedAt: completedAt.toISOString(),
    durationSeconds: Math.max(0, (completedAt.getTime() - p.startedAt.getTime()) / 1000),
    errorMessage,
  }
}

function failureMessage(a: DistributionAnalysis): string {
  const first = a.unclassifiedExamples[0]
  return `the classifier ${a.classifier} labelled none of the ${a.totalSamples} samples for property "${a.propertyName}"${first ? ` (sample ${first.sampleIndex}: ${first.reason})` : ''}`
}

function summarizeRules(violations: readonly string[][]): RulesSummary {
  const byField = new Map<string, number>()
  for (const list of violations) {
    const fields = new Set(
      list.map((v) => (v.includes(': ') ? v.slice(0, v.indexOf(': ')).split(/[.[]/)[0]! : '(sample)')),
    )
    for (const f of fields) byField.set(f, (byField.get(f) ?? 0) + 1)
  }
  const passing = violations.filter((v) => v.length === 0).length
  return {
    samplesChecked: violations.length,
    samplesPassing: passing,
    passRate: passing / violations.length,
    violationsByField: dataRecord([...byField].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))),
  }
}

function sampleClassification(
  index: number,
  p: Prepared,
  row: readonly Classification[],
  violations: string[] | null,
): SampleClassification {
  const labels = dataRecord<string | null>()
  const planned = dataRecord<string>()
  const reasons = dataRecord<string>()
  p.spec.properties.forEach((property, j) => {
    const c = row[j]!
    labels[property.name] = c.label
    if (c.label === null) reasons[property.name] = c.reason
    const plan = p.plans[j]
    if (plan) planned[property.name] = plan[index]!
  })
  return {
    sampleIndex: index,
    labels,
    planned,
    unclassifiedReasons: reasons,
    rulesPassed: violations ? violations.length === 0 : null,
    ruleViolations: violations ?? [],
  }
}

/**
 * Internal: synchronous when every classifier is (so the matcher needs no await), else a promise. Bad
 * input (spec, samples, classifier option) throws an InputError before anything is classified.
 */
export function runConformance(
  samples: unknown,
  spec: ConformanceSpec | unknown,
  opts: ConformanceOptions = {},
): ConformanceEvaluation | Promise<ConformanceEvaluation> {
  const p = prepare(samples, spec, opts)
  p.onStatus('PROCESSING')
  const classified = classifySamples(p.samples, p.properties, p.classifiers)
  return classified instanceof Promise ? classified.then((c) => finish(p, c)) : finish(p, classified)
}

/**
 * Did generated samples follow the requested distributions and rules? Classifies every sample for every
 * property, compares the evaluated distribution with the request (score, goodness-of-fit p-value, deviations)
 * and checks the rules. See the README for the score's formula.
 */
export async function evaluateConformance(
  samples: unknown,
  spec: ConformanceSpec | unknown,
  opts: ConformanceOptions = {},
): Promise<ConformanceEvaluation> {
  return runConformance(samples, spec, opts)
}

/** `evaluateConformance` for synchronous classifiers (field, plain functions); throws if one is async. */
export function evaluateConformanceSync(
  samples: unknown,
  spec: ConformanceSpec | unknown,
  opts: ConformanceOptions = {},
): ConformanceEvaluation {
  const result = runConformance(samples, spec, opts)
  if (result instanceof Promise) {
    result.catch(() => undefined)
    throw new InputError('evaluateConformanceSync: a classifier answered asynchronously; use evaluateConformance')
  }
  return result
}
