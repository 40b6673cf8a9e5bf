import { describe, expect, it } from 'vitest'
import { InputError } from '../../../src/core/errors.js'
import { contains } from '../../../src/grading/answers/index.js'

describe('contains: whole words only', () => {
  it('fails "NA" on "analysis" and "US" on "USA"', () => {
    expect(contains('NA')({ text: 'A careful analysis of the data' }).passed).toBe(false)
    expect(contains('US')({ text: 'Most flights left the USA' }).passed).toBe(false)
    expect(contains('US')({ text: 'Most flights left the US.' }).passed).toBe(true)
    expect(contains('NA')({ value: ['N/A', 'NA'] }).passed).toBe(true)
  })

  it('fails on a word inside a longer word, either side', () => {
    expect(contains('cat')({ text: 'concatenate' }).passed).toBe(false)
    expect(contains('cat')({ text: 'cats' }).passed).toBe(false)
    expect(contains('5')({ text: '15 rows' }).passed).toBe(false)
    expect(contains('5')({ text: '5.5 rows' }).passed).toBe(false)
  })

  it('folds case, width and whitespace; strips punctuation at token boundaries', () => {
    expect(contains('new york')({ text: 'NEW\n\tYORK!' }).passed).toBe(true)
    expect(contains('Cara')({ text: '"Cara," she said.' }).passed).toBe(true)
    expect(contains('ABC')({ text: 'ＡＢＣ corp' }).passed).toBe(true)
    expect(contains('file')({ text: 'the ﬁle' }).passed).toBe(true)
  })

  it('splits on hyphens, so "New York" passes on "new-york"', () => {
    expect(contains('New York')({ text: 'I live in new-york city' }).passed).toBe(true)
    expect(contains('new-york')({ text: 'New York' }).passed).toBe(true)
  })

  it('matches phrases as contiguous word runs', () => {
    expect(contains('New York')({ text: 'New Amsterdam became York' }).passed).toBe(false)
    expect(contains('New York')({ text: 'York New' }).passed).toBe(false)
  })

  it('keeps apostrophes and decimal points inside tokens', () => {
    expect(contains("O'Brien")({ text: 'Top customer: O’Brien' }).passed).toBe(true)
    expect(contains('Brien')({ text: "O'Brien" }).passed).toBe(false)
    expect(contains('3.5')({ text: 'about 3.5%' }).passed).toBe(true)
    expect(contains('3.5')({ text: 'about 3,5' }).passed).toBe(false)
    expect(contains('3.5')({ text: 'steps 3. 5.' }).passed).toBe(false)
  })

  it('keeps accents', () => {
    expect(contains('Zurich')({ text: 'Zürich' }).passed).toBe(false)
    expect(contains('Zürich')({ text: 'ZÜRICH' }).passed).toBe(true)
  })
})

describe('contains: where it looks', () => {
  it('looks in string, number, list and table values as well as text', () => {
    expect(contains('Cara')({ value: 'Cara' }).passed).toBe(true)
    expect(contains('42')({ value: 42 }).passed).toBe(true)
    expect(contains('Cara')({ value: ['Ann', 'Cara'] }).passed).toBe(true)
    const table = {
      columns: ['name', 'spent'],
      rows: [
        ['Ann', '5'],
        ['Cara', '9'],
      ],
    }
    const r = contains('Cara')({ value: table })
    expect(r.passed).toBe(true)
    expect(r.detail).toContain('value cell [1][name]')
    expect(contains('Cara')({ value: [{ name: 'Cara' }] }).detail).toContain('value[0].name')
    expect(contains('Cara')({ value: 5, text: 'Cara spent most' }).detail).toContain('in text')
  })

  it('does not let a phrase straddle two cells or list items', () => {
    expect(contains('New York')({ value: ['New', 'York'] }).passed).toBe(false)
    expect(contains('Ann Cara')({ value: { columns: ['a', 'b'], rows: [['Ann', 'Cara']] } }).passed).toBe(false)
  })

  it('does not search column names', () => {
    expect(contains('name')({ value: { columns: ['name'], rows: [['Ann']] } }).passed).toBe(false)
  })

  it('fails with a clear detail on an empty answer', () => {
    const r = contains('x')({})
    expect(r.passed).toBe(false)
    expect(r.detail).toContain('no value and no text')
  })
})

describe('contains: several phrases', () => {
  it("defaults to mode 'all'", () => {
    const r = contains(['Ann', 'Cara'])({ text: 'Ann and Bob' })
    expect(r.passed).toBe(false)
    expect(r.score).toBe(0.5)
    expect(r.detail).toContain('all of ["Ann", "Cara"]')
    expect(r.detail).toContain('missing "Cara"')
    expect(r.detail).toContain('found "Ann" in text')
    expect(contains(['Ann', 'Bob'])({ text: 'Ann and Bob' }).passed).toBe(true)
  })

  it("passes mode 'any' on one match, fails on none", () => {
    expect(contains(['Ann', 'Cara'], { mode: 'any' })({ text: 'Ann and Bob' }).passed).toBe(true)
    expect(contains(['Dan', 'Cara'], { mode: 'any' })({ text: 'Ann and Bob' }).passed).toBe(false)
  })

  it('rejects expectations that would match vacuously', () => {
    expect(() => contains('')).toThrow(InputError)
    expect(() => contains('  ...  ')).toThrow(/has no words/)
    expect(() => contains([])).toThrow(InputError)
    expect(() => contains(['a', 5 as unknown as string])).toThrow(/expected\[1\]/)
    expect(() => contains('a', { mode: 'some' as 'any' })).toThrow(/mode/)
  })
})
