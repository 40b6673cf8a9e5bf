import { interpolateRgb, piecewise } from 'd3-interpolate'

/**
 * Vega-scale's continuous `blues` palette, from its source (vega-scale 8, `schemes.js`). Vega interpolates it
 * piecewise in RGB, as `heatShade` does, so the heat tables keep Vega's colours without loading Vega: a page
 * with no chart never does.
 */
const BLUES = 'cfe1f2bed8eca8cee58fc1de74b2d75ba3cf4592c63181bd206fb2125ca40a4a90'

/** The colour of a value in [0, 1]: Vega's `scheme('blues')`. */
export const heatShade: (t: number) => string = piecewise(
  interpolateRgb,
  BLUES.match(/.{6}/g)!.map((hex) => `#${hex}`),
)
