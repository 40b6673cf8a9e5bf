import { CONFORMANCE_METRIC_PREFIX, CONFORMANCE_SCORE_METRIC } from '../../grading/conformance/metrics.js'
import type { Aggregate } from '../aggregate.js'

/**
 * Conformance evaluations reach the report as metrics on their runs (`conformanceMetrics`):
 *   `conformanceScore`                                    0–100
 *   `conformance.<property>.score|p|analyzed`             per property
 *   `conformance.<property>.<label>.requested|evaluated`  each label's share, in percent
 * Properties are known from their `analyzed` count, so property names and labels may contain dots.
 */
const PROPERTY = /^conformance\.(.+)\.analyzed$/
const SHARE = /^(.+)\.(requested|evaluated)$/

export interface ConformanceProperty {
  name: string
  score: number | null
  p: number | null
  labels: Array<{ label: string; requested: number | null; evaluated: number | null }>
}

export interface GroupConformance {
  aggregate: Aggregate
  score: number | null
  properties: ConformanceProperty[]
}

/** The conformance metrics of each group that has them (means over its completed runs). */
export function groupConformance(aggregates: readonly Aggregate[]): GroupConformance[] {
  const out: GroupConformance[] = []
  for (const a of aggregates) {
    const m = a.metrics
    const names = Object.keys(m)
      .map((k) => PROPERTY.exec(k)?.[1])
      .filter((n): n is string => n !== undefined)
      // Longest first, so `a.b`'s metrics are not taken for property `a`.
      .sort((x, y) => y.length - x.length || (x < y ? -1 : 1))
    if (!names.length && !(CONFORMANCE_SCORE_METRIC in m)) continue
    const properties = new Map<string, ConformanceProperty>(
      names.map((name) => [name, { name, score: m[`${CONFORMANCE_METRIC_PREFIX}${name}.score`] ?? null, p: m[`${CONFORMANCE_METRIC_PREFIX}${name}.p`] ?? null, labels: [] }]),
    )
    for (const [key, value] of Object.entries(m)) {
      const share = SHARE.exec(key)
      if (!share) continue
      const name = names.find((n) => share[1]!.startsWith(`${CONFORMANCE_METRIC_PREFIX}${n}.`))
      if (!name) continue
      const label = share[1]!.slice(`${CONFORMANCE_METRIC_PREFIX}${name}.`.length)
      const prop = properties.get(name)!
      let entry = prop.labels.find((l) => l.label === label)
      if (!entry) {
        entry = { label, requested: null, evaluated: null }
        prop.labels.push(entry)
      }
      entry[share[2] as 'requested' | 'evaluated'] = value
    }
    out.push({
      aggregate: a,
      score: m[CONFORMANCE_SCORE_METRIC] ?? null,
      properties: [...properties.values()].sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0)),
    })
  }
  return out
}
