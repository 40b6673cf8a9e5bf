import type { GroupDelta } from '../baseline.js'
import type { EvalReport } from '../build.js'
import { patternMatches } from '../gates.js'
import type { Thresholds } from '../thresholds.js'
import { fixed, table } from '../figure-text.js'
import { insertSections, type ReportSection, renderSectionsMarkdown, reportSections } from './report.js'
import { formatDelta, formatP } from '../../stats/number-format.js'
import { deltaLabel, powerText, detectableText, testName, unitsText } from '../comparison-verdict.js'
import { renderConformanceSection } from './conformance-section.js' // conformance (issue 14)
import { markdownCell, markdownCode, markdownText } from '../../core/escape-text.js'
import { untestableLines } from '../power-note.js'

export interface LeaderboardExtras {
  title?: string
  baselineDeltas?: readonly GroupDelta[]
  gateFailures?: readonly string[]
  /** What the reader should know that did not fail the run (e.g. a threshold not checked in a filtered run). */
  gateNotes?: readonly string[]
  /** Significance level of the baseline comparison. Default 0.05. */
  alpha?: number
  /** Where the baseline is, or why there is none to compare with (shown when there are no deltas). */
  baselineNote?: string
}

/** `- mock: f1 ≥ 1, passRate ≥ 1 (3 groups)` for each threshold pattern in the report's config. */
function thresholdLines(report: EvalReport): string[] {
  const thresholds = (report.config.thresholds ?? {}) as Thresholds
  return Object.entries(thresholds).map(([pattern, spec]) => {
    const bars = Object.entries(spec)
      .map(([metric, bar]) => `${metric} ≥ ${bar}`)
      .join(', ')
    const matched = report.aggregates.filter((a) => patternMatches(pattern, a)).length
    return `- ${markdownCode(pattern)}: ${bars} (${matched} group${matched === 1 ? '' : 's'})`
  })
}

function arrow(before: number | null | undefined, after: number | null): string {
  return `${before === undefined ? '—' : fixed(before)} → ${fixed(after)}`
}

function baselineDeltaTable(deltas: readonly GroupDelta[]): string {
  return table(
    [
      'group',
      'F1 baseline → now',
      'ΔF1',
      'F1 p',
      'pass rate baseline → now',
      'Δpass rate',
      'units',
      'b',
      'c',
      'pass/fail p',
      'verdict',
    ],
    deltas.map((d) => {
      const v = d.verdict
      const paired = d.status === 'compared' && v !== null && v.n > 0
      const label = deltaLabel(d)
      return [
        markdownCell(d.group),
        arrow(d.before?.f1, d.after.f1),
        formatDelta(d.before?.f1, d.after.f1),
        paired && v.f1 ? (v.f1.p === null ? 'exact' : `${formatP(v.f1.p)} (${testName(v.f1.test)})`) : '—',
        arrow(d.before?.passRate, d.after.passRate),
        formatDelta(d.before?.passRate, d.after.passRate),
        paired ? unitsText(v) : '0',
        paired ? String(v.b) : '—',
        paired ? String(v.c) : '—',
        paired ? (v.p === null ? 'exact' : `${formatP(v.p)} (${testName(v.passFailTest)})`) : '—',
        d.failed ? `**${label}**` : label,
      ]
    }),
  )
}

/** The gate and baseline sections, from the report and the gate's results. */
function gateSections(report: EvalReport, extras: LeaderboardExtras): ReportSection[] {
  const failures = extras.gateFailures ?? []
  const notes = (extras.gateNotes ?? []).map((n) => `- note: ${markdownText(n)}`)
  const gate = failures.length
    ? ['The gate failed:', '', ...failures.map((f) => `- ${markdownText(f)}`), ...notes]
    : [
        'Passed: every threshold met, every eval scored, no significant regression.',
        ...(notes.length ? ['', ...notes] : []),
      ]
  const checked = thresholdLines(report)
  if (checked.length) gate.push('', 'Thresholds checked (pattern: bars, groups matched):', '', ...checked)
  const deltas = extras.baselineDeltas ?? []
  if (!deltas.length && extras.baselineNote) gate.push('', markdownText(extras.baselineNote))
  const sections: ReportSection[] = [{ id: 'gate', title: 'Gate', body: gate.join('\n') }]
  if (deltas.length) {
    const alpha = extras.alpha ?? 0.05
    const rule =
      `Paired on units (a case, a conversation, a generated dataset; its trials averaged) with the baseline's runs of the same agent. ` +
      `A group fails when it is significantly worse at α = ${alpha} on pass/fail (McNemar on units, or a sign-flip test on unit pass rates) ` +
      `or on F1 (sign-flip test on unit means), when one unit with identical trials drops deterministically (exact, no p), or below the floor; ` +
      'a group the baseline does not have is new and not compared. Δ = now − baseline.'
    const underpowered = deltas.flatMap((d) =>
      d.verdict && d.status === 'compared' && powerText(d.verdict, alpha)
        ? [`- ${markdownText(d.group)}: ${powerText(d.verdict, alpha)}`]
        : [],
    )
    const power = underpowered.length
      ? `\n\n**Power.** These groups cannot fail on the tests, whatever happens, only through the floor:\n\n${underpowered.join('\n')}`
      : ''
    const detectable = deltas.flatMap((d) =>
      d.verdict && d.status === 'compared' && detectableText(d.verdict)
        ? [`- ${d.group}: ${detectableText(d.verdict)}`]
        : [],
    )
    const mde = detectable.length
      ? `\n\n**Detectable effects** at α = ${alpha} (Miller's power formula; docs/statistics.md):\n\n${detectable.join('\n')}`
      : ''
    const untestable = untestableLines(deltas, markdownText)
      .map((line) => `\n\n${line}`)
      .join('')
    sections.push({
      id: 'baseline',
      title: 'Against the baseline',
      body: `${rule}\n\n${baselineDeltaTable(deltas)}${power}${untestable}${mde}`,
    })
  }
  return sections
}

/** The reporter's leaderboard.md: the report's sections with the gate and the baseline placed before the run failures. */
export function renderLeaderboard(report: EvalReport, extras: LeaderboardExtras = {}): string {
  const conformance = renderConformanceSection(report) // conformance (issue 14): only when a run evaluated it
  const added = [
    ...gateSections(report, extras),
    ...(conformance ? [{ id: 'conformance', title: null, body: conformance.trimEnd() }] : []),
  ]
  const sections = insertSections(reportSections(report, { runtimeInSummary: false }), 'run-failures', added)
  return renderSectionsMarkdown(extras.title ?? 'dataforge-evals leaderboard', sections)
}
