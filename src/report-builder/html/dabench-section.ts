import type { RunRecord } from '../../core/run-record.js'
import { type DabenchScores, type DabenchSummary, dabenchSummaries } from '../../datasets/dabench/scores.js'
import { armName } from '../aggregate.js'
import { dabenchPercent } from '../markdown/dabench-section.js'
import { esc, sortValue } from './escape.js'

const HEAD = ['questions', 'sub-answers', 'ABQ [95% CI]', 'PSAQ [95% CI]', 'UASQ [95% CI]']

function cells(s: DabenchScores): string {
  return (
    `<td class="num"${sortValue(s.questions)}>${s.questions}</td>` +
    `<td class="num"${sortValue(s.subAnswers)}>${s.subAnswers}</td>` +
    [s.abq, s.psaq, s.uasq].map((r) => `<td class="num"${sortValue(r.point)}>${esc(dabenchPercent(r))}</td>`).join('')
  )
}

function tableOf(id: string, head: string[], rows: string[]): string {
  return `<div class="scroll"><table class="sortable" id="${id}"><thead><tr>${head.map((h) => `<th scope="col">${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table></div>`
}

function arm(s: DabenchSummary): string {
  return esc(armName(s.agent, s.model))
}

/** DABench's ABQ, PSAQ and UASQ per arm, by level and by concept; null when no record is a DABench question. */
export function dabenchHtmlSection(records: readonly RunRecord[]): string | null {
  const summaries = dabenchSummaries(records)
  if (!summaries.length) return null
  return [
    '<p>ABQ: questions with every sub-answer right. PSAQ: mean share of right sub-answers per question. UASQ: right sub-answers over all sub-answers. 95% bootstrap intervals over questions; a failed run counts with no sub-answer right.</p>',
    tableOf(
      'dabench-arms',
      ['agent / model', 'suite', ...HEAD, 'run failures'],
      summaries.map(
        (s) =>
          `<tr><th scope="row">${arm(s)}</th><td>${esc(s.suite)}</td>${cells(s.overall)}<td class="num"${sortValue(s.failedRuns)}>${s.failedRuns}</td></tr>`,
      ),
    ),
    '<h3>By level</h3>',
    tableOf(
      'dabench-levels',
      ['agent / model', 'level', ...HEAD],
      summaries.flatMap((s) =>
        s.byLevel.map((l) => `<tr><th scope="row">${arm(s)}</th><td>${esc(l.level)}</td>${cells(l)}</tr>`),
      ),
    ),
    '<h3>By concept</h3>',
    '<p class="muted">A question of several concepts counts under each.</p>',
    tableOf(
      'dabench-concepts',
      ['agent / model', 'concept', ...HEAD],
      summaries.flatMap((s) =>
        s.byConcept.map((c) => `<tr><th scope="row">${arm(s)}</th><td>${esc(c.concept)}</td>${cells(c)}</tr>`),
      ),
    ),
  ].join('')
}
