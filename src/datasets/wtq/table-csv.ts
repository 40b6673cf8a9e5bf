import type { Table } from '../../core/schemas.js'

/**
 * The CSV dialect of WikiTableQuestions' tables: comma-separated, `"`-quoted, and quotes inside a field
 * escaped with a backslash (`\"`) rather than doubled, so an RFC 4180 parser misreads them. This follows
 * Python's `csv.reader(f, escapechar='\\', doublequote=False, strict=True)`: a backslash makes the next
 * character literal (inside or outside quotes); a quote closes the quoted part, which must then end its field
 * (a comma, a line break or the end of the file: anything else means a quote left open earlier was closed by
 * another field's quote); newlines inside quotes are kept. Errors name the file and the line.
 */
export function parseWtqCsv(text: string, file: string): Table {
  const records: string[][] = []
  /** The line each record starts on, 1-based. */
  const recordLines: number[] = []
  let record: string[] = []
  let field = ''
  let quoted = false
  let fieldStarted = false
  let line = 1
  let recordLine = 1
  let quoteLine = 0
  const endField = () => {
    record.push(field)
    field = ''
    fieldStarted = false
  }
  const endRecord = () => {
    if (record.length > 0 || fieldStarted || field !== '') {
      endField()
      records.push(record)
      recordLines.push(recordLine)
    }
    record = []
  }
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (c === '\n') line++
    if (c === '\\' && i + 1 < text.length) {
      field += text[++i]
      if (text[i] === '\n') line++
      fieldStarted = true
    } else if (quoted) {
      if (c === '"') {
        quoted = false
        const next = text[i + 1]
        if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r') {
          const opened = quoteLine === line ? '' : ` (the quote opened on line ${quoteLine} was not closed there)`
          throw new WtqCsvError(
            `${file}:${line}: ${JSON.stringify(next)} after the closing quote of a quoted field${opened}; a quote inside a field is written \\"`,
          )
        }
      } else field += c
    } else if (c === '"' && !fieldStarted) {
      quoted = true
      quoteLine = line
      fieldStarted = true
    } else if (c === ',') {
      endField()
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') {
        i++
        line++
      }
      endRecord()
      recordLine = line
    } else {
      field += c
      fieldStarted = true
    }
  }
  if (quoted)
    throw new WtqCsvError(
      `${file}:${quoteLine}: a quoted field opened on this line is not closed before the end of the file`,
    )
  endRecord()
  const [columns, ...rows] = records
  if (!columns) throw new WtqCsvError(`${file}:1: empty table`)
  rows.forEach((row, i) => {
    if (row.length !== columns.length) {
      throw new WtqCsvError(
        `${file}:${recordLines[i + 1]}: row ${i + 1} has ${row.length} cells, the header has ${columns.length}`,
      )
    }
  })
  return { columns, rows }
}

export class WtqCsvError extends Error {}
