import { InputError } from '../core/errors.js'
import { checkJsonDepth } from '../core/json-depth.js'

// Apart from read-runs.ts (which validates every row with the RunRecord schema) so that writers counting the
// rows they wrote, like the report folder's manifest, load no zod.

/**
 * The one reader of run files' rows, unvalidated: the non-blank lines of a runs.jsonl, or the `records` of a
 * report.json (null when a JSON file has no such array). Each row comes with where it is (`FILE: line 3`,
 * `FILE: records[2]`). Throws an InputError naming the line when the text does not parse.
 */
export function runRowsOf(
  text: string,
  file: string,
  format: 'jsonl' | 'report',
): Array<{ row: unknown; where: string }> | null {
  if (format === 'report') {
    let parsed: unknown
    checkJsonDepth(text, (line) => `${file}: line ${line}`)
    try {
      parsed = JSON.parse(text)
    } catch (error) {
      throw new InputError(`${file}: not valid JSON (${(error as Error).message})`)
    }
    const records = (parsed as { records?: unknown } | null)?.records
    if (!Array.isArray(records)) return null
    return records.map((row, i) => ({ row, where: `${file}: records[${i}]` }))
  }
  const out: Array<{ row: unknown; where: string }> = []
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return
    checkJsonDepth(line, () => `${file}: line ${i + 1}`)
    try {
      out.push({ row: JSON.parse(line), where: `${file}: line ${i + 1}` })
    } catch (error) {
      throw new InputError(`${file}: line ${i + 1}: not valid JSON (${(error as Error).message})`)
    }
  })
  return out
}
