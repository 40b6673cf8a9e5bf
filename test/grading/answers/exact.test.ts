import { describe, expect, it } from 'vitest'
import { InputError } from '../../../src/core/errors.js'
import { exact } from '../../../src/grading/answers/index.js'

describe('exact', () => {
  it('passes deep-equal values', () => {
    expect(exact(5)({ value: 5 }).passed).toBe(true)
    expect(exact('Cara')({ value: 'Cara' }).passed).toBe(true)
    expect(exact([1, 'a', [true]])({ value: [1, 'a', [true]] }).passed).toBe(true)
    expect(exact(null)({ value: null }).passed).toBe(true)
    const table = { columns: ['a'], rows: [['1']] }
    expect(exact(table)({ value: { columns: ['a'], rows: [['1']] } }).passed).toBe(true)
  })

  it('does not coerce: "5" is not 5, "true" is not true', () => {
    const r = exact(5)({ value: '5' })
    expect(r.passed).toBe(false)
    expect(r.detail).toContain('value: expected number 5, found string "5"')
    expect(exact(true)({ value: 'true' }).passed).toBe(false)
    expect(exact(0)({ value: false }).passed).toBe(false)
    expect(exact(null)({ value: [] }).passed).toBe(false)
  })

  it('compares arrays in order and by length', () => {
    expect(exact([1, 2])({ value: [2, 1] }).detail).toContain('value[0]: expected 1, found 2')
    expect(exact([1, 2])({ value: [1, 2, 3] }).detail).toContain('expected 2 items, found 3')
  })

  it('compares objects by keys and names the path of the first difference', () => {
    const want = { a: [1, { b: 'x' }] }
    expect(exact(want)({ value: [{ a: [1, { b: 'y' }] }] }).passed).toBe(false)
    const r = exact({ columns: ['a'], rows: [['1']] })({ value: { columns: ['a'], rows: [['2']] } })
    expect(r.detail).toContain('value.rows[0][0]: expected "1", found "2"')
    expect(exact({ a: 1 })({ value: { a: 1, b: 2 } } as never).detail).toContain('unexpected key "b"')
    expect(exact({ a: 1, b: 2 })({ value: { a: 1 } } as never).detail).toContain('missing key "b"')
    expect(exact({ a: undefined })({ value: {} } as never).passed).toBe(false)
  })

  it('treats NaN as equal to NaN and 0 as equal to -0', () => {
    expect(exact(Number.NaN)({ value: Number.NaN }).passed).toBe(true)
    expect(exact(0)({ value: -0 }).passed).toBe(true)
    expect(exact(0.3)({ value: 0.1 + 0.2 }).passed).toBe(false)
  })

  it('fails when there is no value, even if the text is right', () => {
    expect(exact(5)({ text: '5' }).detail).toContain('no value')
  })

  it('refuses an undefined expectation', () => {
    expect(() => exact(undefined)).toThrow(InputError)
  })
})
