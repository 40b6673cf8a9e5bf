import { type Aggregate, armName, distinctLabels } from '../aggregate.js'

/**
 * One display label per aggregate: the leaderboard's group name, with the dataset added where two groups
 * would otherwise share a name (one suite run over two datasets), so chart rows never merge.
 */
export function groupLabels(aggregates: readonly Aggregate[]): Map<Aggregate, string> {
  const labels = distinctLabels(
    aggregates.map((a) => a.group),
    aggregates.map((a) => a.dataset),
  )
  return new Map(aggregates.map((a, i) => [a, labels[i]!]))
}

/** Groups of the same suite and dataset, in the aggregates' stable order: one chart each. */
export function bySuite(aggregates: readonly Aggregate[]): Array<{ title: string; aggregates: Aggregate[] }> {
  const out = new Map<string, { title: string; aggregates: Aggregate[] }>()
  for (const a of aggregates) {
    const key = JSON.stringify([a.suite, a.dataset])
    const title = a.suite === a.dataset ? a.suite : `${a.suite} (${a.dataset})`
    const entry = out.get(key) ?? { title, aggregates: [] }
    entry.aggregates.push(a)
    out.set(key, entry)
  }
  return [...out.values()]
}

/** A group's label on a chart's axis: `agent[@model][ · category]`. */
export function shortLabel(a: Aggregate): string {
  return [armName(a.agent, a.model), a.category].filter(Boolean).join(' · ')
}

/**
 * Labels for one chart: `agent[@model][ · category]`, short enough to read on an axis, since the chart's
 * caption already names the suite or dataset; the full labels where the short ones would collide.
 */
export function chartLabels(
  aggregates: readonly Aggregate[],
  full: ReadonlyMap<Aggregate, string>,
): Map<Aggregate, string> {
  const short = aggregates.map(shortLabel)
  const unique = new Set(short).size === short.length
  return new Map(aggregates.map((a, i) => [a, unique ? short[i]! : (full.get(a) ?? a.group)]))
}
