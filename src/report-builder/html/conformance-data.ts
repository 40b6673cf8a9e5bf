import { type RecordedProperty, readConformanceMetrics } from '../../grading/conformance/metrics.js'
import type { Aggregate } from '../aggregate.js'

type ConformanceProperty = RecordedProperty

export interface GroupConformance {
  aggregate: Aggregate
  score: number | null
  properties: ConformanceProperty[]
}

/** The conformance metrics of each group that has them (means over its completed runs). */
export function groupConformance(aggregates: readonly Aggregate[]): GroupConformance[] {
  const out: GroupConformance[] = []
  for (const aggregate of aggregates) {
    const recorded = readConformanceMetrics(aggregate.metrics)
    if (recorded) out.push({ aggregate, score: recorded.score, properties: recorded.properties })
  }
  return out
}
