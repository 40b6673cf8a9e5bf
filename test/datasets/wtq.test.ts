import { cp, mkdir, writeFile } from 'node:fs/promises'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { parseWtqCsv } from '../../src/datasets/wtq/table-csv.js'
import { loadWtq } from '../../src/datasets/wtq/load.js'
import { tsvUnescape, tsvUnescapeList } from '../../src/datasets/wtq/tsv.js'
import { normalizeWtq, toWtqValue, wtqAnswer } from '../../src/grading/answers/wtq.js'
import { InputError } from '../../src/core/errors.js'
import { bundledDatasets, rejectionOf, tempDir } from '../helpers/dataset-paths.js'

const WTQ = join(bundledDatasets, 'wtq')

describe('WikiTableQuestions TSV escapes', () => {
  it("undoes \\n, \\p and \\\\ in the evaluator's order", () => {
    expect(tsvUnescape('a\\nb')).toBe('a\nb')
    expect(tsvUnescape('x\\py')).toBe('x|y')
    expect(tsvUnescape('back\\\\slash')).toBe('back\\slash')
    expect(tsvUnescapeList('2004|2005|2006')).toEqual(['2004', '2005', '2006'])
    expect(tsvUnescapeList('a\\pb|c')).toEqual(['a|b', 'c'])
  })
})

describe('WikiTableQuestions tables', () => {
  it('reads backslash-escaped quotes, which an RFC 4180 parser misreads (csv/203-csv/733.csv)', () => {
    const table = parseWtqCsv(readFileSync(join(WTQ, 'csv/203-csv/733.csv'), 'utf8'), '733.csv')
    expect(table.columns[4]).toBe('UCI ProTour\nPoints')
    expect(table.rows[0]).toEqual(['1', 'Alejandro Valverde (ESP)', "Caisse d'Epargne", '5h 29\' 10"', '40'])
    expect(table.rows[7]![3]).toBe('+ 2"')
    expect(table.rows.every((r) => r.length === table.columns.length)).toBe(true)
  })

  it('keeps quoted newlines and names the file and row of a ragged table', () => {
    expect(parseWtqCsv('"a\nb",c\n1,2\n', 't.csv')).toEqual({ columns: ['a\nb', 'c'], rows: [['1', '2']] })
    expect(() => parseWtqCsv('a,b\n1,2,3\n', 't.csv')).toThrow('t.csv:2: row 1 has 3 cells, the header has 2')
  })
})

describe('loadWtq', () => {
  it('loads the bundled 200-question slice with canonical targets and multi-answer targets', async () => {
    const examples = await loadWtq()
    expect(examples).toHaveLength(200)
    const byId = new Map(examples.map((e) => [e.id, e]))
    expect(byId.get('nu-1')!.targetValue).toEqual(['100,000'])
    expect(byId.get('nu-1')!.targetCanon).toEqual(['100000.0'])
    expect(byId.get('nu-97')!.targetCanon).toEqual(['2011-10-xx'])
    expect(byId.get('nu-10')!.targetValue).toEqual(['2004', '2005', '2006'])
    expect(examples.filter((e) => e.targetValue.length > 1)).toHaveLength(4)
    expect(new Set(examples.map((e) => e.context)).size).toBe(160)
  })

  it('--limit N --seed S: a deterministic sample in file order', async () => {
    const a = (await loadWtq({ limit: 10, seed: 3 })).map((e) => e.id)
    expect(a).toHaveLength(10)
    expect((await loadWtq({ limit: 10, seed: 3 })).map((e) => e.id)).toEqual(a)
    expect((await loadWtq({ limit: 10, seed: 4 })).map((e) => e.id)).not.toEqual(a)
    const order = (id: string) => Number(id.slice(3))
    expect([...a].sort((x, y) => order(x) - order(y))).toEqual(a)
  })

  const temps: Array<() => Promise<void>> = []
  afterAll(async () => {
    for (const cleanup of temps) await cleanup()
  })

  it('--data-dir reads the full release layout (data/*.tsv, csv/, tagged/data/)', async () => {
    const { dir, cleanup } = await tempDir('wtq-release-')
    temps.push(cleanup)
    await mkdir(join(dir, 'data'))
    await mkdir(join(dir, 'tagged/data'), { recursive: true })
    await cp(join(WTQ, 'csv'), join(dir, 'csv'), { recursive: true })
    await cp(join(WTQ, 'pristine-unseen-tables.head200.tsv'), join(dir, 'data/pristine-unseen-tables.tsv'))
    await cp(join(WTQ, 'pristine-unseen-tables.head200.tagged'), join(dir, 'tagged/data/pristine-unseen-tables.tagged'))
    const examples = await loadWtq({ dataDir: dir })
    expect(examples).toHaveLength(200)
    expect(examples[1]!.targetCanon).toEqual(['100000.0'])
  })

  it('a release without the tagged file still loads (no canonical targets); a missing table is named', async () => {
    const { dir, cleanup } = await tempDir('wtq-release-')
    temps.push(cleanup)
    await mkdir(join(dir, 'data'))
    await writeFile(
      join(dir, 'data/pristine-unseen-tables.tsv'),
      'id\tutterance\tcontext\ttargetValue\nx-1\thow many?\tcsv/1-csv/1.csv\t3\n',
    )
    const error = await rejectionOf(loadWtq({ dataDir: dir }))
    expect(error).toBeInstanceOf(InputError)
    expect(error.message).toMatch(/pristine-unseen-tables\.tsv:2: table csv\/1-csv\/1\.csv not found/)
    await mkdir(join(dir, 'csv/1-csv'), { recursive: true })
    await writeFile(join(dir, 'csv/1-csv/1.csv'), 'a,b\n1,2\n')
    const [example] = await loadWtq({ dataDir: dir })
    expect(example!.targetCanon).toBeUndefined()
    expect(example!.table).toEqual({ columns: ['a', 'b'], rows: [['1', '2']] })
  })
})

describe("wtqAnswer: the official evaluator's rules", () => {
  const grade = (values: string[], canon: string[] | undefined, value: unknown) =>
    wtqAnswer({ values, ...(canon ? { canon } : {}) })({ value: value as string }).passed

  it('normalization: diacritics, smart quotes and dashes, citations, parenthesized details, outer quotes, final period, case, spaces', () => {
    expect(normalizeWtq('Mariesea Mnesiču')).toBe('mariesea mnesicu')
    expect(normalizeWtq('“Hello” – world')).toBe('"hello" - world')
    expect(normalizeWtq('Italy[1]†')).toBe('italy')
    expect(normalizeWtq('Paris (France)')).toBe('paris')
    expect(normalizeWtq('"quoted"')).toBe('quoted')
    expect(normalizeWtq('  Done.  ')).toBe('done')
    expect(normalizeWtq('A   B')).toBe('a b')
  })

  it('numbers: nu-1 targets 100,000 with canon 100000.0', () => {
    for (const p of ['100000', '100,000', 100000, '100000.0', '1e5'])
      expect(grade(['100,000'], ['100000.0'], p), String(p)).toBe(true)
    expect(grade(['100,000'], ['100000.0'], '100001')).toBe(false)
    // Without the canonical form, "100,000" is a string: only the normalized string matches.
    expect(grade(['100,000'], undefined, '100000')).toBe(false)
    expect(grade(['100,000'], undefined, '100,000')).toBe(true)
  })

  it('dates: nu-97 targets October 2011 with canon 2011-10-xx; xx only matches xx', () => {
    expect(grade(['October 2011'], ['2011-10-xx'], '2011-10-xx')).toBe(true)
    expect(grade(['October 2011'], ['2011-10-xx'], 'october 2011')).toBe(true)
    expect(grade(['October 2011'], ['2011-10-xx'], '2011-10-01')).toBe(false)
    expect(grade(['October 17'], ['xxxx-10-17'], 'xx-10-17')).toBe(true)
    // A year alone is a number.
    expect(toWtqValue('1990', '1990-xx-xx')).toMatchObject({ type: 'number', amount: 1990 })
  })

  it('lists are sets: nu-10 (2004|2005|2006) in any order, all required, duplicates collapse', () => {
    const t = ['2004', '2005', '2006']
    expect(grade(t, ['2004.0', '2005.0', '2006.0'], ['2006', '2004', '2005'])).toBe(true)
    expect(grade(t, ['2004.0', '2005.0', '2006.0'], ['2004', '2005'])).toBe(false)
    expect(grade(t, ['2004.0', '2005.0', '2006.0'], ['2004', '2005', '2006', '2006'])).toBe(true)
    expect(grade(t, ['2004.0', '2005.0', '2006.0'], ['2004', '2005', '2006', '2007'])).toBe(false)
  })

  it('reads prose after "Answer:" split on |, one-column tables, and fails refusals', () => {
    const g = wtqAnswer({ values: ['Chile', 'Ecuador'] })
    expect(g({ text: 'Looking at the table… Answer: Ecuador | Chile' }).passed).toBe(true)
    expect(g({ value: { columns: ['nation'], rows: [['Chile'], ['Ecuador']] } }).passed).toBe(true)
    expect(g({ refused: true }).passed).toBe(false)
    expect(g({ value: 'Chile' }).detail).toMatch(/1 distinct item\(s\) for 2/)
  })
})
