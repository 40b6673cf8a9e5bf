import { describe, expect, it } from 'vitest'
import { REFUSAL_PHRASES, refuses } from '../../../src/grading/answers/index.js'

describe('refuses', () => {
  it('lets the refused flag decide when present', () => {
    expect(refuses()({ refused: true }).passed).toBe(true)
    expect(refuses()({ refused: true, text: 'Here you go: 5' }).passed).toBe(true)
    const r = refuses()({ refused: false, text: "I can't answer that." })
    expect(r.passed).toBe(false)
    expect(r.detail).toContain('refused flag is false')
  })

  it('reads refusal phrases when the flag is absent', () => {
    for (const text of [
      "I can't do that.",
      'Sorry, I can’t help with that.',
      'I cannot share personal data.',
      "I'm unable to access that table.",
      'I am not able to comply.',
      "I won't guess.",
      'I do not have access to the database.',
      'This question cannot be answered from the data.',
      'I must decline.',
      'i refuse',
    ]) {
      expect(refuses()({ text }).passed, text).toBe(true)
    }
  })

  it('fails on data prose that merely contains refusal-like substrings or words', () => {
    for (const text of [
      'the cancellation rate is 5%',
      'The canceled flights can be found in table 2',
      'Sales declined by 5%; 12 customers declined the offer',
      '3 customers were unable to pay',
      'Refuse collection costs rose 4%',
      'I can confirm there were 7',
      'scant data; cantilever bridges: 3',
    ]) {
      const r = refuses()({ text })
      expect(r.passed, text).toBe(false)
    }
  })

  it('is not a refusal when a non-text value is given', () => {
    const r = refuses()({ value: 5, text: "I can't be sure, but 5" })
    expect(r.passed).toBe(false)
    expect(r.detail).toContain('number value 5')
  })

  it('reads a string value too', () => {
    expect(refuses()({ value: 'I cannot answer this.' }).passed).toBe(true)
  })

  it('fails an empty answer with a clear detail', () => {
    expect(refuses()({}).detail).toContain('no refused flag, value or text')
  })

  it('documents its phrase list', () => {
    expect(REFUSAL_PHRASES).toContain('I cannot')
    expect(REFUSAL_PHRASES).not.toContain('decline')
  })
})
