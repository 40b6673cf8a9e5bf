import type { Aggregate } from '../aggregate.js'
import { UNITS_NOTE_LEAD, unitsNoteEntries } from '../units-note.js'
import { esc } from './escape.js'

/**
 * The units note as a table: one row per group whose intervals are not over independent runs, since one
 * sentence naming ten groups does not read. Empty when every group's units are single runs.
 */
export function unitsTable(aggregates: readonly Aggregate[]): string {
  const entries = unitsNoteEntries(aggregates)
  if (!entries.length) return ''
  const rows = entries.map(
    (e) =>
      `<tr><th scope="row">${esc(e.group)}</th><td class="num">${esc(e.units)}</td><td class="num">${e.runs}</td>` +
      `<td>${esc(e.how)}${e.note ? `; ${esc(e.note)}` : ''}</td></tr>`,
  )
  return (
    `<div class="units-note"><p class="legend">${esc(UNITS_NOTE_LEAD)}:</p>` +
    `<div class="scroll"><table class="units"><thead><tr><th scope="col">group</th><th scope="col">units</th><th scope="col">runs</th><th scope="col">intervals</th></tr></thead>` +
    `<tbody>${rows.join('')}</tbody></table></div></div>`
  )
}
