import { describe, expect, it } from 'vitest'
import { InputError } from '../../../src/core/errors.js'
import { tableEquals } from '../../../src/grading/answers/index.js'

const t = (columns: string[], rows: string[][]) => ({ columns, rows })
const sales = t(
  ['name', 'spent'],
  [
    ['Ann', '5'],
    ['Bob', '7.5'],
    ['Cara', '9'],
  ],
)

describe('tableEquals: shape and columns', () => {
  it('passes an identical table', () => {
    const r = tableEquals(sales)({
      value: t(
        ['name', 'spent'],
        [
          ['Ann', '5'],
          ['Bob', '7.5'],
          ['Cara', '9'],
        ],
      ),
    })
    expect(r.passed).toBe(true)
    expect(r.detail).toBe('table matches: 3 rows × 2 columns')
  })

  it('accepts records on either side', () => {
    const records = [
      { name: 'Ann', spent: 5 },
      { name: 'Bob', spent: 7.5 },
      { name: 'Cara', spent: 9 },
    ]
    expect(tableEquals(sales)({ value: records }).passed).toBe(true)
    expect(tableEquals(records)({ value: sales }).passed).toBe(true)
  })

  it('names missing and extra columns', () => {
    const r = tableEquals(sales)({
      value: t(
        ['name', 'total'],
        [
          ['Ann', '5'],
          ['Bob', '7.5'],
          ['Cara', '9'],
        ],
      ),
    })
    expect(r.passed).toBe(false)
    expect(r.detail).toContain('missing column ["spent"]; extra column ["total"]')
  })

  it('compares column names exactly, case included', () => {
    expect(tableEquals(sales)({ value: t(['Name', 'spent'], sales.rows) }).passed).toBe(false)
  })

  it('demands column order unless told to ignore it', () => {
    const swapped = t(
      ['spent', 'name'],
      [
        ['5', 'Ann'],
        ['7.5', 'Bob'],
        ['9', 'Cara'],
      ],
    )
    expect(tableEquals(sales)({ value: swapped }).detail).toContain('columns in a different order')
    expect(tableEquals(sales, { ignoreColumnOrder: true })({ value: swapped }).passed).toBe(true)
    expect(tableEquals(sales, { ignoreColumnOrder: true })({ value: [{ spent: '5', name: 'Ann' }] }).passed).toBe(false)
  })

  it('rejects duplicate expected columns when matching by name, and fails duplicate answer columns', () => {
    expect(() => tableEquals(t(['a', 'a'], []), { ignoreColumnOrder: true })).toThrow(InputError)
    expect(tableEquals(t(['a', 'a'], [['1', '2']]))({ value: t(['a', 'a'], [['1', '2']]) }).passed).toBe(true)
    const r = tableEquals(t(['a', 'b'], [['1', '2']]), { ignoreColumnOrder: true })({
      value: t(['a', 'b', 'a'], [['1', '2', '3']]),
    })
    expect(r.detail).toContain('extra column ["a"]')
  })

  it('reports row count differences', () => {
    const r = tableEquals(sales)({
      value: t(
        ['name', 'spent'],
        [
          ['Ann', '5'],
          ['Bob', '7.5'],
        ],
      ),
    })
    expect(r.passed).toBe(false)
    expect(r.detail).toBe('expected 3 rows, found 2')
  })

  it('fails answers that are not tables, with the reason', () => {
    expect(tableEquals(sales)({ value: 5 }).detail).toContain('is a number')
    expect(tableEquals(sales)({ value: [1, 2] }).detail).toContain('[0] is a number, not a record')
    expect(tableEquals(sales)({ text: 'a table' }).detail).toContain('no value')
    const ragged = { columns: ['name', 'spent'], rows: [['Ann']] }
    expect(tableEquals(sales)({ value: ragged }).detail).toContain('row 0 with 1 cells for 2 columns')
  })

  it('rejects a malformed expectation', () => {
    expect(() => tableEquals({ columns: ['a'], rows: [['1', '2']] })).toThrow(/expected has row 0 with 2 cells/)
    expect(() => tableEquals('x' as never)).toThrow(InputError)
    expect(() => tableEquals(sales, { tol: -1 })).toThrow(/tol/)
  })

  it('compares empty results', () => {
    expect(tableEquals([])({ value: [] }).passed).toBe(true)
    expect(tableEquals([])({ value: t(['a'], []) }).passed).toBe(true)
    expect(tableEquals([])({ value: [{ a: 1 }] }).detail).toBe('expected 0 rows, found 1')
    expect(tableEquals(t(['a'], []))({ value: t(['a'], []) }).passed).toBe(true)
  })
})

describe('tableEquals: cells', () => {
  it('names the first mismatching row and column', () => {
    const r = tableEquals(sales)({
      value: t(
        ['name', 'spent'],
        [
          ['Ann', '5'],
          ['Bob', '8'],
          ['Cara', '10'],
        ],
      ),
    })
    expect(r.passed).toBe(false)
    expect(r.detail).toBe('2 of 3 rows differ; first mismatch at row 1, column "spent": expected "7.5", found "8"')
  })

  it('compares plain numbers numerically, within tol', () => {
    const want = t(['x'], [['0.3'], ['1000']])
    expect(tableEquals(want)({ value: [{ x: 0.1 + 0.2 }, { x: '1e3' }] }).passed).toBe(true)
    expect(tableEquals(want)({ value: [{ x: '0.30' }, { x: 1000.0 }] }).passed).toBe(true)
    expect(tableEquals(want)({ value: [{ x: 0.31 }, { x: 1000 }] }).passed).toBe(false)
    expect(tableEquals(want, { tol: 0.011 })({ value: [{ x: 0.31 }, { x: 1000 }] }).passed).toBe(true)
  })

  it('compares everything else as exact strings', () => {
    expect(tableEquals(t(['zip'], [['02134']]))({ value: [{ zip: '2134' }] }).passed).toBe(false)
    expect(tableEquals(t(['zip'], [['02134']]))({ value: [{ zip: 2134 }] }).passed).toBe(false)
    expect(tableEquals(t(['n'], [['1,234']]))({ value: [{ n: 1234 }] }).passed).toBe(false)
    expect(tableEquals(t(['n'], [['Ann']]))({ value: [{ n: 'ann' }] }).passed).toBe(false)
    expect(tableEquals(t(['n'], [['Ann']]))({ value: [{ n: 'Ann ' }] }).passed).toBe(false)
    expect(tableEquals(t(['b'], [['true']]))({ value: [{ b: true }] }).passed).toBe(true)
  })

  it('treats null, undefined and "" as the same empty cell', () => {
    const want = t(
      ['a', 'b'],
      [
        ['1', ''],
        ['2', ''],
      ],
    )
    expect(tableEquals(want)({ value: [{ a: 1, b: null }, { a: 2 }] }).passed).toBe(true)
    expect(tableEquals(want)({ value: [{ a: 1, b: 'null' }, { a: 2 }] }).passed).toBe(false)
  })
})

describe('tableEquals: ignoreRowOrder', () => {
  const shuffled = t(
    ['name', 'spent'],
    [
      ['Cara', '9'],
      ['Ann', '5'],
      ['Bob', '7.5'],
    ],
  )

  it('passes a permutation only when told to ignore row order', () => {
    expect(tableEquals(sales)({ value: shuffled }).passed).toBe(false)
    const r = tableEquals(sales, { ignoreRowOrder: true })({ value: shuffled })
    expect(r.passed).toBe(true)
    expect(r.detail).toContain('row order ignored')
  })

  it('compares rows as a multiset (duplicates count)', () => {
    const want = t(['a'], [['x'], ['x'], ['y']])
    expect(tableEquals(want, { ignoreRowOrder: true })({ value: t(['a'], [['y'], ['x'], ['x']]) }).passed).toBe(true)
    const r = tableEquals(want, { ignoreRowOrder: true })({ value: t(['a'], [['y'], ['y'], ['x']]) })
    expect(r.passed).toBe(false)
    expect(r.detail).toBe(
      '1 expected row(s) not found, first: row 1 ["x"]; 1 answer row(s) unmatched, first: row 1 ["y"]',
    )
  })

  it('matches numbers within tolerance regardless of order', () => {
    const want = t(
      ['k', 'v'],
      [
        ['a', '0.3'],
        ['b', '2'],
      ],
    )
    expect(
      tableEquals(want, { ignoreRowOrder: true })({
        value: [
          { k: 'b', v: 2 },
          { k: 'a', v: 0.1 + 0.2 },
        ],
      }).passed,
    ).toBe(true)
    expect(
      tableEquals(want, { ignoreRowOrder: true })({
        value: [
          { k: 'b', v: 3 },
          { k: 'a', v: 0.3 },
        ],
      }).passed,
    ).toBe(false)
  })

  it('reports count differences alongside unmatched rows', () => {
    const r = tableEquals(sales, { ignoreRowOrder: true })({ value: t(['name', 'spent'], [['Ann', '5']]) })
    expect(r.detail).toMatch(/^expected 3 rows, found 1; 2 expected row\(s\) not found/)
  })

  it('combines with ignoreColumnOrder', () => {
    const value = [
      { spent: 9, name: 'Cara' },
      { spent: 5, name: 'Ann' },
      { spent: 7.5, name: 'Bob' },
    ]
    expect(tableEquals(sales, { ignoreRowOrder: true, ignoreColumnOrder: true })({ value }).passed).toBe(true)
  })

  it('handles a large table', () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => [`id${i}`, String(i * 0.5)])
    const want = t(['id', 'v'], rows)
    const reversed = t(['id', 'v'], [...rows].reverse())
    expect(tableEquals(want, { ignoreRowOrder: true })({ value: reversed }).passed).toBe(true)
  })
})
