import { formatP, formatSigned } from '../../stats/format.js'
import type { GroupDelta } from '../baseline.js'
import { fixed } from '../format.js'
import { baselineDeltaSpec } from './charts.js'
import { esc, sortValue } from './escape.js'
import { figure } from './figure.js'

function verdict(d: GroupDelta, alpha: number): { text: string; tone: string } {
  const v = d.verdict
  if (!v || v.n === 0) return { text: 'no pairs', tone: 'muted' }
  const parts: string[] = []
  let tone = 'ok'
  if (v.significantWorse) {
    parts.push('significant regression')
    tone = 'bad'
  } else if (v.c > v.b && v.p < alpha) {
    parts.push('significantly better')
    tone = 'good'
  } else parts.push('no significant change')
  if (v.belowFloor) {
    parts.push('below the floor')
    tone = 'bad'
  }
  return { text: parts.join(', '), tone }
}

function change(before: number | null, after: number | null): string {
  return `${fixed(before)} → ${fixed(after)}`
}

/** Deltas against the baseline with the paired test behind each verdict, and a chart of the changes. */
export async function baselineSection(deltas: readonly GroupDelta[], alpha: number): Promise<string> {
  const head = ['group', 'F1 baseline → now', 'Δ F1', 'pass rate baseline → now', 'Δ pass rate', 'pairs', 'b', 'c', 'p (McNemar)', 'verdict']
  const rows = deltas.map((d) => {
    const dF1 = d.before.f1 !== null && d.after.f1 !== null ? d.after.f1 - d.before.f1 : null
    const dPass = d.before.passRate !== null && d.after.passRate !== null ? d.after.passRate - d.before.passRate : null
    const v = verdict(d, alpha)
    return (
      `<tr><th scope="row">${esc(d.group)}</th>` +
      `<td class="num">${esc(change(d.before.f1, d.after.f1))}</td>` +
      `<td class="num"${sortValue(dF1)}>${esc(formatSigned(dF1))}</td>` +
      `<td class="num">${esc(change(d.before.passRate, d.after.passRate))}</td>` +
      `<td class="num"${sortValue(dPass)}>${esc(formatSigned(dPass))}</td>` +
      `<td class="num">${d.verdict ? d.verdict.n : '—'}</td>` +
      `<td class="num">${d.verdict ? d.verdict.b : '—'}</td>` +
      `<td class="num">${d.verdict ? d.verdict.c : '—'}</td>` +
      `<td class="num"${sortValue(d.verdict?.p ?? null)}>${esc(d.verdict ? formatP(d.verdict.p) : '—')}</td>` +
      `<td class="verdict ${v.tone}">${esc(v.text)}</td></tr>`
    )
  })
  const chartable = deltas.filter((d) => (d.before.f1 !== null && d.after.f1 !== null) || (d.before.passRate !== null && d.after.passRate !== null))
  const chart = chartable.length
    ? await figure(baselineDeltaSpec(chartable), {
        id: 'baseline-deltas',
        caption: 'Change of mean F1 and pass rate against the baseline, per group.',
        markField: 'group',
        marksFor: chartable.map((d) => d.group),
      })
    : ''
  return (
    `<p>Runs are paired with the baseline's on (case, trial). b = pairs the baseline got right and this run did not, c = the reverse; ` +
    `McNemar's test on b and c at α = ${esc(alpha)}. A group fails only when significantly worse or below the floor.</p>` +
    chart +
    `<div class="scroll"><table class="sortable"><thead><tr>${head.map((h) => `<th scope="col">${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table></div>`
  )
}
