/*
 * Escaping for GitHub Actions output. Workflow commands follow GitHub's rules (actions/toolkit's command.ts):
 * a message escapes `%`, `\r` and `\n`; a property value also escapes `:` and `,`.
 * Markdown text and cells are escaped by the one module every report uses (core/escape-text.ts).
 */

import { markdownCell as coreMarkdownCell, markdownText } from '../../core/escape-text.js'

export { markdownText }

/** A workflow command's message: `%` → `%25`, CR → `%0D`, LF → `%0A`. */
export function escapeCommandData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')
}

/** A workflow command's property value (`title=`, `file=`): the message's escapes plus `:` → `%3A`, `,` → `%2C`. */
export function escapeCommandProperty(text: string): string {
  return escapeCommandData(text).replace(/:/g, '%3A').replace(/,/g, '%2C')
}

/** A table cell: escaped as every report's cells are (core/escape-text.ts), never empty. */
export function markdownCell(text: string): string {
  const escaped = coreMarkdownCell(text)
  return escaped.trim() === '' ? '—' : escaped
}

/** A GFM table from cells already escaped with markdownCell (or built from escaped parts). */
export function gfmTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const lines = [`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`]
  for (const row of rows) lines.push(`| ${row.join(' | ')} |`)
  return lines.join('\n')
}
