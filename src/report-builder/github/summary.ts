import { formatDelta, formatNumber, formatP } from '../../stats/number-format.js'
import type { GroupDelta } from '../baseline.js'
import { deltaLabel, testName, testsText, unitsText } from '../comparison-verdict.js'
import { underpoweredLine } from '../power-note.js'
import { gateGroupName } from '../gate-groups.js'
import type { GateFailure } from '../gates.js'
import { markdownCell, markdownCode, markdownText } from '../../core/escape-text.js'
import { table } from '../figure-text.js'
import type { GithubGateView } from './gate-view.js'
import { type ValueCutsSummary, valueCutsLine } from '../value-cuts.js'
import { unitsText as formatUnits } from '../../stats/units.js'

/*
 * The job summary ($GITHUB_STEP_SUMMARY) and the PR comment (pr-comment.md): GitHub-flavoured Markdown built
 * from the gate's results. Every value that comes from the user's evals (group names, messages) is escaped.
 */

/** The hidden marker a comment step finds to update its comment instead of adding one. */
export const PR_COMMENT_MARKER = '<!-- dataforge-evals:pr-comment -->'

const num = (v: number | null | undefined) => (v === null || v === undefined ? '—' : formatNumber(v))
const arrow = (before: number | null | undefined, after: number | null | undefined) => `${num(before)} → ${num(after)}`

/** `❌ **Gate failed**: 2 failures` or `✅ **Gate passed**: …`, the first line of both documents. */
function verdictHeadline(view: GithubGateView): string {
  const n = view.failures.length
  if (n) return `❌ **Gate failed**: ${n} failure${n === 1 ? '' : 's'}; the run exits 1.`
  const compared = view.deltas.filter((d) => d.status === 'compared').length
  const changed = compared
    ? `, no significant regression in ${compared} group${compared === 1 ? '' : 's'} against the baseline`
    : ''
  return `✅ **Gate passed**: every threshold met, every eval scored${changed}.`
}

function failureList(view: GithubGateView): string[] {
  return view.failures.map((f) => `- ${markdownText(f)}`)
}

function thresholdRow(f: GateFailure): string[] {
  return [
    markdownCell(f.group),
    markdownCell(f.metric),
    num(f.value),
    `threshold ≥ ${f.threshold}`,
    '—',
    '—',
    'below threshold',
  ]
}

/** A failed baseline group: one row per test or bar it failed, each with its unit (pass/fail or F1). */
function deltaRows(d: GroupDelta, view: GithubGateView): string[][] {
  const v = d.verdict
  if (!v) return []
  const rows: string[][] = []
  const group = markdownCell(d.group)
  const label = markdownCell(deltaLabel(d))
  // The test behind each p, in the words every report uses (comparison-verdict.ts), with its units.
  const exact = v.method === 'deterministic' ? `exact (${testsText(v)})` : null
  const passFail = exact ?? `${formatP(v.p)} (pass/fail ${testName(v.passFailTest)}, ${unitsText(v)})`
  const f1 = exact ?? (v.f1 ? `${formatP(v.f1.p)} (F1 ${testName(v.f1.test)}, ${unitsText(v)})` : '—')
  if (v.significantWorse)
    rows.push([
      group,
      'pass rate',
      num(d.after.passRate),
      `baseline ${num(d.before?.passRate)}`,
      formatDelta(d.before?.passRate, d.after.passRate),
      passFail,
      label,
    ])
  if (v.f1?.significantWorse)
    rows.push([
      group,
      'F1',
      num(d.after.f1),
      `baseline ${num(d.before?.f1)}`,
      formatDelta(d.before?.f1, d.after.f1),
      f1,
      label,
    ])
  if (v.belowFloor) rows.push([group, 'score', num(v.current.score), `floor ${view.floor ?? '—'}`, '—', '—', label])
  // runs that failed where the baseline scored, or nothing scored: no metric row says it
  if (v.failedWhereScored?.length)
    rows.push([group, 'failed runs', markdownCell(v.failedWhereScored.join(', ')), 'baseline scored', '—', '—', label])
  else if (!rows.length && d.failed) rows.push([group, 'runs', '—', '—', '—', '—', label])
  return rows
}

function failingGroupsTable(view: GithubGateView): string {
  const rows = [
    ...view.thresholdFailures.map(thresholdRow),
    ...view.deltas.filter((d) => d.failed).flatMap((d) => deltaRows(d, view)),
  ]
  if (!rows.length) return ''
  return table(['group', 'metric', 'value', 'threshold or baseline', 'Δ', 'p (test)', 'verdict'], rows)
}

function leaderboardTable(view: GithubGateView): string {
  const deltas = new Map(view.deltas.map((d) => [d.group, d]))
  const rows = view.aggregates.map((a) => {
    // A built-in question suite gates as one group: its category rows show the suite's verdict, marked so.
    const own = deltas.get(a.group)
    const d = own ?? deltas.get(gateGroupName(a))
    return [
      markdownCell(a.group),
      formatUnits(a.units),
      `${a.trialsCompleted}/${a.trialsRequested - a.trialsSkipped}`,
      num(a.passRate),
      num(a.f1Mean),
      d
        ? markdownCell(
            own ? deltaLabel(d) : `${deltaLabel(d)} (whole suite, ${d.verdict ? unitsText(d.verdict) : 'no pairs'})`,
          )
        : '—',
    ]
  })
  return table(['group', 'units', 'runs completed', 'pass rate', 'F1', 'vs baseline'], rows)
}

function reportLink(view: GithubGateView): string[] {
  return view.reportUrl
    ? [
        '',
        `[Full HTML report](${encodeURI(view.reportUrl).replace(/[()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)})`,
      ]
    : []
}

/**
 * The job summary: verdict, the values the size policy cut (when any), the failing groups (metric, value, bar or
 * baseline, Δ, p with its test), the leaderboard.
 */
export function renderJobSummary(view: GithubGateView): string {
  const parts = [`## ${markdownText(view.title ?? 'dataforge-evals')}`, '', verdictHeadline(view)]
  if (view.failures.length) parts.push('', ...failureList(view))
  if (view.valueCuts) parts.push('', valueCutsQuote(view.valueCuts))
  const failing = failingGroupsTable(view)
  if (failing) parts.push('', '### Failing groups', '', failing)
  const warnings = underpoweredLines(view)
  const all = [...view.notes.map((n) => `- ${markdownText(n)}`), ...warnings]
  if (all.length)
    parts.push(
      '',
      `<details><summary>Warnings (${all.length}): underpowered groups, groups not run, unchecked patterns</summary>`,
      '',
      ...all,
      '',
      '</details>',
    )
  if (view.aggregates.length) parts.push('', '### Leaderboard', '', leaderboardTable(view))
  if (view.viewCommand && view.deltas.some(changed))
    parts.push('', `Each changed run, cell by cell, with its transcript: ${markdownCode(view.viewCommand)}`)
  parts.push(...reportLink(view), '')
  return parts.join('\n')
}

/** The underpowered groups in one line (power-note.ts), not a warning per group. */
function underpoweredLines(view: GithubGateView): string[] {
  const line = underpoweredLine(view.deltas, view.alpha)
  return line ? [`- ${markdownText(line)}`] : []
}

/** A group changed against the baseline: new, failed, or any of its before → after values moved. */
function changed(d: GroupDelta): boolean {
  if (d.status === 'new' || d.failed) return true
  const moved = (b: number | null | undefined, a: number | null) =>
    formatDelta(b, a) !== 'n/a' && Number(formatDelta(b, a)) !== 0
  return (
    moved(d.before?.passRate, d.after.passRate) ||
    moved(d.before?.f1, d.after.f1) ||
    Boolean(d.verdict?.significantBetter || d.verdict?.f1?.significantBetter)
  )
}

function valueCutsQuote(cuts: ValueCutsSummary): string {
  return `> ${valueCutsLine(cuts, markdownCode)}`
}

/** The PR comment: marker, verdict, the values the size policy cut (when any), the groups that changed against the baseline (before → after, Δ, p, verdict), the report link. */
export function renderPrComment(view: GithubGateView): string {
  const parts = [PR_COMMENT_MARKER, `### ${markdownText(view.title ?? 'dataforge-evals')}`, '', verdictHeadline(view)]
  if (view.failures.length) parts.push('', ...failureList(view))
  if (view.valueCuts) parts.push('', valueCutsQuote(view.valueCuts))
  const rows = view.deltas.filter(changed).map((d) => {
    const v = d.verdict && d.status === 'compared' && d.verdict.n > 0 ? d.verdict : null
    const p = v
      ? `${formatP(v.p)} (pass/fail McNemar)${v.f1 ? `, ${formatP(v.f1.p)} (F1 paired)` : ''}, ${unitsText(v)}`
      : '—'
    const label = markdownCell(deltaLabel(d))
    return [
      markdownCell(d.group),
      arrow(d.before?.passRate, d.after.passRate),
      formatDelta(d.before?.passRate, d.after.passRate).replace('n/a', '—'),
      arrow(d.before?.f1, d.after.f1),
      formatDelta(d.before?.f1, d.after.f1).replace('n/a', '—'),
      p,
      d.failed ? `**${label}**` : label,
    ]
  })
  parts.push('')
  if (!view.deltas.length) parts.push('No baseline to compare with: nothing is shown as changed.')
  else if (!rows.length) parts.push(`No group changed against the baseline (${view.deltas.length} compared).`)
  else
    parts.push(
      `Groups that changed against the baseline (${rows.length} of ${view.deltas.length}):`,
      '',
      table(
        ['group', 'pass rate before → after', 'Δpass rate', 'F1 before → after', 'ΔF1', 'p (test)', 'verdict'],
        rows,
      ),
    )
  if (view.viewCommand && rows.length)
    parts.push('', `Each changed run, cell by cell, with its transcript: ${markdownCode(view.viewCommand)}`)
  parts.push(...reportLink(view), '')
  return parts.join('\n')
}
