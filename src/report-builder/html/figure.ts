import type { TopLevelSpec } from 'vega-lite'
import { esc } from './escape.js'
import { renderVegaLiteSvg } from './vega-svg.js'

export interface FigureOptions {
  /** Unique within the page; also scopes the SVG's ids. */
  id: string
  caption: string
  /** The data field each mark describes and the values that must each have a mark (for readers and tests). */
  markField: string
  marksFor: readonly string[]
}

/** A chart as a <figure>: the Vega-rendered SVG inline, a caption, and what its marks stand for. */
export async function figure(spec: TopLevelSpec, opts: FigureOptions): Promise<string> {
  const svg = await renderVegaLiteSvg({ ...spec, description: opts.caption } as TopLevelSpec, opts.id)
  return (
    `<figure class="chart" id="${esc(opts.id)}" data-mark-field="${esc(opts.markField)}" data-marks-for="${esc(JSON.stringify(opts.marksFor))}">` +
    `<div class="svg">${svg}</div><figcaption>${esc(opts.caption)}</figcaption></figure>`
  )
}
