import { groupBy } from '../../core/group-by.js'
import type { RunRecord } from '../../core/run-record.js'
import type { Aggregate } from '../aggregate.js'
import { fixed } from '../figure-text.js'
import { kindRecallSpec, paretoSpec, scoreF1Spec } from './charts.js'
import { esc, slug, sortValue } from './escape.js'
import { figure } from './figure.js'
import { heatShade } from './heat-shade.js'
import { bySuite, chartLabels, shortLabel } from './labels.js'
import { paretoPoints, repairArmCosts } from './pareto.js'

type Labeled = { label: string; aggregate: Aggregate }

/**
 * Per suite, Score and F1 of every group with their 95% intervals. A chart of one row compares nothing (the
 * leaderboard has the row's figures), so a suite of one group gets no chart of its own: two or more such suites
 * (a hundred conversations of one agent) share one chart, a row per suite, and a lone one is not charted.
 */
export async function scoreCharts(
  aggregates: readonly Aggregate[],
  labels: ReadonlyMap<Aggregate, string>,
): Promise<string> {
  const suites = bySuite(aggregates.filter((a) => a.score.point !== null))
  const alone = suites.filter((s) => s.aggregates.length === 1)
  const parts: string[] = []
  for (const [i, suite] of suites.entries()) {
    if (suite.aggregates.length === 1) continue
    const short = chartLabels(suite.aggregates, labels)
    const rows = suite.aggregates.map((a) => ({ label: short.get(a)!, aggregate: a }))
    parts.push(await scoreFigure(rows, `score-${i}-${slug(suite.title)}`, `${suite.title}: `, 'per group'))
  }
  if (alone.length > 1) {
    const rows = alone.map(({ title, aggregates: [a] }) => ({ label: `${title} · ${shortLabel(a!)}`, aggregate: a! }))
    parts.push(await scoreFigure(rows, 'score-suites', `The ${rows.length} suites with one group each: `, 'per suite'))
  }
  return parts.join('')
}

function scoreFigure(rows: Labeled[], id: string, lead: string, per: string): Promise<string> {
  const f1 = rows.some((r) => hasF1(r.aggregate)) ? ' and mean F1 (t 95% interval over units)' : ''
  return figure(scoreF1Spec(rows), {
    id,
    caption: `${lead}Score (correct/attempted, Wilson 95% interval)${f1} ${per}.`,
    markField: 'group',
    marksFor: rows.map((r) => r.label),
  })
}

const hasF1 = (a: Aggregate) => (a.f1Interval?.mean ?? null) !== null

/** The heading of the Score charts: it names F1 only when some group has one. */
export function scoreChartsTitle(aggregates: readonly Aggregate[]): string {
  return aggregates.some(hasF1) ? 'Score and F1 per group' : 'Score per group'
}

function byDataset(aggregates: readonly Aggregate[]): Map<string, Aggregate[]> {
  return groupBy(aggregates, (a) => a.dataset)
}

/** Per dataset whose corruptions are labelled by kind, recall per kind for every group. */
export async function kindCharts(
  aggregates: readonly Aggregate[],
  labels: ReadonlyMap<Aggregate, string>,
): Promise<string> {
  const parts: string[] = []
  let i = 0
  for (const [dataset, groups] of byDataset(aggregates.filter((a) => Object.keys(a.perKind).length > 0))) {
    const short = chartLabels(groups, labels)
    const rows: Labeled[] = groups.map((a) => ({ label: short.get(a)!, aggregate: a }))
    parts.push(
      await figure(kindRecallSpec(rows), {
        id: `kinds-${i++}-${slug(dataset)}`,
        caption: `${dataset}: recall per corruption kind (errors of that kind repaired / errors of that kind).`,
        markField: 'group',
        marksFor: rows.map((r) => r.label),
      }),
    )
  }
  return parts.join('')
}

/**
 * Per dataset, a table of F1 per column and group, each cell shaded by its value (`heatShade`); the counts are in
 * each cell's title.
 */
export function columnHeatTables(aggregates: readonly Aggregate[], labels: ReadonlyMap<Aggregate, string>): string {
  const parts: string[] = []
  for (const [dataset, groups] of byDataset(aggregates.filter((a) => Object.keys(a.perColumn).length > 0))) {
    const columns = [...new Set(groups.flatMap((a) => Object.keys(a.perColumn)))]
    const head = `<tr><th scope="col">group</th>${columns.map((c) => `<th scope="col">${esc(c)}</th>`).join('')}</tr>`
    const rows = groups.map((a) => {
      const cells = columns.map((c) => {
        const p = a.perColumn[c]
        if (!p) return `<td class="num"${sortValue(null)}>—</td>`
        const style = `background:${heatShade(p.f1)};color:${p.f1 > 0.6 ? '#fff' : '#111'}`
        return `<td class="num heat"${sortValue(p.f1)} style="${style}" title="tp ${p.tp} · fp ${p.fp} · fn ${p.fn}">${fixed(p.f1, 2)}</td>`
      })
      return `<tr><th scope="row">${esc(labels.get(a)!)}</th>${cells.join('')}</tr>`
    })
    parts.push(
      `<h3>${esc(dataset)}</h3><div class="scroll"><table class="sortable heat-table" data-dataset="${esc(dataset)}"><thead>${head}</thead><tbody>${rows.join('')}</tbody></table></div>`,
    )
  }
  return parts.join('')
}

/** When several agents/models repaired and spent tokens or money: cost per run against mean F1, with the frontier. */
export async function repairCostChart(records: readonly RunRecord[]): Promise<string> {
  const arms = repairArmCosts(records)
  const pareto = arms.length > 1 ? paretoPoints(arms) : null
  if (!pareto) return ''
  return figure(paretoSpec(pareto.points, { costUnit: pareto.unit, per: 'run', quality: 'mean F1' }), {
    id: 'repair-pareto',
    caption: `Mean repair F1 against ${pareto.unit === 'USD' ? 'cost' : 'tokens'} per run, over all datasets. Arms on the frontier are not beaten on both by any other.`,
    markField: 'arm',
    marksFor: pareto.points.map((p) => p.arm),
  })
}
