import { describe, expect, it } from 'vitest'
import type { Answer } from '../../../src/core/answer.js'
import { InputError } from '../../../src/core/errors.js'
import { numeric } from '../../../src/grading/answers/index.js'

const grade = (expected: number, answer: Answer, opts?: Parameters<typeof numeric>[1]) =>
  numeric(expected, opts)(answer)

describe('numeric: value first', () => {
  it('passes on an equal number value', () => {
    const r = grade(5, { value: 5 })
    expect(r.passed).toBe(true)
    expect(r.detail).toContain('expected 5')
    expect(r.detail).toContain('found 5 (value)')
  })

  it('fails a wrong value even when the prose holds the right number', () => {
    const r = grade(5, { value: 4, text: 'the answer is 5' })
    expect(r.passed).toBe(false)
    expect(r.detail).toContain('found 4 (value)')
  })

  it('takes no number out of a word: an identifier after the marker is no answer', () => {
    const r = grade(0, { text: 'The run id: n0ac57a815bc2' })
    expect(r.passed).toBe(false)
    expect(grade(0, { text: 'Answer: 0ac57a815bc2' }).passed).toBe(false)
    expect(grade(3, { text: 'In build 0ac57a815bc2 (v1.2.3, 2026-12-03) the answer is 3' }).passed).toBe(true)
  })

  it('parses a string value that is exactly one number', () => {
    expect(grade(1234.5, { value: '$1,234.50' }).passed).toBe(true)
    expect(grade(-3, { value: '(3)' }).passed).toBe(true)
    expect(grade(1200000, { value: '1.2 million' }).passed).toBe(true)
  })

  it('fails a string value that is prose, even with the right number inside', () => {
    const r = grade(7, { value: '7 flights', text: '7' })
    expect(r.passed).toBe(false)
    expect(r.detail).toContain('value "7 flights" is not a single number')
  })

  it('unwraps a one-element list and a one-cell table', () => {
    expect(grade(5, { value: [5] }).passed).toBe(true)
    expect(grade(5, { value: ['5'] }).passed).toBe(true)
    expect(grade(5, { value: [[5]] }).passed).toBe(true)
    const r = grade(5, { value: { columns: ['n'], rows: [['5']] } })
    expect(r.passed).toBe(true)
    expect(r.detail).toContain('cell [0]["n"]')
  })

  it('fails lists and tables that are not one number', () => {
    expect(grade(5, { value: [5, 6] }).detail).toContain('list of 2 items')
    expect(grade(5, { value: [] }).detail).toContain('list of 0 items')
    expect(grade(5, { value: { columns: ['a', 'b'], rows: [['5', '6']] } }).detail).toContain('1×2 table')
    expect(grade(5, { value: { columns: ['a'], rows: [['5'], ['6']] } }).passed).toBe(false)
  })

  it('fails booleans, NaN and infinities', () => {
    expect(grade(1, { value: true }).detail).toContain('boolean')
    expect(grade(0, { value: Number.NaN }).passed).toBe(false)
    expect(grade(1e308, { value: Number.POSITIVE_INFINITY }).passed).toBe(false)
  })
})

describe('numeric: prose when value is absent', () => {
  it('reads prose when value is undefined or null', () => {
    expect(grade(7, { text: 'There were 7 late flights.' }).passed).toBe(true)
    expect(grade(7, { value: null, text: 'There were 7 late flights.' }).passed).toBe(true)
  })

  it('names where the number came from', () => {
    const r = grade(6, { text: 'from 2016 to 2026 there were 7' })
    expect(r.passed).toBe(false)
    expect(r.detail).toMatch(/found 7 \(first number after the last "were" in text: ".*there were 7"\)/)
    const f = grade(6, { text: 'so 6' })
    expect(f.detail).toContain('final number in text')
  })

  it('fails with a clear detail when there is nothing to read', () => {
    expect(grade(1, {}).detail).toContain('no value and no text')
    expect(grade(1, { text: '   ' }).detail).toContain('no value and no text')
    expect(grade(1, { text: 'I do not know' }).detail).toContain('holds no number')
  })

  it('passes accounting negatives and currency in prose', () => {
    expect(grade(-3, { text: '(3)' }).passed).toBe(true)
    expect(grade(1234.5, { text: 'Total revenue: $1,234.50' }).passed).toBe(true)
  })

  it('reads percent as given, or as a fraction when asked', () => {
    expect(grade(12.5, { text: 'The rate is 12.5%' }).passed).toBe(true)
    expect(grade(0.125, { text: 'The rate is 12.5%' }).passed).toBe(false)
    expect(grade(0.125, { text: 'The rate is 12.5%' }, { percentAsFraction: true }).passed).toBe(true)
  })
})

describe('numeric: tolerance', () => {
  it('absorbs float noise by default', () => {
    expect(grade(0.3, { value: 0.1 + 0.2 }).passed).toBe(true)
    expect(grade(1e12, { value: 1e12 + 0.5 }).passed).toBe(true)
    expect(grade(3, { value: 3.001 }).passed).toBe(false)
  })

  it('is bit-exact with tol 0 and relTol 0', () => {
    expect(grade(0.3, { value: 0.1 + 0.2 }, { tol: 0, relTol: 0 }).passed).toBe(false)
    expect(grade(0.3, { value: 0.3 }, { tol: 0, relTol: 0 }).passed).toBe(true)
  })

  it('honours absolute and relative tolerance, at the boundary', () => {
    expect(grade(10, { value: 10.5 }, { tol: 0.5 }).passed).toBe(true)
    expect(grade(10, { value: 10.51 }, { tol: 0.5 }).passed).toBe(false)
    expect(grade(200, { value: 202 }, { relTol: 0.01 }).passed).toBe(true)
    expect(grade(200, { value: 203 }, { relTol: 0.01 }).passed).toBe(false)
    expect(grade(-200, { value: -198 }, { relTol: 0.01 }).passed).toBe(true)
    expect(grade(200, { value: 203 }, { relTol: 0.01 }).detail).toContain('±2')
  })

  it('rejects bad expectations and options', () => {
    expect(() => numeric(Number.NaN)).toThrow(InputError)
    expect(() => numeric(Number.POSITIVE_INFINITY)).toThrow(/finite/)
    expect(() => numeric('5' as unknown as number)).toThrow(InputError)
    expect(() => numeric(1, { tol: -1 })).toThrow(/option tol/)
    expect(() => numeric(1, { relTol: Number.NaN })).toThrow(/option relTol/)
  })
})
