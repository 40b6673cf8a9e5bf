import { describe, expect, it } from 'vitest'
import type { GradeResult, Grader } from '../../../src/core/answer.js'
import { InputError } from '../../../src/core/errors.js'
import { allOf, anyOf, contains, numeric } from '../../../src/grading/answers/index.js'

const later =
  (passed: boolean, detail: string): Grader =>
  async () => {
    await new Promise((resolve) => setImmediate(resolve))
    return { passed, detail }
  }

describe('allOf / anyOf', () => {
  it('allOf passes only when every part passes, and lists each verdict', async () => {
    const both = await allOf(numeric(5), contains('flights'))({ text: 'There were 5 flights' })
    expect(both.passed).toBe(true)
    expect(both.parts).toHaveLength(2)
    expect(both.score).toBe(1)
    const one = await allOf(numeric(5), contains('trains'))({ text: 'There were 5 flights' })
    expect(one.passed).toBe(false)
    expect(one.score).toBe(0.5)
    expect(one.detail).toMatch(/^all of 2: 1 passed — \[1\] pass: .* \| \[2\] FAIL: expected "trains"/)
  })

  it('anyOf passes when one part passes', async () => {
    const r = await anyOf(numeric(4), numeric(5))({ value: 5 })
    expect(r.passed).toBe(true)
    expect(r.parts?.map((p: GradeResult) => p.passed)).toEqual([false, true])
    expect((await anyOf(numeric(4), numeric(6))({ value: 5 })).passed).toBe(false)
  })

  it('awaits async parts and nests', async () => {
    const r = await allOf(later(true, 'a'), anyOf(later(false, 'b'), later(true, 'c')))({})
    expect(r.passed).toBe(true)
    expect(r.parts?.[1]?.parts).toHaveLength(2)
    expect((await allOf(later(true, 'a'), later(false, 'b'))({})).passed).toBe(false)
  })

  it('runs every part even after a failure', async () => {
    let ran = 0
    const counting: Grader = () => {
      ran++
      return { passed: true, detail: 'ok' }
    }
    await allOf(later(false, 'no'), counting)({})
    expect(ran).toBe(1)
  })

  it('refuses to compose nothing or non-graders', () => {
    expect(() => allOf()).toThrow(InputError)
    expect(() => anyOf()).toThrow(/at least one grader/)
    expect(() => allOf(numeric(1), 'x' as unknown as Grader)).toThrow(/argument 1/)
  })
})
