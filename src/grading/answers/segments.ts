import type { Answer } from '../../core/answer.js'
import { kindOf } from './describe.js'

/** One piece of an answer that text matching looks at; phrases never span two segments. */
interface Segment {
  /** Where it came from: "text", "value", "value[2]", "value cell [0][name]"… */
  where: string
  text: string
}

/**
 * The answer's value and text as separate strings: a string or number value as itself, each list item,
 * each table cell and each record field on its own (so a phrase cannot straddle two cells), then the text.
 */
export function answerSegments(answer: Answer): Segment[] {
  const out: Segment[] = []
  if (answer.value !== undefined && answer.value !== null) collect(answer.value, 'value', out)
  if (typeof answer.text === 'string') out.push({ where: 'text', text: answer.text })
  return out
}

function collect(value: unknown, where: string, out: Segment[]): void {
  if (value === null || value === undefined) return
  if (typeof value === 'string') out.push({ where, text: value })
  else if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    out.push({ where, text: String(value) })
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => {
      collect(item, `${where}[${i}]`, out)
    })
  } else if (kindOf(value) === 'table') {
    const { columns, rows } = value as { columns: unknown; rows: unknown }
    if (!Array.isArray(rows)) return
    rows.forEach((row, r) => {
      if (!Array.isArray(row)) return
      row.forEach((cell, c) => {
        const name = Array.isArray(columns) && typeof columns[c] === 'string' ? columns[c] : String(c)
        collect(cell, `${where} cell [${r}][${name}]`, out)
      })
    })
  } else if (typeof value === 'object') {
    for (const [key, field] of Object.entries(value)) collect(field, `${where}.${key}`, out)
  }
}
