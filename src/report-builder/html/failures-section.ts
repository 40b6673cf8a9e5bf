import type { CellIssue, RepairDiagnostics } from '../../core/repair-score.js'
import { caseLabel } from '../../core/case-label.js'
import type { RunRecord } from '../../core/run-record.js'
import { fixed } from '../figure-text.js'
import { esc } from './escape.js'
import { armName } from '../aggregate.js'
import { truncate } from '../../core/text.js'
import { llmCallsSection } from './llm-calls-section.js'

const MAX_RUNS_LISTED = 100
const MAX_CELLS_PER_RUN = 40
const MESSAGE_CHARS = 300

function where(r: RunRecord): string {
  const who = armName(r.agent, r.model)
  const what = r.suite === r.dataset ? r.dataset : `${r.suite} · ${r.dataset}`
  return `${who} · ${what} · ${caseLabel(r)} · trial ${r.trial + 1} (seed ${r.seed})`
}

/**
 * The cells a run got wrong, as positions and the agent's own values. Clean values are never shown, even
 * when a record still carries them: a report is a file people share.
 */
function cellIssues(
  d: RepairDiagnostics,
): Array<{ issue: string; row: number | string; column: string; agentValue: string }> {
  const take = (issue: string, cells: readonly CellIssue[], withValue: boolean) =>
    cells.map((c) => ({
      issue,
      row: c.row,
      column: c.column,
      agentValue: withValue ? (c.got ?? '') : '(left unchanged)',
    }))
  return [
    ...take('wrong value', d.wrongValue, true),
    ...take('missed', d.missedRepair, false),
    ...take('over-repair', d.overRepair, true),
    ...take('wrong cell', d.wrongCell, true),
    ...take('column case', d.caseInsensitiveColumn, true),
  ]
}

function runFailures(failed: readonly RunRecord[]): string {
  const shown = failed.slice(0, MAX_RUNS_LISTED)
  const rows = shown.map(
    (r) =>
      `<tr><td>${esc(where(r))}</td><td>${esc(r.failureKind ?? 'exception')}</td><td class="message">${esc(truncate(r.failureMessage ?? '', MESSAGE_CHARS))}</td></tr>`,
  )
  return (
    `<div class="scroll"><table><thead><tr><th scope="col">run</th><th scope="col">kind</th><th scope="col">message</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>` +
    more(failed.length - shown.length)
  )
}

function repairMisses(runs: readonly RunRecord[]): string {
  const shown = runs.slice(0, MAX_RUNS_LISTED)
  const blocks = shown.map((r) => {
    const d = r.diagnostics!
    const cells = cellIssues(d)
    const listed = cells.slice(0, MAX_CELLS_PER_RUN)
    const counts = `F1 ${fixed(r.f1)} · ${d.wrongValue.length} wrong value, ${d.missedRepair.length} missed, ${d.overRepair.length} over-repair, ${d.wrongCell.length} wrong cell`
    const rows = listed.map(
      (c) =>
        `<tr><td>${esc(c.issue)}</td><td class="num">${esc(c.row)}</td><td>${esc(c.column)}</td><td class="value">${esc(c.agentValue)}</td></tr>`,
    )
    return (
      `<details class="run"><summary>${esc(where(r))}: ${esc(counts)}</summary>` +
      `<table><thead><tr><th scope="col">issue</th><th scope="col">row</th><th scope="col">column</th><th scope="col">agent's value</th></tr></thead><tbody>${rows.join('')}</tbody></table>` +
      (cells.length > listed.length
        ? `<p class="muted">${cells.length - listed.length} more cells in runs.jsonl.</p>`
        : '') +
      `</details>`
    )
  })
  return blocks.join('') + more(runs.length - shown.length)
}

function answerMisses(runs: readonly RunRecord[]): string {
  const shown = runs.slice(0, MAX_RUNS_LISTED)
  const rows = shown.map(
    (r) =>
      `<tr><td>${esc(where(r))}</td><td class="message">${esc(truncate(r.validationError ?? 'not correct', MESSAGE_CHARS))}</td></tr>`,
  )
  return (
    `<div class="scroll"><table><thead><tr><th scope="col">run</th><th scope="col">grader detail</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>` +
    more(runs.length - shown.length)
  )
}

function more(n: number): string {
  return n > 0 ? `<p class="muted">${n} more not listed here; every run is in runs.jsonl.</p>` : ''
}

function hasCells(d: RepairDiagnostics): boolean {
  return (
    d.wrongValue.length +
      d.missedRepair.length +
      d.overRepair.length +
      d.wrongCell.length +
      d.caseInsensitiveColumn.length >
    0
  )
}

/** Run failures, repair runs with their wrong and missed cells, and incorrect answers with the grader's detail. */
export function failuresSection(
  records: readonly RunRecord[],
  questionRuns: ReadonlySet<RunRecord>,
  repairReport: boolean,
): string {
  const failed = records.filter((r) => r.status === 'failed')
  const repair = records.filter(
    (r) => r.status === 'ok' && r.correct !== true && r.diagnostics && hasCells(r.diagnostics),
  )
  const answers = records.filter((r) => r.status === 'ok' && r.correct === false && questionRuns.has(r))
  const parts: string[] = []
  // A repair report's failures are repair trials that were never scored: named so, never as questions.
  parts.push(
    repairReport ? '<h3>Failed trials</h3>' : '<h3>Run failures</h3>',
    failed.length ? runFailures(failed) : '<p>No run failures.</p>',
  )
  if (repair.length) {
    parts.push(
      '<h3>Repairs that missed</h3>',
      "<p>Each incorrect repair run with the cells it got wrong: positions and the agent's own values (clean values are never written to reports).</p>",
      repairMisses(repair),
    )
  }
  if (answers.length) parts.push('<h3>Wrong answers</h3>', answerMisses(answers))
  parts.push(llmCallsSection([...failed, ...repair, ...answers]))
  return parts.join('')
}
