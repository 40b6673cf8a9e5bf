import type { RunRecord } from '../core/run-record.js'
import { compareText } from '../core/order.js'
import { counted } from '../stats/number-format.js'
import { cutField, MAX_VALUE_CHARS } from '../core/value-cap.js'

/** What the size policy (core/value-cap.ts) cut in a report's records, counted from their cut notes. */
export interface ValueCutsSummary {
  /** Values cut, over all records. */
  values: number
  /** Records with at least one value cut. */
  runs: number
  /** The fields cut, indices left out (`fixes[].newValue`), sorted: the same text from every front door. */
  fields: string[]
}

/** The cuts in `records`, or null when no value was cut. */
export function valueCutsOf(records: readonly RunRecord[]): ValueCutsSummary | null {
  let values = 0
  let runs = 0
  const fields = new Set<string>()
  for (const r of records) {
    let cut = false
    for (const w of r.warnings) {
      const field = cutField(w)
      if (field === null) continue
      values++
      cut = true
      fields.add(field.replace(/\[\d+\]/g, '[]'))
    }
    if (cut) runs++
  }
  return values ? { values, runs, fields: [...fields].sort(compareText) } : null
}

/** `3 values in 1 run were cut to their first 10000 characters (a, b)`: what every statement of the cuts starts with. */
function cutsClause(cuts: ValueCutsSummary, code: (field: string) => string): string {
  return `${counted(cuts.values, 'value')} in ${counted(cuts.runs, 'run')} ${cuts.values === 1 ? 'was' : 'were'} cut to their first ${MAX_VALUE_CHARS} characters (${cuts.fields.map(code).join(', ')})`
}

/**
 * The sentence every report states when values were cut: how many, to what size, which fields, and where the
 * full values' length and sha256 are. `code` formats a field name for the output (Markdown code, HTML text).
 */
export function valueCutsSentence(cuts: ValueCutsSummary, code: (field: string) => string): string {
  return (
    `${cutsClause(cuts, code)}. The full length and sha256 of each are kept in runs.jsonl and report.json, ` +
    'in the warnings of its record ("value cut: …"); grading saw the full values.'
  )
}

/** The one line the summaries (terminal, GitHub job summary, PR comment) give the cuts, the clause of the report's sentence. */
export function valueCutsLine(cuts: ValueCutsSummary, code: (field: string) => string): string {
  return `Values cut: ${cutsClause(cuts, code)}; their full length and sha256 are in runs.jsonl.`
}
