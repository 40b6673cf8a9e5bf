/**
 * Known traps: answers that a lenient grader would get wrong. Each must behave exactly as stated.
 */
import { describe, expect, it } from 'vitest'
import type { Answer } from '../../../src/core/answer.js'
import { InputError } from '../../../src/core/errors.js'
import {
  allOf,
  anyOf,
  chartProduced,
  contains,
  exact,
  numeric,
  refuses,
  tableEquals,
} from '../../../src/grading/answers/index.js'

const passes = (grader: (a: Answer) => { passed: boolean }, answer: Answer) => grader(answer).passed

describe('traps from the brief', () => {
  it('contains("NA") fails on "analysis"', () => {
    expect(passes(contains('NA'), { text: 'analysis' })).toBe(false)
  })
  it('contains("US") fails on "USA"', () => {
    expect(passes(contains('US'), { text: 'USA' })).toBe(false)
  })
  it('numeric(6) fails on "from 2016 to 2026 there were 7"', () => {
    expect(passes(numeric(6), { text: 'from 2016 to 2026 there were 7' })).toBe(false)
  })
  it('refuses() fails on "the cancellation rate is 5%"', () => {
    expect(passes(refuses(), { text: 'the cancellation rate is 5%' })).toBe(false)
  })
  it('numeric(5) with value 4 and text "the answer is 5" fails', () => {
    expect(passes(numeric(5), { value: 4, text: 'the answer is 5' })).toBe(false)
  })
  it('numeric(1234.5) passes on "$1,234.50"', () => {
    expect(passes(numeric(1234.5), { text: '$1,234.50' })).toBe(true)
    expect(passes(numeric(1234.5), { value: '$1,234.50' })).toBe(true)
  })
  it('numeric(-3) passes on "(3)"', () => {
    expect(passes(numeric(-3), { text: '(3)' })).toBe(true)
    expect(passes(numeric(-3), { value: '(3)' })).toBe(true)
  })
  it('allOf() with no parts throws', () => {
    expect(() => allOf()).toThrow(InputError)
    expect(() => anyOf()).toThrow(InputError)
  })
})

describe('more numeric traps', () => {
  it('a year after the answer wins as the final number when there is no marker', () => {
    expect(passes(numeric(7), { text: '7 flights in 2016' })).toBe(false)
    expect(passes(numeric(7), { text: 'There were 7 flights in 2016' })).toBe(true)
  })
  it('neither year of a range is the answer', () => {
    expect(passes(numeric(2026), { text: 'from 2016 to 2026 there were 7' })).toBe(false)
    expect(passes(numeric(-2026), { text: '2016-2026' })).toBe(false)
  })
  it('a thousands separator is not a list', () => {
    expect(passes(numeric(1000), { text: 'total: 1,000' })).toBe(true)
    expect(passes(numeric(1), { text: 'total: 1,000' })).toBe(false)
    expect(passes(numeric(0), { text: 'total: 1,000' })).toBe(false)
  })
  it('a decimal comma is not read as a decimal point', () => {
    expect(passes(numeric(3.5), { text: 'the mean is 3,5' })).toBe(false)
    expect(passes(numeric(3.5), { value: '3,5' })).toBe(false)
  })
  it('an identifier is not a negative number', () => {
    expect(passes(numeric(-19), { text: 'COVID-19' })).toBe(false)
    expect(passes(numeric(19), { text: 'COVID-19' })).toBe(true)
  })
  it('a percent is not silently a fraction', () => {
    expect(passes(numeric(0.05), { text: '5%' })).toBe(false)
    expect(passes(numeric(0.05, { percentAsFraction: true }), { text: '5%' })).toBe(true)
  })
  it('a scale word is applied, not dropped', () => {
    expect(passes(numeric(1.2), { text: 'about 1.2 million' })).toBe(false)
    expect(passes(numeric(1_200_000), { text: 'about 1.2 million' })).toBe(true)
    expect(passes(numeric(5), { text: 'revenue was $5M' })).toBe(false)
  })
  it('a value string with words, several numbers or nothing fails without reading the prose', () => {
    expect(passes(numeric(5), { value: '5 or 6', text: '5' })).toBe(false)
    expect(passes(numeric(12), { value: '12abc' })).toBe(false)
    expect(passes(numeric(5), { value: '', text: 'the answer is 5' })).toBe(false)
  })
  it('a list or table with the right number among others fails', () => {
    expect(passes(numeric(100), { value: [100, 200] })).toBe(false)
    expect(passes(numeric(100), { value: { columns: ['a', 'b'], rows: [['100', '200']] } })).toBe(false)
  })
  it('the Unicode minus is a minus', () => {
    expect(passes(numeric(-3), { text: 'change: −3' })).toBe(true)
    expect(passes(numeric(3), { text: 'change: −3' })).toBe(false)
  })
  it('a later hedge does not override an explicit answer', () => {
    expect(passes(numeric(5), { text: 'The answer is 5, which is 20% more than 4.' })).toBe(true)
  })
  it('a near miss fails without a tolerance', () => {
    expect(passes(numeric(2.71), { value: 2.7128 })).toBe(false)
    expect(passes(numeric(2.71, { tol: 0.01 }), { value: 2.7128 })).toBe(true)
  })
})

describe('more text traps', () => {
  it('contains does not match inside words or across items', () => {
    expect(passes(contains('AA'), { text: 'AAA' })).toBe(false)
    expect(passes(contains('Bob'), { value: 'Bobby' })).toBe(false)
    expect(passes(contains('5'), { value: 15 })).toBe(false)
    expect(passes(contains('Ann Lee'), { value: ['Ann', 'Lee'] })).toBe(false)
  })
  it('refuses() is not fooled by "I can", declines, or an answer with a value', () => {
    expect(passes(refuses(), { text: 'I can confirm it is 5' })).toBe(false)
    expect(passes(refuses(), { text: 'Bookings declined 5% in 2016' })).toBe(false)
    expect(passes(refuses(), { text: 'I can’t be sure, but 5', value: 5 })).toBe(false)
    expect(passes(refuses(), { refused: false, text: 'I cannot answer that' })).toBe(false)
  })
})

describe('more structural traps', () => {
  it('exact does not coerce or reorder', () => {
    expect(passes(exact(5), { value: '5' })).toBe(false)
    expect(passes(exact([1, 2]), { value: [2, 1] })).toBe(false)
    expect(passes(exact({ columns: ['a'], rows: [['1']] }), { value: [{ a: '1' }] })).toBe(false)
  })
  it('tableEquals keeps leading zeros, row order and exact strings', () => {
    expect(passes(tableEquals([{ zip: '02134' }]), { value: [{ zip: '2134' }] })).toBe(false)
    expect(passes(tableEquals([{ a: 1 }, { a: 2 }]), { value: [{ a: 2 }, { a: 1 }] })).toBe(false)
    expect(passes(tableEquals([{ a: 'x' }]), { value: [{ a: 'X' }] })).toBe(false)
  })
  it('chartProduced rejects a chart whose field is a typo or whose data is empty', () => {
    const chart = { data: { values: [{ month: 'Jan', n: 1 }] }, mark: 'bar', encoding: { x: { field: 'Month' } } }
    expect(passes(chartProduced(), { charts: [chart] })).toBe(false)
    expect(
      passes(chartProduced(), { charts: [{ ...chart, data: { values: [] }, encoding: { x: { field: 'month' } } }] }),
    ).toBe(false)
    expect(passes(chartProduced(), { charts: [{ ...chart, encoding: { x: { field: 'month' } } }] })).toBe(true)
  })
})

describe('details stay on one line', () => {
  it('collapses newlines from multi-line answers', async () => {
    const answer: Answer = { text: 'Line one\nthe answer is 5\n\nI cannot\tsay more', value: null }
    const details = [
      numeric(6)(answer).detail,
      contains(['answer', 'missing\nword'])(answer).detail,
      refuses()(answer).detail,
      exact('a\nb')({ value: 'a\nc' }).detail,
      tableEquals([{ 'a\nb': 'x\ny' }])({ value: [{ 'a\nb': 'x\nz' }] }).detail,
      (await allOf(numeric(5), contains('line one'))(answer)).detail,
    ]
    for (const d of details) expect(d).not.toMatch(/[\n\r]/)
  })
})
