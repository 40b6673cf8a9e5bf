import type { Table } from '../../core/schemas.js'

/**
 * The CSV dialect of WikiTableQuestions' tables: comma-separated, `"`-quoted, and quotes inside a field
 * escaped with a backslash (`\"`) rather than doubled, so an RFC 4180 parser misreads them. This follows
 * Python's `csv.reader(f, escapechar='\\', doublequote=False)`: a backslash makes the next character
 * literal (inside or outside quotes); a quote closes the quoted part; newlines inside quotes are kept.
 */
export function parseWtqCsv(text: string, file: string): Table {
  const records: string[][] = []
  let record: string[] = []
  let field = ''
  let quoted = false
  let fieldStarted = false
  const endField = () => {
    record.push(field)
    field = ''
    fieldStarted = false
  }
  const endRecord = () => {
    if (record.length > 0 || fieldStarted || field !== '') {
      endField()
      records.push(record)
    }
    record = []
  }
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (c === '\\' && i + 1 < text.length) {
      field += text[++i]
      fieldStarted = true
    } else if (quoted) {
      if (c === '"') quoted = false
      else field += c
    } else if (c === '"' && !fieldStarted) {
      quoted = true
      fieldStarted = true
    } else if (c === ',') {
      endField()
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++
      endRecord()
    } else {
      field += c
      fieldStarted = true
    }
  }
  if (quoted) throw new WtqCsvError(`${file}: a quoted field is not closed before the end of the file`)
  endRecord()
  const [columns, ...rows] = records
  if (!columns) throw new WtqCsvError(`${file}: empty table`)
  rows.forEach((row, i) => {
    if (row.length !== columns.length) {
      throw new WtqCsvError(`${file}: row ${i + 1} has ${row.length} cells, the header has ${columns.length}`)
    }
  })
  return { columns, rows }
}

export class WtqCsvError extends Error {}
