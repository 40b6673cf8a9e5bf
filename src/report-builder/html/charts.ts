import type { TopLevelSpec } from 'vega-lite'
import type { Aggregate } from '../aggregate.js'
import type { BaselineDelta } from './baseline-delta.js'
import type { GroupConformance } from './conformance-data.js'
import type { ParetoPoint } from './pareto.js'
import type { GridCell } from './question-data.js'
import { CHART_WIDTHS } from './figure.js'

/** Vega-Lite specs for the report's charts: pure data → spec, rendered to SVG by `renderVegaLiteSvgs`. */

const METRIC_COLORS = { domain: ['Score', 'F1'], range: ['#4c78a8', '#f58518'] }
/** A chart's whole width, axes and legends included (`renderVegaLiteSvgs` fits it); `figure` draws it at the page's widths. */
const WIDTH = CHART_WIDTHS.wide
const unit = { type: 'quantitative' as const, scale: { domain: [0, 1] } }

/** The Score/F1 colours, limited to the metrics the chart has (groups without repair runs have no F1). */
function presentMetrics(values: ReadonlyArray<Record<string, unknown>>): { domain: string[]; range: string[] } {
  const keep = METRIC_COLORS.domain
    .map((m, i) => [m, METRIC_COLORS.range[i]!] as const)
    .filter(([m]) => values.some((v) => v.metric === m))
  return { domain: keep.map(([m]) => m), range: keep.map(([, c]) => c) }
}

/** Score (Wilson 95%) and mean F1 (t 95% over units) per group, as points with interval rules. */
export function scoreF1Spec(rows: Array<{ label: string; aggregate: Aggregate }>): TopLevelSpec {
  const values: Array<Record<string, unknown>> = []
  for (const { label, aggregate: a } of rows) {
    if (a.score.point !== null)
      values.push({ group: label, metric: 'Score', value: a.score.point, low: a.score.low, high: a.score.high })
    const f1 = a.f1Interval
    if (f1 && f1.mean !== null)
      values.push({ group: label, metric: 'F1', value: f1.mean, low: f1.low ?? f1.mean, high: f1.high ?? f1.mean })
  }
  return {
    width: WIDTH,
    height: { step: 16 },
    data: { values },
    encoding: {
      y: { field: 'group', type: 'nominal', sort: null, title: null },
      yOffset: { field: 'metric', type: 'nominal', sort: ['Score', 'F1'] },
      color: {
        field: 'metric',
        type: 'nominal',
        scale: presentMetrics(values),
        legend: { title: null, orient: 'top' },
      },
    },
    layer: [
      {
        mark: { type: 'rule', strokeWidth: 2 },
        encoding: { x: { field: 'low', ...unit, title: 'value with its 95% interval' }, x2: { field: 'high' } },
      },
      { mark: { type: 'point', filled: true, size: 60, opacity: 1 }, encoding: { x: { field: 'value', ...unit } } },
    ],
  } as TopLevelSpec
}

/** Recall per corruption kind, one bar per group within each kind. */
export function kindRecallSpec(rows: Array<{ label: string; aggregate: Aggregate }>): TopLevelSpec {
  const values = rows.flatMap(({ label, aggregate: a }) =>
    Object.entries(a.perKind).map(([kind, k]) => ({
      group: label,
      kind,
      recall: k.recall,
      found: `${k.tp}/${k.total}`,
    })),
  )
  return {
    width: WIDTH,
    height: { step: 12 },
    data: { values },
    mark: { type: 'bar' },
    encoding: {
      y: { field: 'kind', type: 'nominal', title: 'corruption kind' },
      yOffset: { field: 'group', type: 'nominal', sort: null },
      x: { field: 'recall', ...unit, title: 'recall' },
      color: { field: 'group', type: 'nominal', sort: null, legend: { title: null } },
    },
  } as TopLevelSpec
}

/** Change against the baseline per group: Δ mean F1 and Δ pass rate. */
export function baselineDeltaSpec(deltas: readonly BaselineDelta[]): TopLevelSpec {
  const values: Array<Record<string, unknown>> = []
  for (const d of deltas) {
    if (!d.before) continue
    if (d.before.f1 !== null && d.after.f1 !== null)
      values.push({ group: d.group, measure: 'Δ F1', delta: d.after.f1 - d.before.f1 })
    if (d.before.passRate !== null && d.after.passRate !== null)
      values.push({ group: d.group, measure: 'Δ pass rate', delta: d.after.passRate - d.before.passRate })
  }
  return {
    width: WIDTH,
    height: { step: 14 },
    data: { values },
    layer: [
      {
        mark: { type: 'bar' },
        encoding: {
          y: { field: 'group', type: 'nominal', sort: null, title: null },
          yOffset: { field: 'measure', type: 'nominal', sort: ['Δ F1', 'Δ pass rate'] },
          x: { field: 'delta', type: 'quantitative', scale: { domain: [-1, 1] }, title: 'now − baseline' },
          color: {
            field: 'measure',
            type: 'nominal',
            scale: { domain: ['Δ F1', 'Δ pass rate'], range: ['#f58518', '#4c78a8'] },
            legend: { title: null, orient: 'top' },
          },
        },
      },
      {
        mark: { type: 'rule', color: '#333' },
        data: { values: [{ zero: 0 }] },
        encoding: { x: { field: 'zero', type: 'quantitative' } },
      },
    ],
  } as TopLevelSpec
}

/** Accuracy per question category × agent/model as a heat map with the counts written in. */
export function categoryGridSpec(cells: readonly GridCell[]): TopLevelSpec {
  const values = cells.map((c) => ({
    category: c.category,
    arm: c.arm,
    accuracy: c.accuracy.point,
    text: `${(c.accuracy.point ?? 0).toFixed(2)} (${c.correct}/${c.attempted})`,
  }))
  return {
    data: { values },
    width: WIDTH,
    height: { step: 30 },
    encoding: {
      x: { field: 'arm', type: 'nominal', title: 'agent / model', axis: { orient: 'top', labelAngle: 0 } },
      y: { field: 'category', type: 'nominal', title: 'category' },
    },
    layer: [
      {
        mark: { type: 'rect', stroke: '#fff' },
        encoding: {
          color: {
            field: 'accuracy',
            type: 'quantitative',
            scale: { domain: [0, 1], scheme: 'blues' },
            title: 'accuracy',
          },
        },
      },
      {
        mark: { type: 'text', fontSize: 12 },
        encoding: {
          text: { field: 'text' },
          color: { condition: { test: 'datum.accuracy > 0.6', value: '#fff' }, value: '#111' },
        },
      },
    ],
  } as TopLevelSpec
}

/** Cost per run against quality per agent/model; the frontier joins the arms nothing beats on both. */
export function paretoSpec(
  points: readonly ParetoPoint[],
  axes: { costUnit: 'USD' | 'tokens'; per: string; quality: string },
): TopLevelSpec {
  const values = points.map((p) => ({ ...p, frontier: p.onFrontier ? 'on the frontier' : 'dominated' }))
  const x = {
    field: 'cost',
    type: 'quantitative',
    title: axes.costUnit === 'USD' ? `cost per ${axes.per} (USD)` : `tokens per ${axes.per}`,
    scale: { zero: true },
  }
  const y = { field: 'quality', ...unit, title: axes.quality }
  return {
    width: WIDTH,
    height: 260,
    data: { values },
    layer: [
      {
        transform: [{ filter: 'datum.onFrontier' }],
        mark: { type: 'line', color: '#54a24b', strokeDash: [4, 3] },
        encoding: { x, y, order: { field: 'cost' } },
      },
      {
        mark: { type: 'point', filled: true, size: 90 },
        encoding: {
          x,
          y,
          color: {
            field: 'frontier',
            type: 'nominal',
            scale: { domain: ['on the frontier', 'dominated'], range: ['#54a24b', '#bab0ac'] },
            legend: { title: null, orient: 'top' },
          },
        },
      },
      {
        mark: { type: 'text', align: 'left', dx: 8, dy: -6, fontSize: 11 },
        encoding: { x, y, text: { field: 'arm' } },
      },
    ],
  } as TopLevelSpec
}

/** The legend's name for the spec's shares, beside each group's `NAME (evaluated)`. */
const REQUESTED_SERIES = 'requested (spec)'

/** Requested against evaluated shares of one property's labels, grouped bars per label. */
export function conformanceSpec(
  property: string,
  groups: readonly GroupConformance[],
  labelOf: (g: GroupConformance) => string,
): TopLevelSpec {
  const values: Array<Record<string, unknown>> = []
  const requested = new Map<string, number>()
  for (const g of groups) {
    const prop = g.properties.find((p) => p.name === property)
    if (!prop) continue
    for (const l of prop.labels) {
      if (l.requested !== null && !requested.has(l.label)) requested.set(l.label, l.requested)
      if (l.evaluated !== null) values.push({ label: l.label, series: labelOf(g), percent: l.evaluated })
    }
  }
  values.unshift(...[...requested].map(([label, percent]) => ({ label, series: REQUESTED_SERIES, percent })))
  return {
    width: WIDTH,
    height: 220,
    data: { values },
    mark: { type: 'bar' },
    encoding: {
      x: { field: 'label', type: 'nominal', title: property, axis: { labelAngle: 0 } },
      xOffset: { field: 'series', type: 'nominal', sort: null },
      y: { field: 'percent', type: 'quantitative', title: '% of samples', scale: { domain: [0, 100] } },
      color: { field: 'series', type: 'nominal', sort: null, scale: { scheme: 'tableau10' }, legend: { title: null } },
    },
  } as TopLevelSpec
}
