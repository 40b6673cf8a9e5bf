import type { Answer, GradeResult } from '../../core/answer.js'
import { InputError } from '../../core/errors.js'
import { show } from './describe.js'
import { checkVegaLite } from './vega-lite.js'
import { vegaLiteNames } from './vega-lite-names.js'
import type { SyncGrader } from './grader-types.js'

export interface ChartOptions {
  /** Demand a unit spec with this mark type somewhere in the chart. */
  mark?: string
  /** Demand these encoding channels (each in some unit spec of the same chart). */
  encodings?: string[]
}

/**
 * Passes when `answer.charts` holds at least one valid Vega-Lite spec (see `vega-lite.ts`) that also has
 * the demanded mark and encodings. A spec is valid when every unit has a known mark, data in scope
 * (values, url or name, on itself or an ancestor; inline values non-empty) and a non-empty encoding of
 * known channels whose fields exist in inline data where it is given; compositions (layer, concat, facet,
 * repeat) must hold valid specs.
 */
export function chartProduced(opts: ChartOptions = {}): SyncGrader {
  if (opts.mark !== undefined && !vegaLiteNames().marks.has(opts.mark)) {
    throw new InputError(`chartProduced(): option mark ${show(opts.mark)} is not a Vega-Lite mark type`)
  }
  const demanded = opts.encodings ?? []
  if (!Array.isArray(demanded))
    throw new InputError('chartProduced(): option encodings must be a list of channel names')
  for (const channel of demanded) {
    if (!vegaLiteNames().channels.has(channel)) {
      throw new InputError(`chartProduced(): option encodings holds ${show(channel)}, not a Vega-Lite encoding channel`)
    }
  }
  const wants = [opts.mark ? `mark ${show(opts.mark)}` : '', demanded.length ? `encodings ${demanded.join(', ')}` : '']
    .filter(Boolean)
    .join(' and ')
  const expected = `a valid Vega-Lite chart${wants ? ` with ${wants}` : ''}`

  return (answer: Answer): GradeResult => {
    const charts: unknown = answer.charts
    if (!Array.isArray(charts) || charts.length === 0) {
      return { passed: false, detail: `expected ${expected}, but the answer has no charts` }
    }
    const verdicts = charts.map((chart, i) => {
      const check = checkVegaLite(chart)
      const summary = `marks ${[...check.marks].join(', ') || 'none'}; channels ${[...check.channels].join(', ') || 'none'}`
      if (check.problems.length) {
        const more = check.problems.length > 1 ? ` (+${check.problems.length - 1} more)` : ''
        return { ok: false, text: `charts[${i}] is invalid: ${check.problems[0]}${more}` }
      }
      if (opts.mark && !check.marks.has(opts.mark)) {
        return { ok: false, text: `charts[${i}] has no ${show(opts.mark)} mark (${summary})` }
      }
      const lacking = demanded.filter((c) => !check.channels.has(c))
      if (lacking.length) return { ok: false, text: `charts[${i}] lacks encoding ${lacking.join(', ')} (${summary})` }
      return { ok: true, text: `charts[${i}] is valid (${summary})` }
    })
    const good = verdicts.find((v) => v.ok)
    if (good) return { passed: true, detail: `expected ${expected}: ${good.text}` }
    return { passed: false, detail: `expected ${expected}, found none: ${verdicts.map((v) => v.text).join('; ')}` }
  }
}
