import pc from 'picocolors'
import type { EvalReport } from './build.js'
import { fixed, meanStd } from './format.js'
import { formatInterval } from '../stats/format.js'

/** A compact, colored leaderboard for the terminal. */
export function renderTerminalSummary(report: EvalReport, opts: { color: boolean }): string {
  const c = pc.createColors(opts.color)
  const header = ['group', 'trials', 'pass', 'score [95% CI]', 'P', 'R', 'F1 (mean ± std)', 'failures']
  const rows = report.aggregates.map((a) => {
    const failures = Object.values(a.failures).reduce((x, y) => x + y, 0)
    const f1 = meanStd(a.f1Mean, a.f1Std)
    const f1Colored = a.f1Mean === null ? f1 : a.f1Mean >= 0.8 ? c.green(f1) : a.f1Mean >= 0.4 ? c.yellow(f1) : c.red(f1)
    return [
      a.group,
      `${a.trialsCompleted}/${a.trialsRequested}`,
      a.passRate === null ? '—' : `${a.correct}/${a.trialsRequested - a.trialsSkipped}`,
      formatInterval(a.score.point, a.score.low, a.score.high, 2),
      fixed(a.precisionMean),
      fixed(a.recallMean),
      f1Colored,
      failures ? c.red(String(failures)) : '0',
    ]
  })
  const visible = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '').length
  const widths = header.map((h, i) => Math.max(visible(h), ...rows.map((r) => visible(r[i]!))))
  const line = (cells: string[]) => cells.map((s, i) => s + ' '.repeat(widths[i]! - visible(s))).join('  ')
  return [c.bold(line(header)), ...rows.map(line)].join('\n') + '\n'
}
