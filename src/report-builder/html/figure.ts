import type { TopLevelSpec } from 'vega-lite'
import { esc } from './escape.js'
import { renderVegaLiteSvgs } from './vega-svg.js'

interface FigureOptions {
  /** Unique within the page; also scopes the SVG's ids. */
  id: string
  caption: string
  /** The data field each mark describes and the values that must each have a mark (for readers and tests). */
  markField: string
  marksFor: readonly string[]
}

/**
 * Each chart is drawn twice, for wide and for narrow pages; the page's CSS shows the one that fits and scales
 * it to the column. One drawing scaled from 1,320 px down to 760 px (or up) would leave its text too small
 * (or too large) to read. Widths are the whole chart's, axes and legends included.
 */
export const CHART_WIDTHS = { wide: 1100, narrow: 700 } as const

/** A chart as a <figure>: the Vega-rendered SVGs inline, a caption, and what its marks stand for. */
export async function figure(spec: TopLevelSpec, opts: FigureOptions): Promise<string> {
  const fits = Object.entries(CHART_WIDTHS)
  const svgs = await renderVegaLiteSvgs(
    { ...spec, description: opts.caption } as TopLevelSpec,
    fits.map(([fit, width]) => ({ width, id: fit === 'wide' ? opts.id : `${opts.id}-${fit}` })),
  )
  const drawings = fits.map(([fit], i) => `<div class="svg ${fit}">${svgs[i]}</div>`)
  return (
    `<figure class="chart" id="${esc(opts.id)}" data-mark-field="${esc(opts.markField)}" data-marks-for="${esc(JSON.stringify(opts.marksFor))}">` +
    `${drawings.join('')}<figcaption>${esc(opts.caption)}</figcaption></figure>`
  )
}
