import { describe, expect, it } from 'vitest'
import { answerNumberFromText, extractNumbers, findNumbers, parseNumber } from '../../../src/grading/answers/index.js'

describe('parseNumber', () => {
  it.each([
    ['42', 42],
    ['  42  ', 42],
    ['-3', -3],
    ['+3', 3],
    ['\u22123', -3],
    ['3.25', 3.25],
    ['.5', 0.5],
    ['007', 7],
    ['1,234', 1234],
    ['1,234,567.89', 1234567.89],
    ['1 234', 1234],
    ['1 234 567', 1234567],
    ['1\u202F234', 1234],
    ['1\u00A0234', 1234],
    ['1\u2009234.5', 1234.5],
    ['$1,234.50', 1234.5],
    ['€5', 5],
    ['£ 7.5', 7.5],
    ['¥1000', 1000],
    ['5 €', 5],
    ['-$5', -5],
    ['$-5', -5],
    ['(3)', -3],
    ['(1,234)', -1234],
    ['($1,234.50)', -1234.5],
    ['1.2e3', 1200],
    ['1.2E-3', 0.0012],
    ['-2.5e+2', -250],
    ['12.5%', 12.5],
    ['12.5 %', 12.5],
    ['12.5 percent', 12.5],
    ['1.2 million', 1200000],
    ['3 Billion', 3e9],
    ['2 thousand', 2000],
    ['$4.5 trillion', 4.5e12],
    ['2 MILLION', 2e6],
    ['$1.2M', 1200000],
    ['20k', 20000],
    ['20K', 20000],
    ['3MM', 3e6],
    ['1.5bn', 1.5e9],
    ['€2B', 2e9],
    ['4mn', 4e6],
    ['12.5 Percent', 12.5],
    ['0', 0],
  ])('reads %j as %d', (text, value) => {
    expect(parseNumber(text)).toBe(value)
  })

  it('reads percent as a fraction when asked', () => {
    expect(parseNumber('12.5%', { percentAsFraction: true })).toBe(0.125)
    expect(parseNumber('(5%)', { percentAsFraction: true })).toBe(-0.05)
    expect(parseNumber('7', { percentAsFraction: true })).toBe(7)
  })

  it('gives scale words an exact decimal value', () => {
    expect(parseNumber('1.2 million')).toBe(1200000)
    expect(parseNumber('0.1 billion')).toBe(100000000)
  })

  it.each([
    '',
    '   ',
    'abc',
    '5 apples',
    'about 5',
    '1,5',
    '1,23',
    '12,3456',
    '1,234,56',
    '--5',
    '+-5',
    '-$-5',
    '(-3)',
    '(3',
    '3)',
    '$5€',
    '$5%',
    'NaN',
    'Infinity',
    '0x10',
    '5-3',
    '1.2.3',
    '5.',
    '1e',
    'seven',
    '5m',
    '5kg',
    '5 M',
    '5Mbps',
    '1e999',
  ])('rejects %j', (text) => {
    expect(parseNumber(text)).toBeNull()
  })
})

describe('findNumbers / extractNumbers', () => {
  it('finds every number in order, with positions and source text', () => {
    const text = 'Revenue rose from $1,234.50 to (€2,000) - a 12% swing in 2024.'
    const found = findNumbers(text)
    expect(found.map((n) => n.value)).toEqual([1234.5, -2000, 12, 2024])
    expect(found[0]).toMatchObject({ text: '$1,234.50', currency: '$', percent: false })
    expect(text.slice(found[0]!.index, found[0]!.index + found[0]!.text.length)).toBe('$1,234.50')
    expect(found[2]).toMatchObject({ text: '12%', percent: true })
  })

  it('treats years as ordinary numbers', () => {
    expect(extractNumbers('from 2016 to 2026 there were 7')).toEqual([2016, 2026, 7])
  })

  it('does not read a hyphen after a word or digit as a minus sign', () => {
    expect(extractNumbers('COVID-19')).toEqual([19])
    expect(extractNumbers('2016-2026')).toEqual([2016, 2026])
    expect(extractNumbers('5-3')).toEqual([5, 3])
    expect(extractNumbers('2024-01-15')).toEqual([]) // a date, not three numbers
    expect(extractNumbers('x = -3 and y=-4')).toEqual([-3, -4])
  })

  it('ignores digits glued to a preceding letter, and versions', () => {
    expect(extractNumbers('row A12 of H2O')).toEqual([])
    expect(extractNumbers('version 1.2.3')).toEqual([]) // a version, not 1.2
    expect(extractNumbers('5kg and the 3rd')).toEqual([5, 3])
    expect(extractNumbers('US$5')).toEqual([5])
  })

  it('does not join numbers separated by plain spaces or malformed commas', () => {
    expect(extractNumbers('in 20 100 cases')).toEqual([20, 100])
    expect(extractNumbers('1,2,3')).toEqual([1, 2, 3])
    expect(extractNumbers('3,5')).toEqual([3, 5])
    expect(extractNumbers('1,2345')).toEqual([1, 2345])
    expect(extractNumbers('1\u202F234 people')).toEqual([1234])
  })

  it('reads accounting parentheses only when they enclose the number', () => {
    expect(extractNumbers('net (3)')).toEqual([-3])
    expect(extractNumbers('net ($1,234)')).toEqual([-1234])
    expect(extractNumbers('5 items (3 red)')).toEqual([5, 3])
    expect(extractNumbers('(total 5)')).toEqual([5])
    expect(extractNumbers('f(3)')).toEqual([3])
    expect(extractNumbers('(-3)')).toEqual([-3])
  })

  it('ends a number at sentence punctuation', () => {
    expect(extractNumbers('There were 1,234. Then 5, 6; and 7!')).toEqual([1234, 5, 6, 7])
  })

  it('reads scale words and percent in prose', () => {
    expect(extractNumbers('about 1.2 million users, 5% of them')).toEqual([1200000, 5])
    expect(extractNumbers('5%', { percentAsFraction: true })).toEqual([0.05])
    expect(extractNumbers('the 5 thousandths place')).toEqual([5])
    expect(extractNumbers('the 90 percentile')).toEqual([90])
    expect(extractNumbers('revenue of $1.2M from 20k users')).toEqual([1200000, 20000])
    expect(extractNumbers('a 5m wall, 5Mbps link, 3km run')).toEqual([5, 5, 3])
  })

  it('reads no number inside an identifier, a hash, a version or a date', () => {
    expect(extractNumbers('request n0ac57a815bc2 failed')).toEqual([])
    expect(extractNumbers('the hash is 0ac57a815bc2')).toEqual([])
    expect(extractNumbers('commit 12345abcdef, then deadbeef')).toEqual([])
    expect(extractNumbers('uuid 123e4567-e89b-12d3-a456')).toEqual([])
    expect(extractNumbers('x86_64 and 5_000')).toEqual([])
    expect(extractNumbers('version 1.2.3 or v2.0.1')).toEqual([])
    expect(extractNumbers('on 2026-12-03, 2026/12/03 or 12/03/2026')).toEqual([])
    // Numbers next to them still count; so do units, ordinals, plain digit runs and number ranges.
    expect(extractNumbers('0ac57a815bc2 has 3 rows; 5kg, 3rd, 1234567 rows, 2016-2026, 5.2.')).toEqual([
      3, 5, 3, 1234567, 2016, 2026, 5.2,
    ])
  })

  it('finds nothing in text without digits', () => {
    expect(extractNumbers('seven flights, none late')).toEqual([])
    expect(extractNumbers('')).toEqual([])
  })
})

describe('answerNumberFromText', () => {
  const pick = (text: string) => answerNumberFromText(text)?.value ?? null

  it('takes the final number when there is no marker', () => {
    expect(pick('In 2016, 7')).toBe(7)
    expect(answerNumberFromText('In 2016, 7')?.source).toEqual({ kind: 'final' })
  })

  it('takes the number after the last marker', () => {
    expect(pick('There were 7 flights in 2016')).toBe(7)
    expect(pick('x = 3, then x = 5')).toBe(5)
    expect(pick('Count: 12 (in 2019)')).toBe(12)
  })

  it('prefers answer markers over connectives, and "final answer" over both', () => {
    expect(pick('The answer is 5, which is 20% more than 4')).toBe(5)
    expect(pick('Answer: 5. Hmm, the final answer: 6 (2016 data)')).toBe(6)
    expect(pick('**Answer**: 42 rows in 2016')).toBe(42)
    expect(pick('RESULT = 8 of 2016')).toBe(8)
    expect(answerNumberFromText('Final Answer: 3')?.source).toMatchObject({ kind: 'marker', tier: 'final answer' })
  })

  it('falls back to an earlier marker when the last has no number after it', () => {
    expect(pick('The answer is 7. The method is simple.')).toBe(7)
  })

  it('does not treat "answer to question 3" as a marker, nor "is" inside words', () => {
    expect(pick('The answer to question 3 is 9')).toBe(9)
    expect(pick('This analysis gives 4 then 5')).toBe(5)
  })

  it('does not treat a time colon as a marker', () => {
    expect(pick('At 10:30 we saw 4 then 5')).toBe(5)
  })

  it('returns null when the text holds no number', () => {
    expect(answerNumberFromText('no idea')).toBeNull()
  })
})
