import type { RunRecord } from '../core/run-record.js'
import { CONFORMANCE_SCORE_METRIC, isConformanceRecord } from '../grading/conformance/metrics.js'
import { formatNumber, formatP } from '../stats/format.js'
import type { EvalReport } from './build.js'
import { table } from './format.js'

const PROPERTY_METRIC = /^conformance\.(.+)\.(score|p|analyzed)$/

interface PropertyNumbers {
  name: string
  score?: number
  p?: number
  analyzed?: number
}

/** Per-property numbers a conformance run recorded (`conformance.<property>.score|p|analyzed`), in name order. */
export function conformanceProperties(record: RunRecord): PropertyNumbers[] {
  const byName = new Map<string, PropertyNumbers>()
  for (const [key, value] of Object.entries(record.metrics)) {
    const m = PROPERTY_METRIC.exec(key)
    if (!m) continue
    const entry = byName.get(m[1]!) ?? { name: m[1]! }
    entry[m[2] as 'score' | 'p' | 'analyzed'] = value
    byName.set(m[1]!, entry)
  }
  return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
}

/**
 * The leaderboard's conformance section: one row per evaluated sample set (a run that recorded conformance
 * metrics), with its score, worst property and per-property p-values. Empty when no run evaluated conformance.
 */
export function renderConformanceSection(report: Pick<EvalReport, 'records'>): string {
  const records = report.records.filter(isConformanceRecord)
  if (!records.length) return ''
  const rows = records.map((r) => {
    const props = conformanceProperties(r)
    const scored = props.filter((p) => p.score !== undefined)
    const worst = scored.reduce<PropertyNumbers | undefined>((w, p) => (w === undefined || p.score! < w.score! ? p : w), undefined)
    const score = r.metrics[CONFORMANCE_SCORE_METRIC]
    const rules = r.metrics['conformance.rulesPassRate']
    return [
      r.agent,
      r.turn === null ? r.caseId : `${r.caseId}#t${r.turn}`,
      score === undefined ? 'FAILED' : formatNumber(score, 1),
      worst ? `${worst.name} ${formatNumber(worst.score, 1)}` : '—',
      props.map((p) => `${p.name} ${formatP(p.p)}`).join(', ') || '—',
      rules === undefined ? '—' : `${formatNumber(100 * rules, 1)}%`,
      r.status === 'failed' ? `failed: ${r.failureKind}` : r.correct ? 'pass' : 'fail',
    ]
  })
  return [
    '## Synthetic-data conformance',
    '',
    'Score 0-100: per property 100 × (1 − total variation distance between requested and evaluated shares), weighted by samples analyzed, ' +
      'times the rules pass rate. p: goodness of fit to the request (exact multinomial for small samples, else χ²).',
    '',
    table(['agent', 'case', 'score', 'worst property', 'p-values', 'rules pass', 'verdict'], rows),
    '',
  ].join('\n')
}
