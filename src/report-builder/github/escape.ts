/*
 * Escaping for GitHub Actions output. Workflow commands follow GitHub's rules (actions/toolkit's command.ts):
 * a message escapes `%`, `\r` and `\n`; a property value also escapes `:` and `,`.
 * Markdown text and cells are escaped by the one module every report uses (core/escape-text.ts), and tables are
 * written by `table` (figure-text.ts).
 */

/** A workflow command's message: `%` → `%25`, CR → `%0D`, LF → `%0A`. */
export function escapeCommandData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')
}

/** A workflow command's property value (`title=`, `file=`): the message's escapes plus `:` → `%3A`, `,` → `%2C`. */
export function escapeCommandProperty(text: string): string {
  return escapeCommandData(text).replace(/:/g, '%3A').replace(/,/g, '%2C')
}
