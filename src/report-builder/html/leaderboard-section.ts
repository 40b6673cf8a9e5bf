import { formatInterval } from '../../stats/number-format.js'
import { type Aggregate, armName, failedRuns } from '../aggregate.js'
import { fixed, units, usd } from '../figure-text.js'
import { esc, sortValue } from './escape.js'

function num(value: number | null | undefined, text?: string): string {
  return `<td class="num"${sortValue(value)}>${esc(text ?? fixed(value))}</td>`
}

/** The leaderboard: a plain table that reads without JavaScript; the page script adds sorting and a filter. */
export function leaderboardTable(aggregates: readonly Aggregate[], labels: ReadonlyMap<Aggregate, string>): string {
  const head = ['agent / model', 'kind', 'suite · dataset · category', 'trials', 'Score [95% CI]', 'P', 'R', 'F1', 'F1 [95% CI]', 'F1 pooled', 'steps', 'tokens', 'cost', 'quota/trial', 'failures']
  const rows = aggregates.map((a) => {
    const failures = Object.entries(a.failures).map(([k, n]) => `${k} ${n}`).join(', ') || '0'
    const tokens = a.tokens.spent
    const f1 = a.f1Interval
    return (
      `<tr data-group="${esc(labels.get(a) ?? a.group)}">` +
      `<th scope="row">${esc(armName(a.agent, a.model))}</th>` +
      `<td>${esc(a.agentKind)}</td>` +
      `<td>${esc(a.suite === a.dataset ? a.suite : `${a.suite} · ${a.dataset}`)}${a.category ? ` · ${esc(a.category)}` : ''}</td>` +
      num(a.trialsRequested, `${a.trialsCompleted}/${a.trialsRequested}`) +
      num(a.score.point, `${formatInterval(a.score.point, a.score.low, a.score.high)} (${a.correct}/${a.trialsRequested - a.trialsSkipped})`) +
      num(a.precisionMean) +
      num(a.recallMean) +
      num(a.f1Mean, a.f1Mean === null ? '—' : `${fixed(a.f1Mean)} ± ${fixed(a.f1Std ?? 0)}`) +
      num(f1?.mean ?? null, f1 && f1.mean !== null ? formatInterval(f1.mean, f1.low, f1.high) : '—') +
      num(a.pooled?.f1 ?? null) +
      num(a.stepsMean, fixed(a.stepsMean, 1)) +
      num(tokens, String(tokens)) +
      num(a.usage.costUsd, usd(a.usage.costUsd)) +
      num(a.quotaUnitsPerTrial, units(a.quotaUnitsPerTrial)) +
      `<td class="num" data-value="${failedRuns(a)}">${esc(failures)}</td>` +
      `</tr>`
    )
  })
  return (
    `<div class="table-tools" data-filter-for="leaderboard-table"></div>` +
    `<div class="scroll"><table id="leaderboard-table" class="sortable"><thead><tr>${head.map((h) => `<th scope="col">${esc(h)}</th>`).join('')}</tr></thead>` +
    `<tbody>${rows.join('')}</tbody></table></div>`
  )
}
