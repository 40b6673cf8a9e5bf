import { type Aggregate, armName, failedRuns, leaderboardOrder } from '../aggregate.js'
import { costText, fixed, meanIntervalText, meanStd, units } from '../figure-text.js'
import type { ScoreRule } from '../score-rule.js'
import { esc, sortValue } from './escape.js'
import { unitsText } from '../../stats/units.js'

/**
 * A number cell. A figure with an interval may wrap, but only before its `[`, so a narrow column shows
 * `0.750 (3/4)` over `[0.301, 0.954]` and never breaks inside a number or an interval.
 */
function num(value: number | null | undefined, text?: string): string {
  const shown = esc(text ?? fixed(value))
  if (!shown.includes(' [')) return `<td class="num"${sortValue(value)}>${shown}</td>`
  return `<td class="num wrap"${sortValue(value)}>${shown.replace(/ /g, '\u00a0').replace(/\u00a0\[/g, ' [')}</td>`
}

/** `0.750 (3/4) [0.301, 0.954]`: the count beside the point, so the interval can take the second line. */
function scoreText(a: Aggregate): string {
  const count = `(${a.correct}/${a.trialsRequested - a.trialsSkipped})`
  const { point, low, high } = a.score
  return point === null || low === null || high === null
    ? `${fixed(point)} ${count}`
    : `${fixed(point)} ${count} [${fixed(low)}, ${fixed(high)}]`
}

interface Column {
  head: string
  cell: (a: Aggregate) => string
  /** Columns that are optional are left out when no group has a value in them. */
  hasValue?: (a: Aggregate) => boolean
}

const repairRan = (a: Aggregate) => a.repairRuns > 0

function columns(rule: ScoreRule, priced: boolean | undefined): Column[] {
  return [
    { head: 'trials', cell: (a) => num(a.trialsRequested, `${a.trialsCompleted}/${a.trialsRequested}`) },
    // Repair leads with F1, the figure groups rank by; Score counts runs that met the door's bar.
    { head: 'F1', cell: (a) => num(a.f1Mean, meanStd(a.f1Mean, a.f1Std, a.repairRuns)), hasValue: repairRan },
    {
      head: 'F1 [95% CI]',
      cell: (a) => num(a.f1Interval?.mean ?? null, meanIntervalText(a.f1Interval)),
      hasValue: repairRan,
    },
    {
      head: `Score: ${rule.short} [95% CI]`,
      cell: (a) => num(a.score.point, scoreText(a)),
    },
    { head: 'P', cell: (a) => num(a.precisionMean), hasValue: repairRan },
    { head: 'R', cell: (a) => num(a.recallMean), hasValue: repairRan },
    { head: 'F1 pooled', cell: (a) => num(a.pooled?.f1 ?? null), hasValue: repairRan },
    { head: 'steps', cell: (a) => num(a.stepsMean, fixed(a.stepsMean, 1)), hasValue: (a) => (a.stepsMean ?? 0) > 0 },
    { head: 'tokens', cell: (a) => num(a.tokens.spent, String(a.tokens.spent)), hasValue: (a) => a.tokens.spent > 0 },
    {
      head: 'cost',
      cell: (a) => num(a.usage.costUsd, costText(a.usage.costUsd, a.tokens.spent, priced)),
      hasValue: (a) => a.usage.calls > 0 || (a.usage.costUsd ?? 0) > 0,
    },
    {
      head: 'quota/trial',
      cell: (a) => num(a.quotaUnitsPerTrial, units(a.quotaUnitsPerTrial)),
      hasValue: (a) => a.quotaUnitsPerTrial > 0,
    },
    {
      head: 'failures',
      cell: (a) =>
        `<td class="num" data-value="${failedRuns(a)}">${esc(
          Object.entries(a.failures)
            .map(([k, n]) => `${k} ${n}`)
            .join(', ') || '0',
        )}</td>`,
    },
  ]
}

/**
 * The leaderboard: a plain table that reads without JavaScript; the page script adds sorting and a filter.
 * Columns no group has a value in (no repair runs, no model calls) are left out and named under the table.
 */
export function leaderboardTable(
  aggregates: readonly Aggregate[],
  labels: ReadonlyMap<Aggregate, string>,
  rule: ScoreRule,
  priced?: boolean,
): string {
  const all = columns(rule, priced)
  const shown = all.filter((c) => !c.hasValue || aggregates.length === 0 || aggregates.some(c.hasValue))
  const left = all.filter((c) => !shown.includes(c)).map((c) => c.head)
  const head = ['agent / model', 'kind', 'suite · dataset · category', ...shown.map((c) => c.head)]
  const rows = leaderboardOrder(aggregates).map(
    (a) =>
      `<tr data-group="${esc(labels.get(a) ?? a.group)}">` +
      `<th scope="row">${esc(armName(a.agent, a.model))}</th>` +
      `<td>${esc(a.agentKind)}</td>` +
      `<td>${esc(a.suite === a.dataset ? a.suite : `${a.suite} · ${a.dataset}`)}${a.category ? ` · ${esc(a.category)}` : ''}` +
      // The group's units under its name (a second line, so the table keeps its width).
      `<br><span class="muted">${esc(unitsText(a.units))}</span></td>` +
      shown.map((c) => c.cell(a)).join('') +
      `</tr>`,
  )
  return (
    `<div class="table-tools" data-filter-for="leaderboard-table"></div>` +
    `<div class="scroll"><table id="leaderboard-table" class="sortable"><thead><tr>${head.map((h) => `<th scope="col">${esc(h)}</th>`).join('')}</tr></thead>` +
    `<tbody>${rows.join('')}</tbody></table></div>` +
    (left.length ? `<p class="muted">Not shown, as no group has a value in them: ${esc(left.join(', '))}.</p>` : '')
  )
}
