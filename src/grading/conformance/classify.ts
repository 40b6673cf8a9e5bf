import { InputError } from '../../core/errors.js'
import type { Usage } from '../../core/schemas.js'
import type { ResolvedSpec } from './spec.js'

/** A generated sample: one record. */
export type Sample = Record<string, unknown>

/** What a classifier is told about the property it labels. */
export interface PropertyInfo {
  name: string
  /** The requested labels, in the spec's order. */
  labels: readonly string[]
  description?: string
  /** Fields a classifier must not look at (the generation plan). */
  hiddenFields: readonly string[]
}

/** A function classifier: the sample's label, or null/undefined when it cannot tell. May be async. */
export type ClassifyFunction = (
  sample: Sample,
  property: PropertyInfo,
  index: number,
) => LabelAnswer | Promise<LabelAnswer>
type LabelAnswer = string | null | undefined

/** One model answer: a label among the allowed ones, or null with the reason. */
export interface ModelLabel {
  label: string | null
  reason?: string
  usage?: Usage
}

/** A classifier backed by a model call per sample (see `modelClassifier`); answers outside the labels are unclassified. */
export interface ModelClassifier {
  kind: 'model'
  /** Agent/model id, for reports. */
  name: string
  classify(sample: Sample, property: PropertyInfo, index: number): Promise<ModelLabel>
}

/** `field:NAME` reads the label from the sample's field; a function; or a model classifier. */
export type Classifier = `field:${string}` | ClassifyFunction | ModelClassifier

/** One classifier for every property, or one per property name (properties left out read their own field). */
export type ClassifyOption = Classifier | Record<string, Classifier>

/** The label one classifier gave one sample for one property. */
export type Classification = { label: string } | { label: null; reason: string; error: boolean }

function isModelClassifier(value: unknown): value is ModelClassifier {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as ModelClassifier).kind === 'model' &&
    typeof (value as ModelClassifier).classify === 'function'
  )
}

function isClassifier(value: unknown): value is Classifier {
  return (
    typeof value === 'function' || isModelClassifier(value) || (typeof value === 'string' && value.startsWith('field:'))
  )
}

function checkClassifier(value: unknown, where: string): Classifier {
  if (typeof value === 'string' && value.startsWith('field:') && value.length > 'field:'.length)
    return value as Classifier
  if (typeof value === 'function' || isModelClassifier(value)) return value as Classifier
  throw new InputError(
    `${where}: expected "field:NAME", a function or a model classifier, got ${JSON.stringify(value) ?? String(value)}`,
  )
}

/**
 * Why one classifier cannot serve every property, or null when it can: a field holds one property's labels, so
 * `field:NAME` given for a spec of several properties would label them all from that one field. A function or a
 * model classifier is told which property it labels, so it can serve them all.
 */
export function sharedFieldProblem(classifier: Classifier, properties: readonly string[]): string | null {
  if (typeof classifier !== 'string' || properties.length < 2) return null
  return `${classifier} would label all ${properties.length} properties (${properties.join(', ')}) from the one field "${classifier.slice('field:'.length)}"`
}

/** The classifier of every property; unknown property names in a per-property map are an error. */
export function resolveClassifiers(spec: ResolvedSpec, option: ClassifyOption | undefined): Classifier[] {
  if (option === undefined) return spec.properties.map((p) => `field:${p.name}` as Classifier)
  if (isClassifier(option)) {
    const one = checkClassifier(option, 'classify')
    const shared = sharedFieldProblem(
      one,
      spec.properties.map((p) => p.name),
    )
    if (shared)
      throw new InputError(
        `classify: ${shared}; give one per property ({ ${spec.properties.map((p) => `${p.name}: 'field:…'`).join(', ')} }) or none (each property reads its own field)`,
      )
    return spec.properties.map(() => one)
  }
  if (typeof option !== 'object' || option === null) return [checkClassifier(option, 'classify')]
  const names = new Set(spec.properties.map((p) => p.name))
  for (const key of Object.keys(option)) {
    if (!names.has(key))
      throw new InputError(
        `classify: unknown property "${key}"; the spec has ${[...names].map((n) => `"${n}"`).join(', ')}`,
      )
  }
  return spec.properties.map((p) => {
    const given = (option as Record<string, unknown>)[p.name]
    return given === undefined ? (`field:${p.name}` as Classifier) : checkClassifier(given, `classify.${p.name}`)
  })
}

export function classifierName(classifier: Classifier): string {
  if (typeof classifier === 'string') return classifier
  if (typeof classifier === 'function') return `function${classifier.name ? `:${classifier.name}` : ''}`
  return `model:${classifier.name}`
}

export interface ClassifiedSamples {
  /** [sample][property] */
  classifications: Classification[][]
  usage: Usage[]
}

/**
 * Labels every sample for every property. Synchronous when every classifier answered synchronously (field
 * classifiers, plain functions), so a matcher need not be awaited; a promise as soon as one answer is async.
 */
export function classifySamples(
  samples: readonly Sample[],
  properties: readonly PropertyInfo[],
  classifiers: readonly Classifier[],
): ClassifiedSamples | Promise<ClassifiedSamples> {
  const classifications: Classification[][] = samples.map(() => [])
  const usage: Usage[] = []
  const pending: Array<Promise<void>> = []
  samples.forEach((sample, i) => {
    properties.forEach((property, j) => {
      const answer = classifyOne(classifiers[j]!, sample, property, i)
      if (answer instanceof Promise) {
        pending.push(
          answer.then((c) => {
            classifications[i]![j] = c.classification
            if (c.usage) usage.push(c.usage)
          }),
        )
      } else {
        classifications[i]![j] = answer.classification
      }
    })
  })
  if (pending.length === 0) return { classifications, usage }
  return Promise.all(pending).then(() => ({ classifications, usage }))
}

type Answered = { classification: Classification; usage?: Usage }

function classifyOne(
  classifier: Classifier,
  sample: Sample,
  property: PropertyInfo,
  index: number,
): Answered | Promise<Answered> {
  if (typeof classifier === 'string') return { classification: fieldLabel(sample, classifier.slice('field:'.length)) }
  if (isModelClassifier(classifier)) {
    return classifier.classify(sample, property, index).then(
      (answer): Answered => ({
        classification:
          answer.label === null
            ? { label: null, reason: answer.reason ?? 'no label', error: false }
            : { label: answer.label },
        ...(answer.usage ? { usage: answer.usage } : {}),
      }),
      (error: unknown): Answered => ({ classification: failed(error) }),
    )
  }
  let answer: LabelAnswer | Promise<LabelAnswer>
  try {
    answer = classifier(sample, property, index)
  } catch (error) {
    return { classification: failed(error) }
  }
  if (isThenable(answer))
    return Promise.resolve(answer).then(
      (a) => ({ classification: labelOf(a) }),
      (error: unknown) => ({ classification: failed(error) }),
    )
  return { classification: labelOf(answer) }
}

function isThenable(value: unknown): value is PromiseLike<LabelAnswer> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function'
}

function failed(error: unknown): Classification {
  return { label: null, reason: error instanceof Error ? error.message : String(error), error: true }
}

function labelOf(answer: unknown): Classification {
  if (answer === null || answer === undefined || answer === '')
    return { label: null, reason: 'the classifier gave no label', error: false }
  if (typeof answer === 'string') return { label: answer }
  if (typeof answer === 'number' || typeof answer === 'boolean') return { label: String(answer) }
  return { label: null, reason: `the classifier returned ${typeof answer}, not a label`, error: false }
}

function fieldLabel(sample: Sample, field: string): Classification {
  const value = sample[field]
  if (value === undefined || value === null || value === '')
    return { label: null, reason: `no value in field "${field}"`, error: false }
  if (typeof value === 'string') return { label: value }
  if (typeof value === 'number' || typeof value === 'boolean') return { label: String(value) }
  return {
    label: null,
    reason: `field "${field}" holds ${Array.isArray(value) ? 'an array' : typeof value}, not a label`,
    error: false,
  }
}
