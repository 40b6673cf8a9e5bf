import type { RunRecord } from '../../core/run-record.js'
import type { Aggregate } from '../aggregate.js'

/**
 * Conformance checks reach the report as metrics on their runs, named
 *   `conformance.score`                                  0–100
 *   `conformance.<property>.<label>.requested|observed`  percent of samples
 *   `conformance.<property>.p`                           goodness-of-fit p-value
 * Property names must not contain a dot; labels may.
 */
export const CONFORMANCE_PREFIX = 'conformance.'

export function isConformanceRecord(r: RunRecord): boolean {
  return Object.keys(r.metrics).some((k) => k.startsWith(CONFORMANCE_PREFIX))
}

export interface ConformanceProperty {
  name: string
  p: number | null
  labels: Array<{ label: string; requested: number | null; observed: number | null }>
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
    const entries = Object.entries(a.metrics).filter(([k]) => k.startsWith(CONFORMANCE_PREFIX))
    if (!entries.length) continue
    let score: number | null = null
    const properties = new Map<string, ConformanceProperty>()
    const property = (name: string) => {
      let p = properties.get(name)
      if (!p) {
        p = { name, p: null, labels: [] }
        properties.set(name, p)
      }
      return p
    }
    for (const [key, value] of entries) {
      const rest = key.slice(CONFORMANCE_PREFIX.length)
      if (rest === 'score') {
        score = value
        continue
      }
      const dot = rest.indexOf('.')
      if (dot <= 0) continue
      const name = rest.slice(0, dot)
      const tail = rest.slice(dot + 1)
      if (tail === 'p') {
        property(name).p = value
        continue
      }
      const which = tail.endsWith('.requested') ? 'requested' : tail.endsWith('.observed') ? 'observed' : null
      if (!which) continue
      const label = tail.slice(0, -(which.length + 1))
      const prop = property(name)
      let entry = prop.labels.find((l) => l.label === label)
      if (!entry) {
        entry = { label, requested: null, observed: null }
        prop.labels.push(entry)
      }
      entry[which] = value
    }
    out.push({ aggregate: a, score, properties: [...properties.values()].filter((p) => p.labels.length > 0 || p.p !== null) })
  }
  return out
}
