import { caseLabel } from '../../core/case-label.js'
import type { RunRecord } from '../../core/run-record.js'
import { sumUsage, tokensSpentAndSaved } from '../../core/usage.js'
import { mean } from '../../stats/quantile.js'
import { formatInterval } from '../../stats/number-format.js'
import { wilsonInterval } from '../../stats/wilson.js'
import { armName } from '../aggregate.js'
import type { EvalReport } from '../build.js'
import { costText, fixed, table } from '../figure-text.js'
import { sortedEntries } from '../../core/order.js'
import { oneLine } from '../../core/text.js'
import { groupBy } from '../../core/group-by.js'
import { renderDabenchSection } from './dabench-section.js'
import { markdownCell } from '../../core/escape-text.js'
import { isRepairReport, pricedOf } from '../score-rule.js'

/** How many failed questions the report lists before summarizing the rest. */
const MAX_FAILED_LISTED = 50

/**
 * Question-answering records: those of suites where no run carries a repair score. A `run` report's runs are
 * repairs even when none was scored (`isRepairReport`), and its caller asks for none.
 */
function qaRecords(records: readonly RunRecord[]): RunRecord[] {
  const repairSuites = new Set(records.filter((r) => r.tp !== null).map((r) => r.suite))
  return records.filter((r) => !repairSuites.has(r.suite) && r.status !== 'skipped')
}

function armOf(r: RunRecord): string {
  return armName(r.agent, r.model)
}

function sortedGroups<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  return new Map(sortedEntries(groupBy(items, key)))
}

function passed(rs: readonly RunRecord[]): number {
  return rs.filter((r) => r.correct === true).length
}

/** Per arm (agent and model) and suite: accuracy with its Wilson interval, counts, steps, tokens, cost. */
function renderQaModelTable(records: readonly RunRecord[], priced?: boolean): string {
  const rows = [...sortedGroups(records, (r) => `${armOf(r)}\u0000${r.suite}`)].map(([, rs]) => {
    const first = rs[0]!
    const n = rs.length
    const k = passed(rs)
    const ci = wilsonInterval(k, n)
    const failures = rs.filter((r) => r.status === 'failed').length
    const usage = sumUsage(rs.map((r) => r.usage))
    return [
      markdownCell(armOf(first)),
      markdownCell(first.suite),
      formatInterval(ci.point, ci.low, ci.high),
      `${k}/${n}`,
      fixed(mean(rs.map((r) => r.steps)), 2),
      String(tokensSpentAndSaved(usage).spent),
      costText(usage.costUsd, tokensSpentAndSaved(usage).spent, priced),
      String(failures),
    ]
  })
  return table(
    ['agent / model', 'suite', 'accuracy [95% CI]', 'passed/attempted', 'avg turns', 'tokens', 'cost', 'run failures'],
    rows,
  )
}

/** Suite · category down, arms across: passed/attempted per cell. */
function renderQaCategoryGrid(records: readonly RunRecord[]): string {
  const arms = [...new Set(records.map(armOf))].sort()
  const rows = [...sortedGroups(records, (r) => `${r.suite} · ${r.category ?? '—'}`)].map(([label, rs]) => [
    markdownCell(label),
    ...arms.map((arm) => {
      const mine = rs.filter((r) => armOf(r) === arm)
      return mine.length ? `${passed(mine)}/${mine.length}` : '—'
    }),
  ])
  return table(['suite · category', ...arms.map(markdownCell)], rows)
}

/** Every question an arm got wrong or failed, with the grader's detail or the failure. */
function renderQaFailedCases(records: readonly RunRecord[]): string {
  const failed = records.filter((r) => r.correct !== true)
  if (!failed.length) return 'Every question passed.'
  const rows = failed
    .slice(0, MAX_FAILED_LISTED)
    .map((r) => [
      markdownCell(armOf(r)),
      markdownCell(r.suite),
      markdownCell(caseLabel(r)),
      String(r.trial + 1),
      markdownCell(why(r)),
    ])
  const more =
    failed.length > MAX_FAILED_LISTED ? `\n\n… and ${failed.length - MAX_FAILED_LISTED} more (all in runs.jsonl).` : ''
  return table(['agent / model', 'suite', 'case', 'trial', 'why'], rows) + more
}

/** The detail of a failed question on one line. */
function why(r: RunRecord): string {
  const text =
    r.status === 'failed' ? `${r.failureKind}: ${r.failureMessage ?? ''}` : (r.validationError ?? 'incorrect')
  return oneLine(text, 200)
}

/** The question-answering sections of a report; empty when the report has no question runs. */
export function renderQaSections(report: EvalReport): string {
  const records = isRepairReport(report) ? [] : qaRecords(report.records)
  if (!records.length) return ''
  const dabench = [renderDabenchSection(records)].filter((x) => x !== '')
  return [
    '## Question answering',
    '',
    "Accuracy is passed/attempted questions (each conversation turn counts) with a 95% Wilson interval; avg turns is the agent's model steps per question.",
    '',
    renderQaModelTable(records, pricedOf(report)),
    '',
    '### Category × model',
    '',
    renderQaCategoryGrid(records),
    '',
    ...dabench,
    '### Failed questions',
    '',
    renderQaFailedCases(records),
    '',
  ].join('\n')
}
