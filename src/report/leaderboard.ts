import type { GroupDelta } from './baseline.js'
import { formatDelta } from './baseline.js'
import type { EvalReport } from './build.js'
import { table } from './format.js'
import { renderMarkdownReport } from './markdown.js'
import { renderConformanceSection } from './conformance-section.js' // conformance (issue 14)
import { formatP } from '../stats/format.js'

export interface LeaderboardExtras {
  title?: string
  baselineDeltas?: readonly GroupDelta[]
  gateFailures?: readonly string[]
  /** Significance level of the baseline comparison. Default 0.05. */
  alpha?: number
}

function renderBaseline(deltas: readonly GroupDelta[], alpha: number): string {
  return table(
    ['group', 'F1 baseline → now', 'Δ F1', 'pass rate baseline → now', 'Δ pass rate', 'b', 'c', 'p', 'verdict'],
    deltas.map((d) => [
      d.group,
      `${d.before.f1?.toFixed(3) ?? '—'} → ${d.after.f1?.toFixed(3) ?? '—'}`,
      formatDelta(d.before.f1, d.after.f1),
      `${d.before.passRate?.toFixed(3) ?? '—'} → ${d.after.passRate?.toFixed(3) ?? '—'}`,
      formatDelta(d.before.passRate, d.after.passRate),
      d.verdict ? String(d.verdict.b) : '—',
      d.verdict ? String(d.verdict.c) : '—',
      d.verdict ? formatP(d.verdict.p) : '—',
      verdictText(d, alpha),
    ]),
  )
}

function verdictText(d: GroupDelta, alpha: number): string {
  const v = d.verdict
  if (!v || v.n === 0) return 'no pairs'
  const parts: string[] = []
  if (v.significantWorse) parts.push('**regression**')
  else if (v.c > v.b && v.p < alpha) parts.push('better')
  if (v.belowFloor) parts.push('**below floor**')
  return parts.length ? parts.join(', ') : 'ok'
}

/** The reporter's leaderboard.md: the shared Markdown report plus baseline deltas and gate results. */
export function renderLeaderboard(report: EvalReport, extras: LeaderboardExtras = {}): string {
  const body = renderMarkdownReport(report, { title: extras.title ?? 'dataforge-evals leaderboard', runtimeInSummary: false })
  const sections: string[] = []
  if (extras.gateFailures?.length) {
    sections.push('## Gate', '', 'The gate failed:', '', ...extras.gateFailures.map((f) => `- ${f}`), '')
  } else {
    sections.push('## Gate', '', 'Passed: every threshold met, every eval scored, no significant regression.', '')
  }
  if (extras.baselineDeltas?.length) {
    const alpha = extras.alpha ?? 0.05
    const note = `Paired on (case, trial); McNemar test on correctness at α = ${alpha}. A group fails only when significantly worse or below the floor.`
    sections.push('## Against the baseline', '', note, '', renderBaseline(extras.baselineDeltas, alpha), '')
  }
  sections.push(...[renderConformanceSection(report)].filter(Boolean)) // conformance (issue 14): only when a run evaluated it
  const marker = '\n## Run failures'
  const at = body.indexOf(marker)
  return at === -1 ? `${body}\n${sections.join('\n')}` : `${body.slice(0, at)}\n${sections.join('\n')}${body.slice(at)}`
}
