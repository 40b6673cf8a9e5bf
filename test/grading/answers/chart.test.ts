import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { InputError } from '../../../src/core/errors.js'
import { chartProduced, checkVegaLite } from '../../../src/grading/answers/index.js'

const values = [
  { month: 'Jan', delays: 4, airline: 'AA' },
  { month: 'Feb', delays: 7, airline: 'BA' },
]
const bar = {
  $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
  data: { values },
  mark: 'bar',
  encoding: { x: { field: 'month', type: 'nominal' }, y: { field: 'delays', type: 'quantitative' } },
}
const problemsOf = (spec: unknown) => checkVegaLite(spec).problems

/** The pinned Vega-Lite's JSON schema, read here on its own to hold the grader's names to it. */
const schema = JSON.parse(
  readFileSync(createRequire(import.meta.url).resolve('vega-lite/vega-lite-schema.json'), 'utf8'),
) as {
  definitions: Record<string, { enum?: string[]; const?: string; properties?: Record<string, unknown> }>
}

describe("checkVegaLite: the names of the pinned Vega-Lite's schema", () => {
  it('admits every mark the schema defines, primitive and composite', () => {
    const marks = [
      ...schema.definitions['Mark']!.enum!,
      ...['BoxPlot', 'ErrorBar', 'ErrorBand'].map((d) => schema.definitions[d]!.const!),
    ]
    expect(marks).toContain('geoshape')
    for (const mark of marks) {
      const spec = { ...bar, mark }
      expect(
        problemsOf(spec).filter((p) => p.includes('mark type')),
        mark,
      ).toEqual([])
      expect(
        problemsOf({ ...spec, mark: { type: mark } }).filter((p) => p.includes('mark type')),
        mark,
      ).toEqual([])
      expect(chartProduced({ mark })({ charts: [spec] }).passed, mark).toBe(true)
    }
  })

  it('admits encoding.time (Vega-Lite 6) and every other channel of a unit or faceted spec', () => {
    const channels = Object.keys(schema.definitions['FacetedEncoding']!.properties!)
    expect(channels).toContain('time')
    for (const channel of channels) {
      expect(
        problemsOf({ ...bar, encoding: { ...bar.encoding, [channel]: { field: 'month' } } }).filter((p) =>
          p.includes('encoding channel'),
        ),
        channel,
      ).toEqual([])
    }
    const timed = { ...bar, encoding: { ...bar.encoding, time: { field: 'month' } } }
    expect(problemsOf(timed)).toEqual([])
    expect(chartProduced({ encodings: ['x', 'time'] })({ charts: [timed] })).toMatchObject({ passed: true })
    expect(problemsOf({ ...bar, encoding: { ...bar.encoding, when: { field: 'month' } } })).toEqual([
      'spec.encoding.when: "when" is not a Vega-Lite encoding channel',
    ])
  })
})

describe('checkVegaLite: unit specs', () => {
  it('accepts a plain bar chart', () => {
    const check = checkVegaLite(bar)
    expect(check.problems).toEqual([])
    expect([...check.marks]).toEqual(['bar'])
    expect([...check.channels]).toEqual(['x', 'y'])
  })

  it('accepts a mark object with a type, and url or named data', () => {
    expect(problemsOf({ ...bar, mark: { type: 'line', point: true } })).toEqual([])
    expect(problemsOf({ ...bar, data: { url: 'data/flights.csv' } })).toEqual([])
    expect(problemsOf({ ...bar, data: { name: 'table' } })).toEqual([])
  })

  it('checks fields against named datasets', () => {
    const spec = { ...bar, data: { name: 't' }, datasets: { t: [{ month: 'Jan', delays: 1 }] } }
    expect(problemsOf(spec)).toEqual([])
    const wrong = { ...spec, datasets: { t: [{ m: 'Jan', d: 1 }] } }
    expect(problemsOf(wrong)[0]).toContain('field "month" is not in the data')
  })

  it('rejects unknown marks, missing data, empty data and missing encodings', () => {
    expect(problemsOf({ ...bar, mark: 'pie' })[0]).toBe('spec.mark "pie" is not a Vega-Lite mark type')
    expect(problemsOf({ ...bar, mark: { point: true } })[0]).toContain('must be a mark type')
    const { data: _data, ...noData } = bar
    expect(problemsOf(noData)[0]).toBe('spec (mark "bar") has no data (values, url or name) here or above')
    expect(problemsOf({ ...bar, data: { values: [] } })[0]).toContain('data.values is empty')
    expect(problemsOf({ ...bar, data: { format: 'csv' } })[0]).toBe('spec.data has none of values, url or name')
    const { encoding: _encoding, ...noEncoding } = bar
    expect(problemsOf(noEncoding)[0]).toBe('spec (mark "bar") has no encoding')
    expect(problemsOf({ ...bar, encoding: {} })[0]).toContain('has no encoding')
  })

  it('rejects fields absent from inline data, naming the known fields', () => {
    const spec = { ...bar, encoding: { x: { field: 'month' }, y: { field: 'delay' } } }
    expect(problemsOf(spec)).toEqual([
      'spec.encoding.y.field "delay" is not in the data (fields: "month", "delays", "airline")',
    ])
  })

  it('rejects unknown channels and empty channel definitions', () => {
    expect(problemsOf({ ...bar, encoding: { colour: { field: 'airline' } } })[0]).toContain(
      '"colour" is not a Vega-Lite encoding channel',
    )
    expect(problemsOf({ ...bar, encoding: { x: { type: 'nominal' } } })[0]).toBe(
      'spec.encoding.x has no field, datum or value',
    )
    expect(problemsOf({ ...bar, encoding: { x: 'month' } })[0]).toContain('not a channel definition object')
    expect(problemsOf({ ...bar, encoding: { x: { field: 5 } } })[0]).toContain('field must be a non-empty string')
  })

  it('accepts value, datum, count aggregates, tooltip lists and null tooltips', () => {
    const spec = {
      ...bar,
      encoding: {
        x: { field: 'month' },
        y: { aggregate: 'count' },
        color: { value: 'red' },
        tooltip: [{ field: 'month' }, { field: 'delays' }],
        text: { datum: 'x' },
      },
    }
    expect(problemsOf(spec)).toEqual([])
    expect(problemsOf({ ...bar, encoding: { ...bar.encoding, tooltip: null } })).toEqual([])
    expect(problemsOf({ ...bar, encoding: { ...bar.encoding, tooltip: [{ field: 'nope' }] } })[0]).toContain(
      'tooltip[0].field',
    )
  })

  it('reads primitive values as the field "data" and nested fields by their top name', () => {
    expect(problemsOf({ data: { values: [1, 2] }, mark: 'tick', encoding: { x: { field: 'data' } } })).toEqual([])
    const nested = { data: { values: [{ a: { b: 1 } }] }, mark: 'point', encoding: { x: { field: 'a.b' } } }
    expect(problemsOf(nested)).toEqual([])
    const dotted = { data: { values: [{ 'a.b': 1 }] }, mark: 'point', encoding: { x: { field: 'a\\.b' } } }
    expect(problemsOf(dotted)).toEqual([])
  })

  it('knows fields that transforms add, and stops checking after a pivot', () => {
    const calc = {
      ...bar,
      transform: [{ calculate: 'datum.delays * 2', as: 'double' }],
      encoding: { x: { field: 'double' } },
    }
    expect(problemsOf(calc)).toEqual([])
    const agg = {
      ...bar,
      transform: [{ aggregate: [{ op: 'sum', field: 'delays', as: 'total' }], groupby: ['airline'] }],
      encoding: { x: { field: 'total' } },
    }
    expect(problemsOf(agg)).toEqual([])
    const fold = { ...bar, transform: [{ fold: ['delays'] }], encoding: { x: { field: 'key' }, y: { field: 'value' } } }
    expect(problemsOf(fold)).toEqual([])
    const typo = { ...bar, transform: [{ calculate: '1', as: 'one' }], encoding: { x: { field: 'two' } } }
    expect(problemsOf(typo)[0]).toContain('"two" is not in the data')
    const pivot = { ...bar, transform: [{ pivot: 'airline', value: 'delays' }], encoding: { x: { field: 'AA' } } }
    expect(problemsOf(pivot)).toEqual([])
    expect(problemsOf({ ...bar, transform: { calculate: '1' } })[0]).toContain('transform must be a list')
  })

  it('rejects non-objects and Vega (not Vega-Lite) specs', () => {
    expect(problemsOf('bar')).toEqual(['spec is not an object'])
    expect(problemsOf([bar])).toEqual(['spec is not an object'])
    expect(problemsOf({ ...bar, $schema: 'https://vega.github.io/schema/vega/v5.json' })[0]).toContain(
      'a Vega spec, not Vega-Lite',
    )
  })
})

describe('checkVegaLite: compositions', () => {
  const unit = { mark: 'line', encoding: { x: { field: 'month' }, y: { field: 'delays' } } }

  it('accepts layers, concatenations, facets and repeats that inherit data', () => {
    expect(problemsOf({ data: { values }, layer: [unit, { ...unit, mark: 'point' }] })).toEqual([])
    expect(problemsOf({ data: { values }, hconcat: [unit, unit] })).toEqual([])
    expect(problemsOf({ data: { values }, vconcat: [{ layer: [unit] }] })).toEqual([])
    expect(problemsOf({ data: { values }, concat: [unit] })).toEqual([])
    expect(problemsOf({ data: { values }, facet: { field: 'airline' }, spec: unit })).toEqual([])
    expect(problemsOf({ data: { values }, facet: { row: { field: 'airline' } }, spec: unit })).toEqual([])
    const repeat = {
      data: { values },
      repeat: ['delays'],
      spec: { mark: 'bar', encoding: { x: { field: { repeat: 'repeat' } } } },
    }
    expect(problemsOf(repeat)).toEqual([])
    expect([...checkVegaLite({ data: { values }, layer: [unit, { ...unit, mark: 'point' }] }).marks]).toEqual([
      'line',
      'point',
    ])
  })

  it('accepts data given in the unit instead of the top', () => {
    expect(problemsOf({ layer: [{ ...unit, data: { values } }] })).toEqual([])
  })

  it('rejects invalid children with their path', () => {
    expect(problemsOf({ data: { values }, layer: [unit, { mark: 'pie' }] })[0]).toBe(
      'spec.layer[1].mark "pie" is not a Vega-Lite mark type',
    )
    expect(problemsOf({ layer: [unit] })[0]).toContain('spec.layer[0] (mark "line") has no data')
    expect(problemsOf({ data: { values }, layer: [] })[0]).toBe('spec.layer must be a non-empty list of specs')
    expect(problemsOf({ data: { values }, facet: { field: 'airline' } })[0]).toContain('has facet but no spec')
    expect(problemsOf({ data: { values }, facet: { field: 'carrier' }, spec: unit })[0]).toContain(
      'spec.facet.field "carrier"',
    )
    expect(problemsOf({ data: { values } })[0]).toContain('has no mark and no composition')
    expect(problemsOf({ data: { values }, layer: [{ ...unit, data: null }] })[0]).toContain('has no data')
  })
})

describe('chartProduced', () => {
  it('passes when one chart is valid and says which', () => {
    const r = chartProduced()({ charts: [{ mark: 'bar' }, bar] })
    expect(r.passed).toBe(true)
    expect(r.detail).toBe('expected a valid Vega-Lite chart: charts[1] is valid (marks bar; channels x, y)')
  })

  it('fails without charts', () => {
    expect(chartProduced()({ text: 'here is a chart' }).detail).toContain('the answer has no charts')
    expect(chartProduced()({ charts: [] }).passed).toBe(false)
  })

  it('fails with each chart’s first problem', () => {
    const r = chartProduced()({ charts: [{ mark: 'pie', data: { values } }] })
    expect(r.passed).toBe(false)
    expect(r.detail).toBe(
      'expected a valid Vega-Lite chart, found none: charts[0] is invalid: spec.mark "pie" is not a Vega-Lite mark type (+1 more)',
    )
  })

  it('demands a mark and encodings when asked', () => {
    expect(chartProduced({ mark: 'bar' })({ charts: [bar] }).passed).toBe(true)
    const line = chartProduced({ mark: 'line' })({ charts: [bar] })
    expect(line.passed).toBe(false)
    expect(line.detail).toContain('charts[0] has no "line" mark (marks bar; channels x, y)')
    expect(chartProduced({ encodings: ['x', 'y'] })({ charts: [bar] }).passed).toBe(true)
    expect(chartProduced({ encodings: ['x', 'color'] })({ charts: [bar] }).detail).toContain('lacks encoding color')
    const layered = {
      data: { values },
      layer: [bar, { mark: 'rule', encoding: { y: { field: 'delays' }, color: { value: 'red' } } }],
    }
    const { data: _d, ...barNoData } = bar
    expect(
      chartProduced({ mark: 'rule', encodings: ['x', 'color'] })({
        charts: [{ ...layered, layer: [barNoData, layered.layer[1]] }],
      }).passed,
    ).toBe(true)
  })

  it('a valid chart must meet every demand on its own', () => {
    const line = { ...bar, mark: 'line' }
    expect(
      chartProduced({ mark: 'line', encodings: ['color'] })({
        charts: [line, { ...bar, encoding: { ...bar.encoding, color: { field: 'airline' } } }],
      }).passed,
    ).toBe(false)
  })

  it('rejects unknown demands up front', () => {
    expect(() => chartProduced({ mark: 'pie' })).toThrow(InputError)
    expect(() => chartProduced({ encodings: ['colour'] })).toThrow(/not a Vega-Lite encoding channel/)
  })
})
