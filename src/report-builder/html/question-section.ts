import type { RunRecord } from '../../core/run-record.js'
import { formatInterval } from '../../stats/number-format.js'
import { costText, fixed } from '../figure-text.js'
import { categoryGridSpec, paretoSpec } from './charts.js'
import { esc, sortValue } from './escape.js'
import { figure } from './figure.js'
import { paretoPoints } from './pareto.js'
import { armSummaries, categoryGrid } from './question-data.js'

/** Question suites: accuracy per agent/model, the category × model grid and, when arms differ in cost, the Pareto view. */
export async function questionSection(records: readonly RunRecord[], priced?: boolean): Promise<string> {
  const arms = armSummaries(records)
  const head = [
    'agent / model',
    'accuracy [95% CI]',
    'passed / attempted',
    'failed runs',
    'turns per case',
    'steps',
    'tokens',
    'cost',
  ]
  const rows = arms.map(
    (a) =>
      `<tr><th scope="row">${esc(a.arm)}</th>` +
      `<td class="num"${sortValue(a.accuracy.point)}>${esc(formatInterval(a.accuracy.point, a.accuracy.low, a.accuracy.high))}</td>` +
      `<td class="num"${sortValue(a.correct)}>${a.correct}/${a.attempted}</td>` +
      `<td class="num"${sortValue(a.failed)}>${a.failed}</td>` +
      `<td class="num"${sortValue(a.turnsPerCase)}>${fixed(a.turnsPerCase, 1)}</td>` +
      `<td class="num"${sortValue(a.stepsMean)}>${fixed(a.stepsMean, 1)}</td>` +
      `<td class="num"${sortValue(a.tokens)}>${a.tokens}</td>` +
      `<td class="num"${sortValue(a.costUsd)}>${esc(costText(a.costUsd, a.tokens, priced))}</td></tr>`,
  )
  const parts = [
    `<div class="scroll"><table class="sortable" id="question-arms"><thead><tr>${head.map((h) => `<th scope="col">${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table></div>`,
  ]
  const grid = categoryGrid(records)
  parts.push(
    `<h3>Accuracy by category × model</h3>`,
    await figure(categoryGridSpec(grid), {
      id: 'category-grid',
      caption: 'Accuracy (correct / attempted) per question category and agent/model; counts in each cell.',
      markField: 'agent / model',
      marksFor: arms.map((a) => a.arm),
    }),
  )
  if (arms.length > 1) {
    const pareto = paretoPoints(arms.map((a) => ({ ...a, quality: a.correct / a.attempted })))
    parts.push(`<h3>Cost against accuracy</h3>`)
    if (pareto) {
      parts.push(
        await figure(paretoSpec(pareto.points, { costUnit: pareto.unit, per: 'question', quality: 'accuracy' }), {
          id: 'pareto',
          caption: `Accuracy against ${pareto.unit === 'USD' ? 'cost' : 'tokens'} per question. Arms on the frontier are not beaten on both by any other.`,
          markField: 'arm',
          marksFor: pareto.points.map((p) => p.arm),
        }),
      )
    } else {
      parts.push('<p class="muted">No agent spent tokens or money, so there is no cost trade-off to show.</p>')
    }
  }
  return parts.join('')
}
