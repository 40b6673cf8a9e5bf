import { compareText } from '../../core/order.js'
import type { ConformanceEvaluation } from './evaluate.js'
import { dataRecord } from '../../core/data-record.js'

/** Metric holding the 0-100 score on a RunRecord; the leaderboard's conformance section looks for it. */
export const CONFORMANCE_SCORE_METRIC = 'conformanceScore'

/** Every other conformance metric's name starts with this. */
const CONFORMANCE_METRIC_PREFIX = 'conformance.'

/** Whether a run's metrics are a conformance evaluation's (what `conformanceMetrics` wrote). */
export function isConformanceRecord(record: { metrics: Record<string, number> }): boolean {
  return (
    CONFORMANCE_SCORE_METRIC in record.metrics ||
    Object.keys(record.metrics).some((k) => k.startsWith(CONFORMANCE_METRIC_PREFIX))
  )
}

/**
 * The numbers a RunRecord carries for one evaluated sample set: the score, and per property its score,
 * p-value and samples analyzed (`conformance.<property>.score|p|analyzed`), each label's requested and
 * evaluated share in percent (`conformance.<property>.<label>.requested|evaluated`, what the HTML report draws),
 * plus the rules' pass rate.
 */
export function conformanceMetrics(result: ConformanceEvaluation): Record<string, number> {
  const metrics = dataRecord<number>()
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

/** One property's numbers as `conformanceMetrics` recorded them. */
export interface RecordedProperty {
  name: string
  score: number | null
  p: number | null
  analyzed: number | null
  /** Each label's requested and evaluated share, in percent, in label order. */
  labels: Array<{ label: string; requested: number | null; evaluated: number | null }>
}

export interface RecordedConformance {
  score: number | null
  /** The rules' pass rate in [0, 1], when rules were checked. */
  rulesPassRate: number | null
  /** In name order. */
  properties: RecordedProperty[]
}

const PROPERTY = /^conformance\.(.+)\.analyzed$/
const SHARE = /^(.+)\.(requested|evaluated)$/

/**
 * Reads back what `conformanceMetrics` wrote (from one run's metrics, or a group's means of them); null when
 * they hold no conformance evaluation. Properties are known from their `analyzed` count, so property names and
 * labels may contain dots.
 */
export function readConformanceMetrics(metrics: Record<string, number>): RecordedConformance | null {
  if (!isConformanceRecord({ metrics })) return null
  const p = CONFORMANCE_METRIC_PREFIX
  const names = Object.keys(metrics)
    .map((k) => PROPERTY.exec(k)?.[1])
    .filter((n): n is string => n !== undefined)
    // Longest first, so `a.b`'s metrics are not taken for property `a`.
    .sort((x, y) => y.length - x.length || compareText(x, y))
  const properties = new Map<string, RecordedProperty>(
    names.map((name) => [
      name,
      {
        name,
        score: metrics[`${p}${name}.score`] ?? null,
        p: metrics[`${p}${name}.p`] ?? null,
        analyzed: metrics[`${p}${name}.analyzed`] ?? null,
        labels: [],
      },
    ]),
  )
  for (const [key, value] of Object.entries(metrics)) {
    const share = SHARE.exec(key)
    if (!share) continue
    const name = names.find((n) => share[1]!.startsWith(`${p}${n}.`))
    if (!name) continue
    const label = share[1]!.slice(`${p}${name}.`.length)
    const prop = properties.get(name)!
    let entry = prop.labels.find((l) => l.label === label)
    if (!entry) {
      entry = { label, requested: null, evaluated: null }
      prop.labels.push(entry)
    }
    entry[share[2] as 'requested' | 'evaluated'] = value
  }
  return {
    score: metrics[CONFORMANCE_SCORE_METRIC] ?? null,
    rulesPassRate: metrics[`${p}rulesPassRate`] ?? null,
    properties: [...properties.values()].sort((x, y) => compareText(x.name, y.name)),
  }
}
