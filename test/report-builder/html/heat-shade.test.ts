import { describe, expect, it } from 'vitest'
import { heatShade } from '../../../src/report-builder/html/heat-shade.js'
import { loadVega } from '../../../src/report-builder/html/vega-svg.js'

describe('heatShade', () => {
  it("is Vega's `blues` scheme, colour for colour, without loading Vega", async () => {
    const { vega } = await loadVega()
    const blues = vega.scheme('blues') as (t: number) => string
    for (let i = 0; i <= 200; i++) expect(heatShade(i / 200), `t = ${i / 200}`).toBe(blues(i / 200))
    expect(heatShade(0)).toBe('rgb(207, 225, 242)')
    expect(heatShade(1)).toBe('rgb(10, 74, 144)')
  })
})
