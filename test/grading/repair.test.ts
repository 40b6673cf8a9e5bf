import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { DatasetInfo } from '../../src/core/dataset-info.js'
import { InputError } from '../../src/core/errors.js'
import {
  type Correction,
  createTask,
  diffTables,
  type GroundTruth,
  groundTruthOf,
} from '../../src/core/ground-truth.js'
import { RepairScoreSchema } from '../../src/core/repair-score.js'
import type { Table } from '../../src/core/schemas.js'
import { loadDataset } from '../../src/datasets/index.js'
import {
  comparatorByName,
  exactComparator,
  gradeAgainstTruth,
  gradeRepair,
  prf,
  rahaComparator,
} from '../../src/grading/index.js'

function info(table: Table, dirtyCells: number): DatasetInfo {
  return {
    id: 'unit',
    origin: 'csv-pair',
    source: 'test',
    rows: table.rows.length,
    columns: table.columns.length,
    columnNames: table.columns,
    dirtyCells,
    idColumns: ['id'],
    dirty: { sha256: 'x', bytes: 0 },
    clean: { sha256: 'y', bytes: 0 },
  }
}

function pair(dirty: Table, clean: Table, kinds: Record<string, string> = {}) {
  const corrections: Correction[] = diffTables(dirty, clean, new Set(['id'])).map((c) => {
    const kind = kinds[`${c.row}:${c.column}`]
    return kind ? { ...c, kind } : c
  })
  const truth: GroundTruth = { corrections, dataset: info(dirty, corrections.length) }
  const task = createTask({ name: 'unit', dirty, seed: 1 }, truth)
  return { task, truth }
}

// 4 rows; errors at (0, city), (1, state), (2, city), (3, zip)
const dirty: Table = {
  columns: ['id', 'city', 'state', 'zip'],
  rows: [
    ['1', 'Berlinn', 'BE', '10115'],
    ['2', 'Hamburg', 'H', '20095'],
    ['3', 'Munich', 'BY', '80331'],
    ['4', 'Köln', 'NW', '5O667'],
  ],
}
const clean: Table = {
  columns: ['id', 'city', 'state', 'zip'],
  rows: [
    ['1', 'Berlin', 'BE', '10115'],
    ['2', 'Hamburg', 'HH', '20095'],
    ['3', 'München', 'BY', '80331'],
    ['4', 'Köln', 'NW', '50667'],
  ],
}
const kinds = { '0:city': 'typo', '1:state': 'truncation', '2:city': 'typo', '3:zip': 'ocr' }

describe('prf and the empty cases', () => {
  it('uses the usual formulas', () => {
    const r = prf(3, 1, 2)
    expect(r.precision).toBeCloseTo(0.75)
    expect(r.recall).toBeCloseTo(0.6)
    expect(r.f1).toBeCloseTo((2 * 0.75 * 0.6) / 1.35)
    expect(r).toMatchObject({ tp: 3, fp: 1, fn: 2 })
  })
  it('nothing to do and nothing done is perfect', () => {
    expect(prf(0, 0, 0)).toEqual({ tp: 0, fp: 0, fn: 0, precision: 1, recall: 1, f1: 1 })
  })
  it('no claims with errors present: P = 1, R = 0, F1 = 0', () => {
    expect(prf(0, 0, 5)).toEqual({ tp: 0, fp: 0, fn: 5, precision: 1, recall: 0, f1: 0 })
  })
  it('claims with no errors present: P = 0, R = 1, F1 = 0', () => {
    expect(prf(0, 4, 0)).toEqual({ tp: 0, fp: 4, fn: 0, precision: 0, recall: 1, f1: 0 })
  })
  it('all wrong with errors present is all zero', () => {
    expect(prf(0, 2, 3)).toMatchObject({ precision: 0, recall: 0, f1: 0 })
  })
  it('rejects non-integer counts', () => {
    expect(() => prf(1.5, 0, 0)).toThrow(RangeError)
    expect(() => prf(0, -1, 0)).toThrow(/fp/)
  })
})

describe('comparators', () => {
  it('exact trims trailing whitespace only', () => {
    expect(exactComparator.name).toBe('exact')
    expect(exactComparator.normalize('Berlin \n\t')).toBe('Berlin')
    expect(exactComparator.normalize('  Berlin')).toBe('  Berlin')
    expect(exactComparator.normalize('a  b')).toBe('a  b')
    expect(exactComparator.normalize('A&amp;B')).toBe('A&amp;B')
  })
  it('raha is Python html.unescape, then Raha whitespace rules (expectations derived from Python)', () => {
    // Every expected value below is the output of Raha's normalizer run in CPython 3.11:
    //   def raha(v):
    //       v = html.unescape(v)
    //       v = re.sub("[\t\n ]+", " ", v, re.UNICODE)   # re.UNICODE (32) lands in `count`
    //       return v.strip("\t\n ")
    // printed with json.dumps(raha(case)); none was taken from this implementation.
    const n = rahaComparator.normalize
    expect(rahaComparator.name).toBe('raha')
    const derived: Array<[string, string]> = [
      ['  Smith &amp; Sons\t\n Ltd  ', 'Smith & Sons Ltd'],
      ['caf&eacute;', 'caf\u00e9'],
      ['caf&eacute', 'caf\u00e9'], // legacy names decode without ';'
      ['&eacutefoo', '\u00e9foo'],
      ['&notit; &notin;', '\u00acit; \u2209'], // longest legacy prefix
      ['&amp;lt;', '&lt;'], // one pass
      ['&lt&gt', '<>'],
      ['&copy2019', '\u00a92019'],
      ['&#233;t&#xE9; &#X41; &#65', '\u00e9t\u00e9 A A'],
      ['&#0; &#xD800; &#x110000; &#99999999999;', '\ufffd \ufffd \ufffd \ufffd'],
      ['&#128;&#x9f;&#x81;', '\u20ac\u0178\u0081'], // windows-1252 table
      ['a&#1;b&#11;c&#x7f;d&#xfffe;e&#xfdd0;f', 'abcdef'], // controls and noncharacters dropped
      ['&#13;', '\r'],
      ['&NotNestedGreaterGreater;', '\u2aa2\u0338'],
      ['&ThickSpace;', '\u205f\u200a'],
      ['&bogus; AT&T &; &#; &#x;', '&bogus; AT&T &; &#; &#x;'],
      ['a&nbsp;&nbsp;b', 'a\u00a0\u00a0b'], // no-break space is not Raha whitespace
      ['a\u2003\u2003b', 'a\u2003\u2003b'],
      ['\u00a0pad\u00a0', '\u00a0pad\u00a0'],
      ['x\r\ny', 'x\r y'],
      ['\t\n a \t\n b \n\t', 'a b'],
      ['a\fb', 'a\fb'],
      ['a\u000bb', 'a\u000bb'],
    ]
    for (const [input, want] of derived) expect(n(input), JSON.stringify(input)).toBe(want)
    // 40 runs of two spaces: Python collapses the first 32 (count=32); 8 double spaces remain, the last stripped.
    const many = n('a  '.repeat(40))
    expect(many.split('  ').length - 1).toBe(7)
    expect(many.startsWith('a a ')).toBe(true)
  })
  it('looks comparators up by name and rejects unknown ones with an InputError', () => {
    expect(comparatorByName('exact')).toBe(exactComparator)
    expect(comparatorByName('raha')).toBe(rahaComparator)
    expect(() => comparatorByName('fuzzy')).toThrow(InputError)
    expect(() => comparatorByName('fuzzy')).toThrow(/"fuzzy".*exact, raha/)
  })
})

describe('gradeRepair', () => {
  it('scores true positives, missed repairs and per-kind recall', () => {
    const { task } = pair(dirty, clean, kinds)
    const score = gradeRepair(task, [
      { row: 0, column: 'city', newValue: 'Berlin', reason: 'typo' },
      { row: 1, column: 'state', newValue: 'HH' },
    ])
    expect(score).toMatchObject({ tp: 2, fp: 0, fn: 2, precision: 1, recall: 0.5, comparator: 'exact' })
    expect(score.f1).toBeCloseTo(2 / 3)
    expect(score.diagnostics.missedRepair).toEqual([
      { row: 2, column: 'city', want: 'München', dirty: 'Munich' },
      { row: 3, column: 'zip', want: '50667', dirty: '5O667' },
    ])
    expect(score.perKind).toEqual({
      ocr: { total: 1, tp: 0, recall: 0 },
      truncation: { total: 1, tp: 1, recall: 1 },
      typo: { total: 2, tp: 1, recall: 0.5 },
    })
    expect(Object.keys(score.perKind)).toEqual(['ocr', 'truncation', 'typo'])
    expect(RepairScoreSchema.parse(score)).toEqual(score)
  })

  it('accepts an AgentRunResult and forgives trailing whitespace under the default comparator', () => {
    const { task } = pair(dirty, clean)
    const score = gradeRepair(task, { fixes: [{ row: 3, column: 'zip', newValue: '50667\n' }], usage: { calls: 1 } })
    expect(score.tp).toBe(1)
    const leading = gradeRepair(task, [{ row: 3, column: 'zip', newValue: ' 50667' }])
    expect(leading.tp).toBe(0)
    expect(leading.diagnostics.wrongValue).toHaveLength(1)
  })

  it('throws a TypeError for output that is not a list of fixes', () => {
    const { task } = pair(dirty, clean)
    expect(() => gradeRepair(task, 'fixed it')).toThrow(TypeError)
    expect(() => gradeRepair(task, null)).toThrow(/array of fixes/)
    expect(() => gradeRepair(task, { fixes: 'none' })).toThrow(/"fixes" of type a string/)
    expect(() => gradeRepair(task, { changes: [] })).toThrow(/no "fixes" key/)
  })

  it('lets the last write win and counts the overwritten fixes', () => {
    const { task } = pair(dirty, clean)
    const score = gradeRepair(task, [
      { row: 0, column: 'city', newValue: 'Berln' },
      { row: 0, column: 'city', newValue: 'Berlin' },
      { row: 2, column: 'city', newValue: 'München' },
      { row: 2, column: 'city', newValue: 'Munchen' },
    ])
    expect(score.diagnostics.duplicateCells).toBe(2)
    expect(score.tp).toBe(1)
    expect(score.diagnostics.wrongValue).toEqual([
      { row: 2, column: 'city', got: 'Munchen', want: 'München', dirty: 'Munich' },
    ])
    expect(score.fixes).toEqual([
      { row: 0, column: 'city', newValue: 'Berlin' },
      { row: 2, column: 'city', newValue: 'Munchen' },
    ])
    expect(score.warnings.some((w) => w.includes('last write wins'))).toBe(true)
  })

  it('counts a wrong value on a right cell as one FP and one FN, and detection as a hit', () => {
    const { task } = pair(dirty, clean)
    const score = gradeRepair(task, [{ row: 1, column: 'state', newValue: 'HB' }])
    expect(score).toMatchObject({ tp: 0, fp: 1, fn: 4 })
    expect(score.diagnostics.wrongValue).toEqual([{ row: 1, column: 'state', got: 'HB', want: 'HH', dirty: 'H' }])
    expect(score.detection).toMatchObject({ tp: 1, fp: 0, fn: 3 })
    expect(score.perColumn['state']).toMatchObject({ tp: 0, fp: 1, fn: 1 })
  })

  it('lists fixes to unknown columns and out-of-range rows, and case-insensitive column matches', () => {
    const { task } = pair(dirty, clean)
    const score = gradeRepair(task, [
      { row: 0, column: 'City', newValue: 'Berlin' },
      { row: 9, column: 'city', newValue: 'x' },
      { row: -1, column: 'city', newValue: 'x' },
      { row: 0, column: 'country', newValue: 'DE' },
      { row: 2, column: 'CITY', newValue: 'München' },
    ])
    expect(score).toMatchObject({ tp: 0, fp: 5, fn: 4 })
    expect(score.diagnostics.wrongCell).toEqual([
      { row: 0, column: 'City', got: 'Berlin' },
      { row: 9, column: 'city', got: 'x' },
      { row: -1, column: 'city', got: 'x' },
      { row: 0, column: 'country', got: 'DE' },
      { row: 2, column: 'CITY', got: 'München' },
    ])
    expect(score.diagnostics.caseInsensitiveColumn).toEqual([
      { row: 0, column: 'City', got: 'Berlin' },
      { row: 2, column: 'CITY', got: 'München' },
    ])
    expect(score.warnings.join('\n')).toMatch(/column "City" matches "city" only case-insensitively: 1 fix/)
    expect(score.detection).toMatchObject({ tp: 0, fp: 5, fn: 4 })
    expect(score.fixes).toEqual([])
    // wrong cells belong to no canonical column
    expect(score.perColumn['city']).toMatchObject({ tp: 0, fp: 0, fn: 2 })
  })

  it('treats a change to an id column as an ordinary over-repair', () => {
    const { task } = pair(dirty, clean)
    const score = gradeRepair(task, [{ row: 0, column: 'id', newValue: '100' }])
    expect(score.diagnostics.overRepair).toEqual([{ row: 0, column: 'id', got: '100', dirty: '1' }])
    expect(score.fp).toBe(1)
    expect(score.perColumn['id']).toMatchObject({ tp: 0, fp: 1, fn: 0, precision: 0, recall: 1, f1: 0 })
  })

  it('counts malformed items as false positives with a description naming the index, never crashing', () => {
    const { task } = pair(dirty, clean)
    const score = gradeRepair(task, [
      'row 0 city Berlin',
      null,
      { row: 0, column: 'city' },
      { row: 0.5, column: 'city', newValue: 'Berlin' },
      { row: '0', column: 'city', newValue: 'Berlin' },
      { row: 3, column: 'zip', newValue: 50667 },
      { row: 3, column: 7, newValue: '50667' },
      [0, 'city', 'Berlin'],
      { row: 0, column: 'city', newValue: 'Berlin' },
    ])
    expect(score.diagnostics.malformed).toEqual([
      'fix #0: not an object (a string)',
      'fix #1: not an object (null)',
      'fix #2: missing "newValue"',
      'fix #3: "row" must be an integer, got the number 0.5',
      'fix #4: "row" must be an integer, got a string "0"',
      'fix #5: "newValue" must be a string, got the number 50667',
      'fix #6: "column" must be a string, got the number 7',
      'fix #7: not an object (an array)',
    ])
    expect(score).toMatchObject({ tp: 1, fp: 8, fn: 3 })
    expect(score.detection.fp).toBe(8)
    expect(score.warnings[0]).toMatch(/^8 malformed fix item\(s\) counted as false positives; first: fix #0/)
  })

  it('does not score a no-op on a clean cell, but counts it as a wrong value on an error cell', () => {
    const { task } = pair(dirty, clean)
    const score = gradeRepair(task, [
      { row: 0, column: 'state', newValue: 'BE' },
      { row: 2, column: 'zip', newValue: '80331 ' },
      { row: 3, column: 'zip', newValue: '5O667' },
    ])
    expect(score.diagnostics.noopFixes).toBe(2)
    expect(score.diagnostics.overRepair).toEqual([])
    expect(score.diagnostics.wrongValue).toEqual([
      { row: 3, column: 'zip', got: '5O667', want: '50667', dirty: '5O667' },
    ])
    expect(score).toMatchObject({ tp: 0, fp: 1, fn: 4 })
    expect(score.fixes).toEqual([{ row: 3, column: 'zip', newValue: '5O667' }])
  })

  it('applies the documented empty cases', () => {
    const same = pair(clean, clean)
    expect(gradeRepair(same.task, [])).toMatchObject({ tp: 0, fp: 0, fn: 0, precision: 1, recall: 1, f1: 1 })
    expect(gradeRepair(same.task, [{ row: 0, column: 'city', newValue: 'Bonn' }])).toMatchObject({
      tp: 0,
      fp: 1,
      fn: 0,
      precision: 0,
      recall: 1,
      f1: 0,
    })
    const errs = pair(dirty, clean)
    const none = gradeRepair(errs.task, { fixes: [] })
    expect(none).toMatchObject({ tp: 0, fp: 0, fn: 4, precision: 1, recall: 0, f1: 0 })
    expect(none.detection).toMatchObject({ precision: 1, recall: 0, f1: 0 })
    expect(none.perColumn['id']).toMatchObject({ precision: 1, recall: 1, f1: 1 })
  })

  it('sorts effective fixes by row then column position and drops the reason', () => {
    const { task } = pair(dirty, clean)
    const score = gradeRepair(task, [
      { row: 3, column: 'zip', newValue: '50667', reason: 'ocr' },
      { row: 0, column: 'zip', newValue: '10116' },
      { row: 0, column: 'city', newValue: 'Berlin' },
      { row: 1, column: 'state', newValue: 'HH' },
    ])
    expect(score.fixes).toEqual([
      { row: 0, column: 'city', newValue: 'Berlin' },
      { row: 0, column: 'zip', newValue: '10116' },
      { row: 1, column: 'state', newValue: 'HH' },
      { row: 3, column: 'zip', newValue: '50667' },
    ])
    expect(score).toMatchObject({ tp: 3, fp: 1, fn: 1 })
    expect(score.detection).toMatchObject({ tp: 3, fp: 1, fn: 1 })
    expect(Object.keys(score.perColumn)).toEqual(['id', 'city', 'state', 'zip'])
    expect(score.perColumn['zip']).toMatchObject({ tp: 1, fp: 1, fn: 0, precision: 0.5, recall: 1 })
    expect(score.perColumn['city']).toMatchObject({ tp: 1, fp: 0, fn: 1 })
  })

  it('needs the task object that holds the ground truth', () => {
    const { task } = pair(dirty, clean)
    const copy = structuredClone(task)
    expect(() => gradeRepair(copy, [])).toThrow(/no ground truth/)
  })

  it('compares with the raha comparator when asked, dropping corrections it deems equal', () => {
    const d: Table = {
      columns: ['id', 'name'],
      rows: [
        ['1', 'Smith &amp; Sons'],
        ['2', 'Jones  Ltd'],
        ['3', 'Brwn'],
      ],
    }
    const c: Table = {
      columns: ['id', 'name'],
      rows: [
        ['1', 'Smith & Sons'],
        ['2', 'Jones Ltd'],
        ['3', 'Brown'],
      ],
    }
    const { task } = pair(d, c)
    const fixes = [
      { row: 2, column: 'name', newValue: ' Brown ' },
      { row: 0, column: 'name', newValue: 'Smith & Sons' },
    ]
    const exact = gradeRepair(task, fixes)
    expect(exact).toMatchObject({ tp: 1, fp: 1, fn: 2, comparator: 'exact' })
    const raha = gradeRepair(task, fixes, { comparator: rahaComparator })
    expect(raha).toMatchObject({ tp: 1, fp: 0, fn: 0, comparator: 'raha' })
    expect(raha.diagnostics.noopFixes).toBe(1)
    expect(raha.warnings[0]).toMatch(/^2 ground-truth correction\(s\) are equal .* "raha" comparator/)
  })

  it('grades a task the same way every time: its truth is frozen, and a hand-built truth is read as it is now', () => {
    const { task, truth } = pair(dirty, clean, kinds)
    expect(Object.isFrozen(truth.corrections) && truth.corrections.every((c) => Object.isFrozen(c))).toBe(true)
    expect(() => truth.corrections.push({ row: 0, column: 'zip', dirty: '10115', clean: 'x' })).toThrow(TypeError)
    const fixes = [
      { row: 1, column: 'state', newValue: 'HH' },
      { row: 3, column: 'zip', newValue: '5O667' },
    ]
    const first = gradeRepair(task, fixes)
    expect(gradeRepair(task, fixes)).toEqual(first)
    expect(gradeRepair(task, fixes, { comparator: rahaComparator })).toEqual({ ...first, comparator: 'raha' })
    // Another table of the same shape, graded against the same (frozen) truth, reads its own columns and rows.
    const renamed: Table = { columns: ['id', 'town', 'state', 'zip'], rows: dirty.rows }
    expect(() => gradeAgainstTruth(truth, renamed, fixes)).toThrow(/column "city"/)
    expect(gradeAgainstTruth(truth, dirty, fixes)).toEqual(first)

    const handBuilt: GroundTruth = {
      corrections: [{ row: 0, column: 'city', dirty: 'Berlinn', clean: 'Berlin' }],
      dataset: info(dirty, 1),
    }
    const fix = [{ row: 0, column: 'city', newValue: 'Berlin' }]
    expect(gradeAgainstTruth(handBuilt, dirty, fix)).toMatchObject({ tp: 1, fp: 0, fn: 0 })
    handBuilt.corrections[0] = { row: 0, column: 'city', dirty: 'Berlinn', clean: 'Berlin-Mitte' }
    expect(gradeAgainstTruth(handBuilt, dirty, fix)).toMatchObject({ tp: 0, fp: 1, fn: 1 })
  })

  it('rejects ground truth that names cells outside the dirty table', () => {
    const truth: GroundTruth = {
      corrections: [{ row: 0, column: 'town', dirty: 'a', clean: 'b' }],
      dataset: info(dirty, 1),
    }
    expect(() => gradeAgainstTruth(truth, dirty, [])).toThrow(InputError)
    const badRow: GroundTruth = { ...truth, corrections: [{ row: 4, column: 'city', dirty: 'a', clean: 'b' }] }
    expect(() => gradeAgainstTruth(badRow, dirty, [])).toThrow(/row 4 .*"city".*4 rows/)
  })

  it('keeps complete diagnostic lists on large tables', () => {
    const nRows = 100_000
    const columns = ['id', 'a', 'b']
    const rows: string[][] = []
    const corrections: Correction[] = []
    for (let r = 0; r < nRows; r++) {
      rows.push([String(r), `a${r}`, `b${r}`])
      if (r % 2 === 0)
        corrections.push({
          row: r,
          column: r % 4 === 0 ? 'a' : 'b',
          dirty: r % 4 === 0 ? `a${r}` : `b${r}`,
          clean: `c${r}`,
        })
    }
    const table: Table = { columns, rows }
    const truth: GroundTruth = { corrections, dataset: info(table, corrections.length) }
    const fixes = []
    for (let r = 0; r < nRows; r += 8) fixes.push({ row: r, column: 'a', newValue: `c${r}` })
    for (let r = 1; r < nRows; r += 10) fixes.push({ row: r, column: 'a', newValue: 'over' })
    const score = gradeAgainstTruth(truth, table, fixes)
    expect(score.tp).toBe(nRows / 8)
    expect(score.diagnostics.missedRepair).toHaveLength(nRows / 2 - nRows / 8)
    expect(score.diagnostics.overRepair).toHaveLength(nRows / 10)
    expect(score.fn).toBe(nRows / 2 - nRows / 8)
    expect(score.fixes).toHaveLength(nRows / 8 + nRows / 10)
    const missed = score.diagnostics.missedRepair
    expect(missed.every((m, i) => i === 0 || m.row > missed[i - 1]!.row)).toBe(true)
  })
})

describe('grading the canonical sets', () => {
  const dataDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../datasets')
  for (const id of ['hospital', 'flights', 'beers', 'rayyan']) {
    it(`${id}: the clean diff as fixes is perfect; no fixes has recall 0`, async () => {
      const { task } = await loadDataset({ id, seed: 0, dataDir })
      const { corrections } = groundTruthOf(task)
      const oracle = corrections.map((c) => ({ row: c.row, column: c.column, newValue: c.clean }))
      const perfect = gradeRepair(task, oracle)
      expect(perfect).toMatchObject({ tp: corrections.length, fp: 0, fn: 0, f1: 1 })
      expect(perfect.fixes).toHaveLength(corrections.length)
      expect(gradeRepair(task, [])).toMatchObject({ tp: 0, fn: corrections.length, precision: 1, recall: 0 })
      const raha = gradeRepair(task, oracle, { comparator: rahaComparator })
      expect(raha.f1).toBe(1)
    })
  }
})
