import { readFile, stat } from 'node:fs/promises'
import { createRequire } from 'node:module'
import type { Options } from 'csv-parse/sync'
import type { FileDigest } from '../core/dataset-info.js'
import { InputError } from '../core/errors.js'
import { sha256Hex } from '../core/hash.js'
import type { Table } from '../core/schemas.js'

const requireCsvParse = createRequire(import.meta.url)

/** csv-parse, loaded with the first CSV read: the vitest entry reaches this module, and most eval files read no CSV. */
function parse(input: string, options: Options): unknown {
  return (requireCsvParse('csv-parse/sync') as typeof import('csv-parse/sync')).parse(input, options)
}

interface CsvParseError extends Error {
  code?: string
  lines?: number
}

/**
 * Every line ends a record whether it ends in CRLF or LF. (csv-parse otherwise guesses one ending from the first
 * line and keeps the other inside values: `a\r\n1\n2\r\n` would read as one row "1\n2".)
 */
const RECORD_DELIMITERS = ['\r\n', '\n']

/**
 * Parses CSV text into a table of literal strings: no casting, no trimming, no NA guessing.
 * A UTF-8 BOM is dropped, LF and CRLF both work (mixed too), quoted fields may hold commas, quotes and newlines.
 * The first record is the header. A header-only file gives a table with no rows.
 * `file` only names the source in error messages.
 */
export function parseCsvStrict(text: string, file: string): Table {
  // The BOM is dropped here rather than by csv-parse so that byte offsets in error reports match the text.
  const body = text.startsWith('\ufeff') ? text.slice(1) : text
  if (body.length === 0) throw new InputError(`${file} is empty: expected a header line followed by data rows`)
  let records: string[][]
  try {
    records = parse(body, {
      cast: false,
      trim: false,
      skip_empty_lines: false,
      record_delimiter: RECORD_DELIMITERS,
    }) as string[][]
  } catch (error) {
    throw csvInputError(error as CsvParseError, body, file)
  }
  const [header, ...rows] = records
  if (!header) throw new InputError(`${file} is empty: expected a header line followed by data rows`)
  const seen = new Set<string>()
  for (const name of header) {
    if (seen.has(name)) throw new InputError(`${file}: header names column "${name}" twice`)
    seen.add(name)
  }
  return { columns: header, rows }
}

interface RaggedRow {
  line: number
  dataRow: number
  got: number
  expected: number
}

/**
 * Finds the first record whose length differs from the header's, with the line it starts on.
 * csv-parse counts a CRLF inside a quoted field as two lines, so lines are counted here from byte offsets.
 */
function locateRaggedRow(body: string): RaggedRow | undefined {
  let records: { record: string[]; info: { bytes: number } }[]
  try {
    records = parse(body, {
      relax_column_count: true,
      info: true,
      record_delimiter: RECORD_DELIMITERS,
    }) as unknown as typeof records
  } catch {
    return undefined
  }
  const expected = records[0]?.record.length ?? 0
  const k = records.findIndex((r) => r.record.length !== expected)
  if (k < 1) return undefined
  const start = records[k - 1]!.info.bytes
  const bytes = Buffer.from(body, 'utf8')
  let line = 1
  for (let i = 0; i < start && i < bytes.length; i++) if (bytes[i] === 0x0a) line++
  return { line, dataRow: k - 1, got: records[k]!.record.length, expected }
}

function csvInputError(error: CsvParseError, body: string, file: string): InputError {
  const line = error.lines
  switch (error.code) {
    case 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH': {
      const ragged = locateRaggedRow(body)
      if (!ragged) return new InputError(`${file}: line ${line} has a different number of fields than the header`)
      return new InputError(
        `${file}: line ${ragged.line} (data row ${ragged.dataRow}) has ${ragged.got} fields but the header has ${ragged.expected}`,
      )
    }
    case 'CSV_QUOTE_NOT_CLOSED':
      return new InputError(`${file}: a quoted field opened before line ${line} is never closed`)
    case 'CSV_INVALID_CLOSING_QUOTE':
      return new InputError(
        `${file}: line ${line} has text right after a closing quote (quotes inside a field must be doubled)`,
      )
    default:
      return new InputError(`${file}: not valid CSV${line === undefined ? '' : ` at line ${line}`}: ${error.message}`)
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true })

/** Reads and parses a CSV file; the digest is over the bytes exactly as read. */
export async function readCsvTable(path: string): Promise<{ table: Table; digest: FileDigest }> {
  let bytes: Buffer
  try {
    // A FIFO or device would block or never end; only regular files are data.
    const info = await stat(path)
    if (!info.isFile() && !info.isDirectory())
      throw new InputError(`${path} is not a regular file (a FIFO, device or socket); give a CSV file`)
    bytes = await readFile(path)
  } catch (error) {
    if (error instanceof InputError) throw error
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') throw new InputError(`${path} does not exist`)
    if (code === 'EISDIR') throw new InputError(`${path} is a folder, expected a CSV file`)
    throw new InputError(`cannot read ${path}: ${(error as Error).message}`)
  }
  let text: string
  try {
    text = utf8.decode(bytes)
  } catch {
    throw new InputError(`${path} is not valid UTF-8 text`)
  }
  const table = parseCsvStrict(text, path)
  return { table, digest: { path, sha256: sha256Hex(bytes), bytes: bytes.length, of: 'file-bytes' } }
}

const NEEDS_QUOTES = /[",\r\n]/

/** One CSV field, quoted (RFC 4180) when it holds a quote, comma or line break. */
export function csvField(value: string): string {
  return NEEDS_QUOTES.test(value) ? '"' + value.replaceAll('"', '""') + '"' : value
}

function csvLine(cells: readonly string[]): string {
  // A lone empty cell would make a blank line, which CSV readers may skip.
  if (cells.length === 1 && cells[0] === '') return '""'
  // Plain concatenation: Array#join has no fast path for frozen arrays, and task rows are frozen.
  let line = ''
  for (let j = 0; j < cells.length; j++) {
    const field = csvField(cells[j]!)
    line = j === 0 ? field : line + ',' + field
  }
  return line
}

/** Calls `write` with the CSV text (LF line endings, header first) in chunks of many lines. */
export function writeCsvChunks(table: Table, write: (chunk: string) => void, linesPerChunk = 4096): void {
  let lines: string[] = [csvLine(table.columns)]
  for (const row of table.rows) {
    lines.push(csvLine(row))
    if (lines.length >= linesPerChunk) {
      write(lines.join('\n') + '\n')
      lines = []
    }
  }
  if (lines.length > 0) write(lines.join('\n') + '\n')
}

/** Serializes a table as CSV (LF line endings, RFC 4180 quoting); `parseCsvStrict` reads it back unchanged. */
export function toCsv(table: Table): string {
  const parts: string[] = []
  writeCsvChunks(table, (chunk) => parts.push(chunk))
  return parts.join('')
}
