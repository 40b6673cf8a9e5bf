import { dataRecord } from '../../core/data-record.js'

/**
 * WikiTableQuestions' TSV escapes, undone exactly as the official evaluator does it (`tsv_unescape`):
 * `\n` → newline, then `\p` → `|`, then `\\` → `\`, in that order.
 */
export function tsvUnescape(text: string): string {
  return text.replaceAll('\\n', '\n').replaceAll('\\p', '|').replaceAll('\\\\', '\\')
}

/** A `|`-separated list of escaped items (multi-answer targets, canonical targets). */
export function tsvUnescapeList(text: string): string[] {
  return text.split('|').map(tsvUnescape)
}

/** Header-keyed rows of a TSV file; the caller names the columns it requires. */
export function parseTsv(
  text: string,
  file: string,
  required: readonly string[],
): Array<{ line: number; fields: Record<string, string> }> {
  const lines = text.replace(/\r\n/g, '\n').split('\n')
  const header = (lines[0] ?? '').split('\t')
  for (const name of required) {
    if (!header.includes(name))
      throw new TsvError(`${file}: the header has no "${name}" column (have: ${header.join(', ')})`)
  }
  const out: Array<{ line: number; fields: Record<string, string> }> = []
  for (let i = 1; i < lines.length; i++) {
    const raw = lines[i]!
    if (raw === '') continue
    const cells = raw.split('\t')
    if (cells.length < required.length)
      throw new TsvError(`${file}: line ${i + 1} has ${cells.length} fields, expected ${header.length}`)
    out.push({ line: i + 1, fields: dataRecord(header.map((h, j) => [h, cells[j] ?? ''])) })
  }
  return out
}

export class TsvError extends Error {}
