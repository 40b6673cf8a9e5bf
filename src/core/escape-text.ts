/**
 * The one escaping function per output kind for strings that come from agents, data or files (agent names,
 * model ids, dataset ids, categories, labels, error messages). Pure, no I/O. HTML has its own, `esc` in
 * report-builder/html/escape.ts.
 *
 * - `markdownText`: inline Markdown (a list item, a paragraph, a heading's text): one line, no HTML, no link,
 *   no emphasis, no heading.
 * - `markdownCell`: `markdownText` for a table cell, with `|` escaped so it cannot open a column.
 * - `markdownCode`: an inline code span holding the text verbatim (paths, patterns).
 * - `terminalText`: one line for the operator's terminal, with no escape sequence or control character left.
 * - `terminalLines`: the same, keeping line breaks (multi-line error messages).
 */

/** Terminal escape sequences: CSI (`ESC [ … final`, and the 8-bit CSI), OSC/DCS/PM/APC strings, two-character escapes. */
const ESCAPE_SEQUENCE =
  /\u001b\[[0-?]*[ -/]*[@-~]|\u009b[0-?]*[ -/]*[@-~]|\u001b[\]PX^_][\s\S]*?(?:\u0007|\u001b\\|\u009c|$)|[\u0090\u009d-\u009f][\s\S]*?(?:\u0007|\u001b\\|\u009c|$)|\u001b[ -~]?/g

/**
 * Control characters other than tab and line feed (C0 with CR, DEL, C1), and the invisible bidirectional
 * overrides and marks that make text read in another order than it is stored.
 */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g

/** The text without terminal escape sequences and control characters; tabs and line feeds are kept. */
function stripControls(text: string): string {
  return String(text).replace(ESCAPE_SEQUENCE, '').replace(CONTROL, '')
}

/** One line: escape sequences and controls removed, each run of whitespace holding a tab or line break made one space. */
export function terminalText(text: string): string {
  return stripControls(text).replace(/[ \t]*[\t\n][ \t\n]*/g, ' ')
}

/** `terminalText` keeping line breaks (an error message over several lines); tabs stay. */
export function terminalLines(text: string): string {
  return stripControls(text)
}

/**
 * Inline Markdown showing `text` as written: it cannot end its line (line breaks become spaces), open a
 * heading, a quote, HTML (`<script>`, `<img onerror>`: a `<` that could open a tag becomes `&lt;`), a link or image (`](`,
 * `][`, `]:`), emphasis (`*`, `_` at a word's edge, `~`) or code (`` ` ``). A backslash before punctuation is
 * doubled so the text's own backslashes stay visible. Readable text (`0.5 [0.2, 0.8]`, `gpt-4o_mini`) is left as is.
 */
export function markdownText(text: string): string {
  let out = stripControls(text).replace(/\s*\n\s*|\t/g, ' ')
  out = out.replace(/\\(?=[!-/:-@[-`{-~])/g, '\\\\')
  // HTML (a tag, a comment, an autolink) opens only with `<` before a letter, `/`, `!` or `?`: `p <0.001` stays as is.
  out = out.replace(/&(?=#?[A-Za-z0-9]+;)/g, '&amp;').replace(/<(?=[A-Za-z/!?])/g, '&lt;')
  out = out.replace(/[`*~]/g, (c) => `\\${c}`)
  out = out.replace(/\](?=[([:])/g, '\\]')
  out = out.replace(/(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])/g, '\\_')
  return out.replace(/^(\s*)([#>+-])/, '$1\\$2').replace(/^(\s*\d+)([.)])(?=\s|$)/, '$1\\$2')
}

/** `markdownText` for a table cell: `|` is escaped too, so the text stays in its column. */
export function markdownCell(text: string): string {
  return markdownText(text).replace(/\|/g, '\\|')
}

/** An inline code span showing `text` verbatim on one line, its fence longer than any run of backticks inside. */
export function markdownCode(text: string): string {
  const body = stripControls(text).replace(/\s*\n\s*|\t/g, ' ')
  const longest = Math.max(0, ...(body.match(/`+/g) ?? []).map((run) => run.length))
  const fence = '`'.repeat(longest + 1)
  const pad =
    body.startsWith('`') || body.endsWith('`') || (body.startsWith(' ') && body.endsWith(' ') && body.trim() !== '')
      ? ' '
      : ''
  return `${fence}${pad}${body}${pad}${fence}`
}

/**
 * What a table writer does to every cell whatever built it: one line, no controls, and each `|` that is not
 * already escaped escaped (a cell built with `markdownCell` passes unchanged).
 */
export function markdownCellStructure(text: string): string {
  return stripControls(text)
    .replace(/\s*\n\s*|\t/g, ' ')
    .replace(/(\\*)\|/g, (m, slashes: string) => (slashes.length % 2 === 0 ? `${slashes}\\|` : m))
}

/** An SGR sequence (`ESC [ … m`): color and weight, what the project's own output uses (picocolors). */
const SGR = /^\u001b\[[0-9;]*m$/

/**
 * The last guard on whatever is written to a terminal (the CLI's stdout and stderr, the reporters' lines, an
 * agent's stderr passed through): colors stay, every other escape sequence (cursor moves, line erases, window
 * titles, hyperlinks) and every control character but tab and line feed (carriage return, backspace, bell)
 * is removed, so no text can overwrite or hide what was printed before it. Untrusted values are also put
 * through `terminalText`, which removes colors too.
 */
export function terminalOutput(text: string): string {
  return String(text)
    .replace(ESCAPE_SEQUENCE, (seq) => (SGR.test(seq) ? seq : ''))
    .replace(CONTROL_BUT_ESCAPE, '')
    .replace(LONE_ESCAPE, '')
}

const CONTROL_BUT_ESCAPE =
  /[\u0000-\u0008\u000b-\u001a\u001c-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g
/** An ESC left that does not start a kept SGR sequence. */
const LONE_ESCAPE = /\u001b(?!\[[0-9;]*m)/g
