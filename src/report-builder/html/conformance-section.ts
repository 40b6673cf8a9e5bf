import type { Aggregate } from '../aggregate.js'
import { formatP } from '../../stats/number-format.js'
import { fixed } from '../figure-text.js'
import { conformanceSpec } from './charts.js'
import { esc, slug, sortValue } from './escape.js'
import { chartLabels } from './labels.js'
import { figure } from './figure.js'
import type { GroupConformance } from './conformance-data.js'

/** Conformance scores per group and, per property, requested against evaluated shares as grouped bars. */
export async function conformanceSection(
  groups: readonly GroupConformance[],
  labels: ReadonlyMap<Aggregate, string>,
): Promise<string> {
  const labelOf = (g: GroupConformance) => labels.get(g.aggregate) ?? g.aggregate.group
  const short = chartLabels(
    groups.map((g) => g.aggregate),
    labels,
  )
  // The legend says what each bar is: the spec's share, or the share evaluated in a group's samples.
  const seriesOf = (g: GroupConformance) => `${short.get(g.aggregate)!} (evaluated)`
  const rows = groups.map((g) => {
    const worst = g.properties.filter((p) => p.score !== null).sort((a, b) => a.score! - b.score!)[0]
    return (
      `<tr><th scope="row">${esc(labelOf(g))}</th>` +
      `<td class="num"${sortValue(g.score)}>${esc(fixed(g.score, 1))}</td>` +
      `<td${sortValue(worst?.score ?? null)}>${esc(worst ? `${worst.name} ${fixed(worst.score, 1)}` : '—')}</td>` +
      `<td class="num"${sortValue(worst?.p ?? null)}>${esc(worst?.p != null ? formatP(worst.p) : '—')}</td></tr>`
    )
  })
  const parts = [
    `<div class="scroll"><table class="sortable"><thead><tr><th scope="col">group</th><th scope="col">conformance score (0–100)</th><th scope="col">worst property (score)</th><th scope="col">its p-value</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`,
  ]
  const properties = [...new Set(groups.flatMap((g) => g.properties.filter((p) => p.labels.length).map((p) => p.name)))]
  for (const [i, property] of properties.entries()) {
    const having = groups.filter((g) =>
      g.properties.some((p) => p.name === property && p.labels.some((l) => l.evaluated !== null)),
    )
    parts.push(
      await figure(conformanceSpec(property, groups, seriesOf), {
        id: `conformance-${i}-${slug(property)}`,
        caption: `${property}: the share of each label the spec requested, against the share evaluated in each group's samples.`,
        markField: 'series',
        marksFor: having.map(seriesOf),
      }),
    )
  }
  return parts.join('')
}
