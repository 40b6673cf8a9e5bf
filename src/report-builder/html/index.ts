import type { EvalReport } from '../build.js'
import { type BaselineDelta, baselineSection } from './baseline-section.js'
import { conformanceSection } from './conformance-section.js'
import { isConformanceRecord } from '../../grading/conformance/metrics.js'
import { groupConformance } from './conformance-data.js'
import { esc, escWithCode } from './escape.js'
import { failuresSection } from './failures-section.js'
import { groupLabels } from './labels.js'
import { leaderboardTable } from './leaderboard-section.js'
import { page } from './page.js'
import { questionRecords } from './question-data.js'
import { questionSection } from './question-section.js'
import { dabenchHtmlSection } from './dabench-section.js'
import { columnHeatTables, kindCharts, repairCostChart, scoreCharts, scoreChartsTitle } from './repair-sections.js'
import { reproducibilitySection } from './reproducibility-section.js'
import { valueCutsNotice } from './value-cuts-notice.js'
import { isRepairReport, pricedOf, repairRank, scoreRule } from '../score-rule.js'
import { unitsTable } from './units-table.js'
import { type UnitKind, unitsText } from '../../stats/units.js'

export interface HtmlReportOptions {
  title?: string
  /** Deltas against the baseline with their paired verdicts; the section appears when there are any. */
  baselineDeltas?: readonly BaselineDelta[]
  /** Gate failures; when given (even empty) the page shows whether the gate passed. */
  gateFailures?: readonly string[]
  /** Significance level of the baseline comparison. Default 0.05. */
  alpha?: number
  /** The files that hold every run, named in the footer. Default runs.jsonl and report.json; none, no claim. */
  recordFiles?: readonly string[]
}

interface Section {
  id: string
  title: string
  body: string
}

/**
 * The report as one self-contained HTML page: the leaderboard table (sortable and filterable with a small
 * script, readable without it), charts rendered to inline SVG by Vega at build time, and the sections for
 * question suites, conformance and the baseline only when their data is there. No network access: no
 * external script, style, font or image, and a Content-Security-Policy that forbids them. Pure: same report
 * and options, same bytes.
 */
export async function renderHtmlReport(report: EvalReport, opts: HtmlReportOptions = {}): Promise<string> {
  const title = opts.title ?? 'dataforge-evals report'
  const aggregates = report.aggregates
  const labels = groupLabels(aggregates)
  const questions = isRepairReport(report) ? [] : questionRecords(report.records)
  const conformance = groupConformance(aggregates)
  const repair = aggregates.filter((a) => a.pooled !== null)
  const sections: Section[] = []

  sections.push({
    id: 'leaderboard',
    title: 'Leaderboard',
    body:
      leaderboardNote(report) +
      leaderboardTable(aggregates, labels, scoreRule(report), pricedOf(report)) +
      unitsTable(aggregates),
  })
  const scores = await scoreCharts(aggregates, labels)
  if (scores) sections.push({ id: 'scores', title: scoreChartsTitle(aggregates), body: scores })
  if (opts.baselineDeltas?.length) {
    sections.push({
      id: 'baseline',
      title: 'Against the baseline',
      body: await baselineSection(opts.baselineDeltas, opts.alpha ?? 0.05),
    })
  }
  const kinds = await kindCharts(repair, labels)
  if (kinds) sections.push({ id: 'kinds', title: 'Recall per corruption kind', body: kinds })
  const heat = columnHeatTables(repair, labels)
  if (heat)
    sections.push({
      id: 'columns',
      title: 'F1 per column',
      body: `<p>Repair F1 per column, pooled over each group's runs; hover a cell for its counts.</p>${heat}`,
    })
  const questionSet = new Set(questions)
  const repairCost = await repairCostChart(report.records.filter((r) => !questionSet.has(r) && !isConformanceRecord(r)))
  if (repairCost) sections.push({ id: 'repair-cost', title: 'Repair cost against F1', body: repairCost })
  if (questions.length)
    sections.push({
      id: 'questions',
      title: 'Question suites',
      body: await questionSection(questions, pricedOf(report)),
    })
  const dabench = questions.length ? dabenchHtmlSection(questions) : null
  if (dabench) sections.push({ id: 'dabench', title: 'DABench', body: dabench })
  if (conformance.length)
    sections.push({ id: 'conformance', title: 'Conformance', body: await conformanceSection(conformance, labels) })
  sections.push({
    id: 'failures',
    title: 'Failures',
    body: failuresSection(report.records, questionSet, isRepairReport(report)),
  })
  sections.push({ id: 'reproducibility', title: 'Reproducibility', body: reproducibilitySection(report) })

  const body = [
    `<header><h1>${esc(title)}</h1>`,
    `<p class="meta">${esc(summaryLine(report))}</p>`,
    gateBlock(opts.gateFailures),
    valueCutsNotice(report.records),
    `<nav aria-label="sections"><ul>${sections.map((s) => `<li><a href="#${s.id}">${esc(s.title)}</a></li>`).join('')}</ul></nav></header>`,
    '<main>',
    ...sections.map((s) => `<section id="${s.id}"><h2>${esc(s.title)}</h2>${s.body}</section>`),
    '</main>',
    `<footer>Reports compare only when dataset hashes, seeds, model ids and adapter code are identical. ` +
      `Written by ${esc(report.tool.name)} ${esc(report.tool.version)}${recordsClause(opts.recordFiles ?? ['runs.jsonl', 'report.json'])}. ` +
      "Each run, its transcript and its cells graded one by one: <code>npx dataforge-evals view</code> on this report's folder; " +
      'what changed since a baseline: add <code>--against BASELINE</code> (docs/viewer.md).</footer>',
  ].join('\n')
  return page(title, body)
}

/** The rule of the door that produced the report, and what the other columns mean. */
function leaderboardNote(report: EvalReport): string {
  return (
    `<p class="legend">${esc(repairRank(report))}${escWithCode(scoreRule(report).legend)} Score is shown with its 95% Wilson interval and correct/attempted. ` +
    'P, R and F1 are means over completed runs (± sample standard deviation, and a 95% t interval over units; with one run, n = 1 and no spread: —); ' +
    'F1 pooled is computed from the summed tp/fp/fn counts.</p>'
  )
}

/**
 * `40 runs in 12 groups (units: 17 cases, 3 conversations), 0 run failures · run … · commit …`. Run failures
 * (errored runs, the leaderboard's "failures" column) are not the gate's failures, which the gate box names.
 */
function summaryLine(report: EvalReport): string {
  const attempted = report.records.filter((r) => r.status !== 'skipped').length
  const skipped = report.records.length - attempted
  const failed = report.records.filter((r) => r.status === 'failed').length
  const units = unitsInGroups(report)
  return (
    `${attempted} runs in ${report.aggregates.length} groups${units ? ` (units: ${units})` : ''}` +
    (skipped ? `, ${skipped} skipped` : '') +
    `, ${failed} run failure${failed === 1 ? '' : 's'} · run ${report.reproducibility.runDateUtc} · commit ${report.reproducibility.projectCommit ?? 'unknown'}`
  )
}

/** The groups' units summed by kind: `17 cases, 3 conversations` (a case two agents ran counts in each group). */
function unitsInGroups(report: EvalReport): string {
  const byKind = new Map<UnitKind, number>()
  for (const a of report.aggregates) {
    for (const [kind, n] of Object.entries(a.units.byKind) as Array<[UnitKind, number]>)
      byKind.set(kind, (byKind.get(kind) ?? 0) + n)
  }
  return [...byKind]
    .sort(([x], [y]) => (x < y ? -1 : 1))
    .map(([unit, units]) => unitsText({ unit, units }))
    .join(', ')
}

function gateBlock(failures: readonly string[] | undefined): string {
  if (!failures) return ''
  if (!failures.length)
    return '<div class="gate pass" role="status">Gate passed: every threshold met, every eval scored, no significant regression.</div>'
  return `<div class="gate fail" role="status"><strong>The gate failed:</strong><ul>${failures.map((f) => `<li>${esc(f)}</li>`).join('')}</ul></div>`
}

function recordsClause(files: readonly string[]): string {
  return files.length ? `; every run is in ${files.map(esc).join(' and ')}` : ''
}
