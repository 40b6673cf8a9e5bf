import type { GroupDelta } from './baseline.js'
import { formatDelta } from './baseline.js'
import type { EvalReport } from './build.js'
import { table } from './format.js'
import { renderMarkdownReport } from './markdown.js'
import { formatP } from '../stats/format.js'

export interface LeaderboardExtras {
  title?: string
  baselineDeltas?: readonly GroupDelta[]
  gateFailures?: readonly string[]
}

function renderBaseline(deltas: readonly GroupDelta[]): string {
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
      d.verdict ? (d.verdict.failed ? '**regression**' : d.verdict.significantWorse ? 'worse' : 'ok') : 'no pairs',
    ]),
  )
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
    sections.push('## Against the baseline', '', 'Paired on (case, trial); McNemar test on correctness.', '', renderBaseline(extras.baselineDeltas), '')
  }
  const marker = '\n## Run failures'
  const at = body.indexOf(marker)
  return at === -1 ? `${body}\n${sections.join('\n')}` : `${body.slice(0, at)}\n${sections.join('\n')}${body.slice(at)}`
}
