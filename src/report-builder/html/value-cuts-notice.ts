import type { RunRecord } from '../../core/run-record.js'
import { valueCutsOf, valueCutsSentence } from '../value-cuts.js'
import { esc } from './escape.js'

// Its own style: the page's stylesheet (page.ts) stays as it is.
const STYLE = 'background:#fff8e1;border:1px solid #ffd54f'

/** The notice at the top of the page when the size policy cut values in the records; empty when none was cut. */
export function valueCutsNotice(records: readonly RunRecord[]): string {
  const cuts = valueCutsOf(records)
  if (!cuts) return ''
  return `<div class="gate value-cuts" role="note" style="${STYLE}"><strong>Values cut:</strong> ${valueCutsSentence(cuts, (f) => `<code>${esc(f)}</code>`)}</div>`
}
