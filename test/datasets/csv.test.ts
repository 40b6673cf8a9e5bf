import { createHash } from 'node:crypto'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { InputError } from '../../src/core/errors.js'
import type { Table } from '../../src/core/schemas.js'
import { csvDigest, csvDigestPair, parseCsvStrict, readCsvTable, toCsv } from '../../src/datasets/index.js'
import { fixturesDir, tempDir } from '../helpers/dataset-paths.js'

function errorOf(fn: () => unknown): Error {
  try {
    fn()
  } catch (error) {
    return error as Error
  }
  throw new Error('expected an error')
}

describe('parseCsvStrict', () => {
  it('keeps every value as a literal string: no casting, trimming or NA guessing', () => {
    const table = parseCsvStrict('a,b,c,d,e\n007, x ,N/A,,NULL\nTRUE,1e3,empty,{NULL},-0\n', 'f.csv')
    expect(table).toEqual({
      columns: ['a', 'b', 'c', 'd', 'e'],
      rows: [
        ['007', ' x ', 'N/A', '', 'NULL'],
        ['TRUE', '1e3', 'empty', '{NULL}', '-0'],
      ],
    })
  })

  it('drops a UTF-8 BOM and reads CRLF line endings', () => {
    const table = parseCsvStrict('\ufeffid,name\r\n1,Ann\r\n2,Bo\r\n', 'bom.csv')
    expect(table.columns).toEqual(['id', 'name'])
    expect(table.rows).toEqual([
      ['1', 'Ann'],
      ['2', 'Bo'],
    ])
  })

  it('reads quoted fields holding commas, doubled quotes and newlines', () => {
    const table = parseCsvStrict('k,v\n1,"a, b"\n2,"say ""hi"""\n3,"two\nlines"\n4,"crlf\r\ninside"\n', 'q.csv')
    expect(table.rows.map((r) => r[1])).toEqual(['a, b', 'say "hi"', 'two\nlines', 'crlf\r\ninside'])
  })

  it('reads a last line without a trailing newline', () => {
    expect(parseCsvStrict('a,b\n1,2', 'x.csv').rows).toEqual([['1', '2']])
  })

  it('gives a header-only file as a table with no rows', () => {
    expect(parseCsvStrict('a,b,c\n', 'h.csv')).toEqual({ columns: ['a', 'b', 'c'], rows: [] })
  })

  it('rejects an empty file (or one holding only a BOM) naming the file', () => {
    for (const text of ['', '\ufeff']) {
      const error = errorOf(() => parseCsvStrict(text, 'empty.csv'))
      expect(error).toBeInstanceOf(InputError)
      expect(error.message).toBe('empty.csv is empty: expected a header line followed by data rows')
    }
  })

  it('names file, line and data row of a ragged row', () => {
    const short = errorOf(() => parseCsvStrict('a,b,c\n1,2,3\n4,5\n', 'r.csv'))
    expect(short).toBeInstanceOf(InputError)
    expect(short.message).toBe('r.csv: line 3 (data row 1) has 2 fields but the header has 3')
    const long = errorOf(() => parseCsvStrict('a,b\r\n1,"x\r\ny"\r\n3,4,5\r\n', 'l.csv'))
    expect(long.message).toBe('l.csv: line 4 (data row 1) has 3 fields but the header has 2')
  })

  it('rejects a blank line inside a multi-column file as a ragged row', () => {
    const error = errorOf(() => parseCsvStrict('a,b\n1,2\n\n3,4\n', 'blank.csv'))
    expect(error.message).toBe('blank.csv: line 3 (data row 1) has 1 fields but the header has 2')
  })

  it('names the file for broken quoting', () => {
    const open = errorOf(() => parseCsvStrict('a,b\n1,"2\n', 'open.csv'))
    expect(open).toBeInstanceOf(InputError)
    expect(open.message).toMatch(/^open\.csv: a quoted field opened before line 2 is never closed$/)
    const stray = errorOf(() => parseCsvStrict('a,b\n1,"2"x\n', 'stray.csv'))
    expect(stray.message).toMatch(/^stray\.csv: line 2 has text right after a closing quote/)
  })

  it('rejects a header that names a column twice', () => {
    const error = errorOf(() => parseCsvStrict('a,b,a\n1,2,3\n', 'dup.csv'))
    expect(error).toBeInstanceOf(InputError)
    expect(error.message).toBe('dup.csv: header names column "a" twice')
  })
})

describe('readCsvTable', () => {
  let dir: string
  let cleanup: () => Promise<void>
  beforeAll(async () => {
    ;({ dir, cleanup } = await tempDir())
  })
  afterAll(() => cleanup())

  it('digests the bytes exactly as read (BOM and CRLF included)', async () => {
    const bytes = Buffer.from('\ufeffa,b\r\n1,"x,y"\r\n', 'utf8')
    const path = join(dir, 'bom-crlf.csv')
    await writeFile(path, bytes)
    const { table, digest } = await readCsvTable(path)
    expect(table).toEqual({ columns: ['a', 'b'], rows: [['1', 'x,y']] })
    expect(digest).toEqual({
      path,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      bytes: bytes.length,
      of: 'file-bytes',
    })
  })

  it('says which file is missing, a folder or not UTF-8', async () => {
    const missing = join(dir, 'nope.csv')
    await expect(readCsvTable(missing)).rejects.toThrow(new InputError(`${missing} does not exist`))
    await expect(readCsvTable(dir)).rejects.toThrow(new InputError(`${dir} is a folder, expected a CSV file`))
    const latin1 = join(dir, 'latin1.csv')
    await writeFile(latin1, Buffer.from([0x61, 0x0a, 0xe9, 0x0a]))
    await expect(readCsvTable(latin1)).rejects.toThrow(new InputError(`${latin1} is not valid UTF-8 text`))
  })

  it('names the fixture file and line of a ragged row (CRLF file)', async () => {
    const path = join(fixturesDir, 'ragged.csv')
    await expect(readCsvTable(path)).rejects.toThrow(`${path}: line 4 (data row 2) has 2 fields but the header has 3`)
  })
})

describe('toCsv', () => {
  const tricky: Table = {
    columns: ['id', 'text, with comma', 'q"uote'],
    rows: [
      ['1', 'plain', ''],
      ['2', 'a, b', 'say "hi"'],
      ['3', 'line\nbreak', 'crlf\r\nbreak'],
      ['4', ' padded ', 'N/A'],
    ],
  }

  it('round-trips through parseCsvStrict unchanged', () => {
    expect(parseCsvStrict(toCsv(tricky), 'roundtrip.csv')).toEqual(tricky)
  })

  it('writes LF line endings with a trailing newline and quotes only where needed', () => {
    expect(toCsv({ columns: ['a', 'b'], rows: [['1', 'x y']] })).toBe('a,b\n1,x y\n')
    expect(toCsv({ columns: ['a'], rows: [[''], ['x']] })).toBe('a\n""\nx\n')
  })

  it('round-trips a single-column table holding empty strings', () => {
    const table: Table = { columns: ['only'], rows: [[''], ['v'], ['']] }
    expect(parseCsvStrict(toCsv(table), 'one.csv')).toEqual(table)
  })

  it('csvDigest equals the sha256 and UTF-8 byte length of toCsv, across chunk boundaries', () => {
    const rows = Array.from({ length: 9000 }, (_, i) => [String(i), `café ${i}`, i % 7 === 0 ? 'a,"b"' : 'x'])
    const table: Table = { columns: ['i', 'name', 'v'], rows }
    const text = toCsv(table)
    expect(csvDigest(table)).toEqual({
      sha256: createHash('sha256').update(text, 'utf8').digest('hex'),
      bytes: Buffer.byteLength(text, 'utf8'),
      of: 'csv-serialization',
    })
  })

  it('csvDigest handles lines longer than its buffer and multi-byte text', () => {
    const table: Table = {
      columns: ['a', 'b'],
      rows: [
        ['x', 'é'.repeat(400_000)],
        ['y', '€,"'.repeat(200_000)],
        ['z', 'ok'],
      ],
    }
    const text = toCsv(table)
    expect(csvDigest(table)).toEqual({
      sha256: createHash('sha256').update(text, 'utf8').digest('hex'),
      bytes: Buffer.byteLength(text, 'utf8'),
      of: 'csv-serialization',
    })
  })

  it('csvDigestPair equals two csvDigest calls, with shared rows, distinct rows and unequal lengths', () => {
    const shared = Array.from({ length: 5000 }, (_, i) => [String(i), i % 3 === 0 ? 'x,y' : 'plain'])
    const a: Table = { columns: ['i', 'v'], rows: shared }
    const b: Table = { columns: ['i', 'v'], rows: shared.map((row, i) => (i % 10 === 0 ? [row[0]!, 'changed'] : row)) }
    expect(csvDigestPair(a, b)).toEqual([csvDigest(a), csvDigest(b)])
    expect(csvDigestPair(a, b)[0]).not.toEqual(csvDigestPair(a, b)[1])
    const short: Table = { columns: ['i', 'v'], rows: shared.slice(0, 10) }
    expect(csvDigestPair(a, short)).toEqual([csvDigest(a), csvDigest(short)])
  })

  it('csvDigestPair equals the sha256 of toCsv for every kind of field, with shared rows across buffer flushes', () => {
    const kinds = [
      'plain',
      '',
      'a,b',
      'say "hi"',
      'two\nlines',
      'cr\ronly',
      'crlf\r\n',
      'café',
      '€',
      '😀',
      '\ud800',
      'x'.repeat(5000),
    ]
    const shared = Array.from({ length: 3000 }, (_, i) => [
      String(i),
      kinds[i % kinds.length]!,
      kinds[(i * 7) % kinds.length]!,
    ])
    const a: Table = { columns: ['i', 'v', 'w,"q"'], rows: shared }
    const b: Table = {
      columns: ['i', 'v', 'w,"q"'],
      rows: shared.map((row, i) => (i % 5 === 0 ? [row[0]!, 'changed', '€'] : row)),
    }
    const lone: Table = { columns: ['only'], rows: [[''], ['v'], ['']] }
    const huge: Table = {
      columns: ['a', 'b'],
      rows: [
        ['1', 'y'.repeat(400_000)],
        ['2', 'é,'.repeat(300_000)],
        ['3', ''],
      ],
    }
    for (const [x, y] of [
      [a, b],
      [lone, lone],
      [huge, huge],
    ] as const) {
      const digests = csvDigestPair(x, y)
      for (const [table, digest] of [
        [x, digests[0]],
        [y, digests[1]],
      ] as const) {
        const text = toCsv(table)
        expect(digest).toEqual({
          sha256: createHash('sha256').update(text, 'utf8').digest('hex'),
          bytes: Buffer.byteLength(text, 'utf8'),
          of: 'csv-serialization',
        })
      }
    }
  })
})
