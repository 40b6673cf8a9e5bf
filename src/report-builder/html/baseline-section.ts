import { formatP, formatSigned } from '../../stats/number-format.js'
import { fixed } from '../figure-text.js'
import type { BaselineDelta } from './baseline-delta.js'
import { baselineDeltaSpec } from './charts.js'
import { esc, sortValue } from './escape.js'
import { figure } from './figure.js'
import { deltaLabel, verdictTone } from '../comparison-verdict.js'

export type { BaselineDelta }

/** The verdict in the words every report uses (`report-builder/comparison-verdict.ts`), toned for the page. */
function verdict(d: BaselineDelta): { text: string; tone: string } {
  const isNew = d.status === 'new' || d.before === null
  return { text: deltaLabel(d), tone: isNew ? 'muted' : verdictTone(d.verdict) }
}

function delta(before: number | null | undefined, after: number | null): number | null {
  return before === null || before === undefined || after === null ? null : after - before
}

/** Deltas against the baseline with the paired tests behind each verdict, and a chart of the changes. */
export async function baselineSection(deltas: readonly BaselineDelta[], alpha: number): Promise<string> {
  const withF1Test = deltas.some((d) => d.verdict?.f1 !== undefined)
  // The verdict beside the group: what a reader looks for first, and in view when a narrow page scrolls the table.
  const head = [
    'group',
    'verdict',
    'F1 baseline → now',
    'Δ F1',
    'pass rate baseline → now',
    'Δ pass rate',
    'units',
    'b',
    'c',
    'p (pass/fail)',
  ]
  if (withF1Test) head.push('p (F1 paired)')
  const rows = deltas.map((d) => {
    const dF1 = delta(d.before?.f1, d.after.f1)
    const dPass = delta(d.before?.passRate, d.after.passRate)
    const v = verdict(d)
    const cells = [
      `<th scope="row">${esc(d.group)}</th>`,
      `<td class="verdict ${v.tone}">${esc(v.text)}</td>`,
      `<td class="num">${esc(`${fixed(d.before?.f1)} → ${fixed(d.after.f1)}`)}</td>`,
      `<td class="num"${sortValue(dF1)}>${esc(formatSigned(dF1))}</td>`,
      `<td class="num">${esc(`${fixed(d.before?.passRate)} → ${fixed(d.after.passRate)}`)}</td>`,
      `<td class="num"${sortValue(dPass)}>${esc(formatSigned(dPass))}</td>`,
      `<td class="num">${d.verdict ? d.verdict.n : '—'}</td>`,
      `<td class="num">${d.verdict ? d.verdict.b : '—'}</td>`,
      `<td class="num">${d.verdict ? d.verdict.c : '—'}</td>`,
      `<td class="num"${sortValue(d.verdict?.p ?? null)}>${esc(d.verdict ? formatP(d.verdict.p) : '—')}</td>`,
    ]
    if (withF1Test)
      cells.push(
        `<td class="num"${sortValue(d.verdict?.f1?.p ?? null)}>${esc(d.verdict?.f1 ? formatP(d.verdict.f1.p) : '—')}</td>`,
      )
    return `<tr>${cells.join('')}</tr>`
  })
  const chartable = deltas.filter(
    (d) => delta(d.before?.f1, d.after.f1) !== null || delta(d.before?.passRate, d.after.passRate) !== null,
  )
  const chart = chartable.length
    ? await figure(baselineDeltaSpec(chartable), {
        id: 'baseline-deltas',
        caption: 'Change of mean F1 and pass rate against the baseline, per group.',
        markField: 'group',
        marksFor: chartable.map((d) => d.group),
      })
    : ''
  return (
    `<p>Runs are paired with the baseline's on units (a case, a conversation or a generated dataset; trials averaged within it). b = units the baseline did better on and this run did not, c = the reverse; ` +
    `McNemar's test on b and c when every unit's outcome is binary, else a sign-flip test on unit pass rates${withF1Test ? ', and a sign-flip test on the per-unit F1,' : ''} at α = ${esc(alpha)}. ` +
    `One unit whose trials are all identical is a deterministic change (exact, no p). A group fails only when significantly worse, a deterministic drop, or below the floor.</p>` +
    chart +
    `<div class="scroll"><table class="sortable"><thead><tr>${head.map((h) => `<th scope="col">${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table></div>`
  )
}
