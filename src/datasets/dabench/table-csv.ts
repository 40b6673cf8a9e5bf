import { createRequire } from 'node:module'
import { InputError } from '../../core/errors.js'
import type { Table } from '../../core/schemas.js'

const requireCsvParse = createRequire(import.meta.url)

/**
 * A DABench table as the benchmark's agents read it, with pandas' `read_csv` defaults: the first line is the
 * header; a UTF-8 BOM is dropped; lines may end in LF, CRLF or (old Mac files: 2 of the 68) CR alone; an empty
 * header cell is named `Unnamed: <i>` and a repeated name gets `.1`, `.2`… as pandas names them; a row shorter
 * than the header is padded with empty cells (pandas' NaN). A row longer than the header is an error, as in pandas.
 * Cells stay literal strings.
 */
export function parseDabenchCsv(text: string, file: string): Table {
  let body = text.startsWith('\ufeff') ? text.slice(1) : text
  if (!body.includes('\n') && body.includes('\r')) body = body.replaceAll('\r', '\n')
  if (body.trim() === '') throw new InputError(`${file} is empty: expected a header line followed by data rows`)
  const { parse } = requireCsvParse('csv-parse/sync') as typeof import('csv-parse/sync')
  let records: Array<{ record: string[]; info: { lines: number } }>
  try {
    records = parse(body, {
      cast: false,
      trim: false,
      skip_empty_lines: true,
      relax_column_count: true,
      relax_quotes: true,
      info: true,
      record_delimiter: ['\r\n', '\n'],
    }) as unknown as typeof records
  } catch (error) {
    const e = error as Error & { lines?: number }
    throw new InputError(`${file}: not valid CSV${e.lines === undefined ? '' : ` at line ${e.lines}`}: ${e.message}`)
  }
  const [head, ...rest] = records
  if (!head) throw new InputError(`${file} is empty: expected a header line followed by data rows`)
  const columns = pandasColumns(head.record)
  const rows = rest.map(({ record, info }) => {
    if (record.length > columns.length) {
      throw new InputError(
        `${file}: line ${info.lines} has ${record.length} fields but the header has ${columns.length}`,
      )
    }
    return record.length < columns.length
      ? [...record, ...new Array<string>(columns.length - record.length).fill('')]
      : record
  })
  return { columns, rows }
}

/** pandas' header names: `Unnamed: i` for an empty cell, `name.1`, `name.2`… for repeats (skipping names taken). */
export function pandasColumns(header: readonly string[]): string[] {
  const named = header.map((name, i) => (name === '' ? `Unnamed: ${i}` : name))
  const taken = new Set<string>()
  const counts = new Map<string, number>()
  return named.map((name) => {
    let out = name
    if (taken.has(name)) {
      let k = counts.get(name) ?? 0
      do out = `${name}.${++k}`
      while (taken.has(out))
      counts.set(name, k)
    }
    taken.add(out)
    return out
  })
}
