/*
 * Escaping for GitHub Actions output. Workflow commands follow GitHub's rules (actions/toolkit's command.ts):
 * a message escapes `%`, `\r` and `\n`; a property value also escapes `:` and `,`.
 *
 * The Markdown helpers are local to this folder until the shared `core/escape-text.ts` (markdownCell,
 * markdownText) lands; then these two become re-exports of it.
 */

/** A workflow command's message: `%` → `%25`, CR → `%0D`, LF → `%0A`. */
export function escapeCommandData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')
}

/** A workflow command's property value (`title=`, `file=`): the message's escapes plus `:` → `%3A`, `,` → `%2C`. */
export function escapeCommandProperty(text: string): string {
  return escapeCommandData(text).replace(/:/g, '%3A').replace(/,/g, '%2C')
}

const MARKDOWN_SPECIAL = /[\\`*_{}[\]<>#|~]/g

/**
 * Text placed into GitHub-flavoured Markdown as itself: Markdown and HTML punctuation backslash-escaped, line
 * breaks folded to spaces (a group or agent name can hold anything a user typed).
 */
export function markdownText(text: string): string {
  return text.replace(/\r\n?|\n/g, ' ').replace(MARKDOWN_SPECIAL, '\\$&').replace(/&/g, '&amp;')
}

/** A table cell: as markdownText (which escapes `|` too), never empty. */
export function markdownCell(text: string): string {
  const escaped = markdownText(text)
  return escaped.trim() === '' ? '—' : escaped
}

/** A GFM table from cells already escaped with markdownCell (or built from escaped parts). */
export function gfmTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const lines = [`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`]
  for (const row of rows) lines.push(`| ${row.join(' | ')} |`)
  return lines.join('\n')
}
