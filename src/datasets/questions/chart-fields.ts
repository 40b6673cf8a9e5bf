import type { Answer, GradeResult } from '../../core/answer.js'
import type { SyncGrader } from '../../grading/answers/grader-types.js'

/**
 * Passes when some chart of the answer encodes the given channels with these fields (a unit spec's own
 * encoding, or one inside layer/concat compositions). Complements `chartProduced`, which checks validity,
 * mark and channels but not which columns were plotted.
 */
export function chartUsesFields(fields: Record<string, string>): SyncGrader {
  const wanted = Object.entries(fields)
  const label = wanted.map(([ch, f]) => `${ch}=${f}`).join(', ')
  return (answer: Answer): GradeResult => {
    const found: string[] = []
    for (const chart of answer.charts ?? []) {
      for (const unit of unitSpecs(chart)) {
        const encoding = (unit.encoding ?? {}) as Record<string, { field?: unknown } | undefined>
        const got = wanted.map(([ch]) => `${ch}=${String(encoding[ch]?.field ?? '—')}`).join(', ')
        if (wanted.every(([ch, f]) => encoding[ch]?.field === f))
          return { passed: true, detail: `chart encodes ${label}` }
        found.push(got)
      }
    }
    return {
      passed: false,
      detail: `expected a chart encoding ${label}, found ${found.length ? found.join('; ') : 'no encodings'}`,
    }
  }
}

function unitSpecs(spec: unknown): Array<Record<string, unknown>> {
  if (!spec || typeof spec !== 'object') return []
  const s = spec as Record<string, unknown>
  const children = ['layer', 'concat', 'hconcat', 'vconcat'].flatMap((k) =>
    Array.isArray(s[k]) ? (s[k] as unknown[]) : [],
  )
  const nested = s.spec ? [s.spec] : []
  return [...(s.mark !== undefined ? [s] : []), ...children.flatMap(unitSpecs), ...nested.flatMap(unitSpecs)]
}
