import pc from 'picocolors'
import { failedRuns, leaderboardOrder } from './aggregate.js'
import type { GroupDelta } from './baseline.js'
import type { EvalReport } from './build.js'
import { fixed, meanIntervalText, meanStd } from './figure-text.js'
import type { GateResult } from './gates.js'
import { repairRank, scoreRule } from './score-rule.js'
import { formatInterval } from '../stats/number-format.js'
import { unitsNote } from './units-note.js'
import { unitsText } from '../stats/units.js'
import { terminalText } from '../core/escape-text.js'
import { valueCutsLine, valueCutsOf } from './value-cuts.js'
import { underpoweredLine, untestableLines, withoutPowerClause } from './power-note.js'

/** A compact, colored leaderboard for the terminal, with the rule that decided its Score column and any values cut. */
export function renderTerminalSummary(report: EvalReport, opts: { color: boolean }): string {
  const c = pc.createColors(opts.color)
  const rule = scoreRule(report)
  const header = [
    'group',
    'units',
    'F1 (mean ± std)',
    'F1 [95% CI]',
    'P',
    'R',
    `Score counts: ${rule.short}`,
    'Score [95% CI]',
    'trials done/asked',
    'failures',
  ]
  const rows = leaderboardOrder(report.aggregates).map((a) => {
    const failures = failedRuns(a)
    const f1 = meanStd(a.f1Mean, a.f1Std, a.repairRuns)
    const f1Colored =
      a.f1Mean === null ? f1 : a.f1Mean >= 0.8 ? c.green(f1) : a.f1Mean >= 0.4 ? c.yellow(f1) : c.red(f1)
    return [
      terminalText(a.group),
      unitsText(a.units),
      f1Colored,
      meanIntervalText(a.f1Interval),
      fixed(a.precisionMean),
      fixed(a.recallMean),
      a.passRate === null ? '—' : `${a.correct}/${a.trialsRequested - a.trialsSkipped}`,
      formatInterval(a.score.point, a.score.low, a.score.high, 2),
      `${a.trialsCompleted}/${a.trialsRequested}`,
      failures ? c.red(String(failures)) : '0',
    ]
  })
  const visible = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '').length
  const widths = header.map((h, i) => Math.max(visible(h), ...rows.map((r) => visible(r[i]!))))
  const line = (cells: string[]) =>
    cells
      .map((s, i) => s + ' '.repeat(widths[i]! - visible(s)))
      .join('  ')
      .trimEnd()
  const units = unitsNote(report.aggregates, terminalText)
  const legend = `${repairRank(report)}${rule.legend} The "Score counts" column counts those runs; Score is shown with its 95% Wilson interval${units ? ' (over units where trials repeat)' : ''}.`
  const cuts = valueCutsOf(report.records)
  const cutLine = cuts ? [c.yellow(valueCutsLine(cuts, terminalText))] : []
  return (
    [c.bold(line(header)), ...rows.map(line), c.dim(legend), ...(units ? [c.dim(units)] : []), ...cutLine].join('\n') +
    '\n'
  )
}

/**
 * `drifty · synthetic: F1 1.000 → 0.875, pass rate 1.000 → 0.875 · <the verdict, its tests and deltas>`. With
 * `alpha`, the power clause and an untestable unit's remedy are left out: the run says each once (power-note.ts).
 */
export function renderDeltaLine(d: GroupDelta, opts: { color: boolean; alpha?: number }): string {
  const c = pc.createColors(opts.color)
  if (d.status === 'new') return `  ${terminalText(d.message)}`
  const change = `F1 ${fixed(d.before?.f1)} → ${fixed(d.after.f1)}, pass rate ${fixed(d.before?.passRate)} → ${fixed(d.after.passRate)}`
  const message = opts.alpha === undefined ? d.message : withoutPowerClause(d, opts.alpha)
  const verdict = terminalText(message.slice(d.group.length + 2))
  return `  ${terminalText(d.group)}: ${change} · ${d.failed ? c.red(verdict) : verdict}`
}

export interface RunEndView {
  report: EvalReport
  gate: GateResult
  baselineDeltas: readonly GroupDelta[]
  /** Significance level of the baseline comparison (default 0.05). */
  alpha?: number
  /** Watch mode: deltas against the previous run (or why they cannot be computed). */
  sincePrevious: readonly string[]
  /** Lines about a baseline update. */
  baselineUpdate: readonly string[]
  outputDir: string
  print: boolean
  color: boolean
}

/** Everything the reporter prints at the end of a run, from data. */
export function renderRunEnd(view: RunEndView): string {
  const c = pc.createColors(view.color)
  const lines: string[] = []
  if (view.print) {
    lines.push(
      `\n${c.bold('dataforge-evals leaderboard')}\n${renderTerminalSummary(view.report, { color: view.color })}`,
    )
    if (view.baselineDeltas.length) {
      const alpha = view.alpha ?? 0.05
      const power = underpoweredLine(view.baselineDeltas, alpha, terminalText)
      lines.push(
        c.bold('against the baseline'),
        ...view.baselineDeltas.map((d) => renderDeltaLine(d, { color: view.color, alpha })),
      )
      if (power) lines.push(c.yellow(`  ${power}`))
      lines.push(...untestableLines(view.baselineDeltas, terminalText).map((line) => c.dim(`  ${line}`)))
    }
    lines.push(...view.sincePrevious)
  }
  lines.push(...view.baselineUpdate)
  if (view.print) {
    lines.push(...view.gate.notes.map((n) => c.yellow(`dataforge-evals note: ${terminalText(n)}`)))
    lines.push(`reports: ${view.outputDir}`)
  }
  if (view.gate.failures.length)
    lines.push(
      c.red(c.bold('dataforge-evals gate failed:')),
      ...view.gate.failures.map((f) => c.red(`  ✗ ${terminalText(f)}`)),
    )
  return lines.join('\n')
}
