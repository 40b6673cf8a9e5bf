import { type RecordedProperty, readConformanceMetrics } from '../../grading/conformance/metrics.js'
import { formatNumber, formatP } from '../../stats/number-format.js'
import type { EvalReport } from '../build.js'
import { table } from '../figure-text.js'
import { caseLabel } from '../../core/case-label.js'
import { markdownCell } from '../../core/escape-text.js'

/**
 * The leaderboard's conformance section: one row per evaluated sample set (a run that recorded conformance
 * metrics), with its score, worst property and per-property p-values. Empty when no run evaluated conformance.
 */
export function renderConformanceSection(report: Pick<EvalReport, 'records'>): string {
  const runs = report.records.flatMap((r) => {
    const recorded = readConformanceMetrics(r.metrics)
    return recorded ? [{ r, recorded }] : []
  })
  if (!runs.length) return ''
  const rows = runs.map(({ r, recorded }) => {
    const props = recorded.properties
    const worst = props.reduce<RecordedProperty | undefined>(
      (w, p) => (p.score !== null && (w === undefined || p.score < w.score!) ? p : w),
      undefined,
    )
    const rules = recorded.rulesPassRate
    return [
      markdownCell(r.agent),
      markdownCell(caseLabel(r)),
      recorded.score === null ? 'FAILED' : formatNumber(recorded.score, 1),
      worst ? `${markdownCell(worst.name)} ${formatNumber(worst.score, 1)}` : '—',
      props.map((p) => `${markdownCell(p.name)} ${formatP(p.p)}`).join(', ') || '—',
      rules === null ? '—' : `${formatNumber(100 * rules, 1)}%`,
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
