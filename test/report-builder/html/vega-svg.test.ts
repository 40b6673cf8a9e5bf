import type { TopLevelSpec } from 'vega-lite'
import { describe, expect, it } from 'vitest'
import {
  baselineDeltaSpec,
  categoryGridSpec,
  conformanceSpec,
  kindRecallSpec,
  paretoSpec,
  scoreF1Spec,
} from '../../../src/report-builder/html/charts.js'
import { groupConformance } from '../../../src/report-builder/html/conformance-data.js'
import { paretoPoints } from '../../../src/report-builder/html/pareto.js'
import { armSummaries, categoryGrid } from '../../../src/report-builder/html/question-data.js'
import { CHART_CONFIG, loadVega, renderVegaLiteSvgs } from '../../../src/report-builder/html/vega-svg.js'
import { fullReport, questionRecords, repairRecords, reportOf } from './report.fixture.js'

const DRAWINGS = [
  { width: 1100, id: 'c' },
  { width: 700, id: 'c-narrow' },
]

/** An SVG without its ids: Vega numbers them with a process-wide counter, `renderVegaLiteSvgs` from each chart's id. */
const withoutIds = (svg: string) => svg.replace(/\sid="[^"]+"|url\(#[^)]+\)|href="#[^"]+"/g, '')

/** What the drawing was before charts were compiled once per form: compiled with its data inline, in a new view. */
async function drawnInline(spec: TopLevelSpec): Promise<string[]> {
  const { vega, vl } = await loadVega()
  const svgs: string[] = []
  for (const { width } of DRAWINGS) {
    const compiled = vl.compile({ ...spec, width, config: CHART_CONFIG } as TopLevelSpec).spec
    compiled.autosize = { type: 'fit-x', contains: 'padding' }
    const view = new vega.View(vega.parse(compiled), { renderer: 'none' })
    svgs.push(withoutIds(await view.toSVG()))
    view.finalize()
  }
  return svgs
}

function everyChart(): Array<[string, TopLevelSpec]> {
  const { report, baselineDeltas } = fullReport()
  const rows = report.aggregates.map((a) => ({ label: a.group, aggregate: a }))
  const questions = reportOf(questionRecords())
  const arms = armSummaries(questions.records)
  const pareto = paretoPoints(arms.map((a) => ({ ...a, quality: a.correct / a.attempted })))
  const conformance = groupConformance(report.aggregates)
  const property = conformance[0]!.properties.find((p) => p.labels.length)!.name
  return [
    ['score, with F1', scoreF1Spec(rows.filter((r) => r.aggregate.f1Interval?.mean != null))],
    ['score, without F1', scoreF1Spec(questions.aggregates.map((a) => ({ label: a.group, aggregate: a })))],
    ['recall per kind', kindRecallSpec(rows.filter((r) => Object.keys(r.aggregate.perKind).length))],
    ['baseline deltas (a layer with its own data)', baselineDeltaSpec(baselineDeltas)],
    ['category grid', categoryGridSpec(categoryGrid(questions.records))],
    ['pareto', paretoSpec(pareto!.points, { costUnit: pareto!.unit, per: 'question', quality: 'accuracy' })],
    ['conformance', conformanceSpec(property, conformance, (g) => g.aggregate.group)],
  ]
}

describe('renderVegaLiteSvgs: each chart compiled once per form, its data and description set on the view', () => {
  it.each(everyChart())('draws the %s chart as a chart compiled with its data inline does', async (_, spec) => {
    const svgs = await renderVegaLiteSvgs(spec, DRAWINGS)
    expect(svgs.map(withoutIds)).toEqual(await drawnInline(spec))
  })

  it('draws a form with other data and another description as a new chart does, after drawing it once', async () => {
    const first = scoreF1Spec(reportOf(repairRecords()).aggregates.map((a) => ({ label: a.group, aggregate: a })))
    const other = scoreF1Spec(
      reportOf(repairRecords(0.3)).aggregates.map((a) => ({ label: `other ${a.group}`, aggregate: a })),
    )
    const described = { ...other, description: 'Score and F1 of the other runs.' } as TopLevelSpec
    await renderVegaLiteSvgs({ ...first, description: 'first' } as TopLevelSpec, DRAWINGS)
    const svgs = await renderVegaLiteSvgs(described, DRAWINGS)
    expect(svgs.map(withoutIds)).toEqual(await drawnInline(described))
    expect(svgs[0]).toContain('>other baseline · hospital<')
  })

  it('refuses a chart whose data is not inline values', async () => {
    const spec = { ...scoreF1Spec([]), data: { url: 'https://example.com/data.json' } } as TopLevelSpec
    await expect(renderVegaLiteSvgs(spec, DRAWINGS)).rejects.toThrow(/inline, as `data.values`/)
  })
})
