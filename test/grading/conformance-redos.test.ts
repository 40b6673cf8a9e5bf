import { describe, expect, it } from 'vitest'
import { InputError } from '../../src/core/errors.js'
import { evaluateConformanceSync } from '../../src/grading/conformance/index.js'

// Issue 26 item 6: a spec's pattern meets agent-made samples. With a backtracking engine `(a+)+$` over
// "a"*40+"!" runs for minutes; the linear-time engine answers at once (the test's own timeout is the bound).
const spec = (pattern: string) => ({
  properties: [{ name: 'sentiment', distribution: { positive: 50, negative: 50 } }],
  rules: { fields: { text: { pattern } } },
})

describe('conformance rule patterns run in linear time', () => {
  it('a catastrophic pattern over a hostile sample is judged, not hung', { timeout: 5_000 }, () => {
    const samples = [
      { sentiment: 'positive', text: `${'a'.repeat(40)}!` },
      { sentiment: 'negative', text: 'a'.repeat(40) },
      { sentiment: 'negative', text: `${'a'.repeat(100_000)}!` },
    ]
    const r = evaluateConformanceSync(samples, spec('(a+)+$'))
    expect(r.sampleClassifications.map((s) => s.rulesPassed)).toEqual([false, true, false])
  })

  it('keeps RegExp.test semantics: unanchored finds anywhere, anchors bind, Unicode classes work', () => {
    const samples = [
      { sentiment: 'positive', text: 'aaa!' },
      { sentiment: 'negative', text: 'aaa' },
      { sentiment: 'negative', text: 'héllo' },
    ]
    expect(evaluateConformanceSync(samples, spec('^(a+)+$')).sampleClassifications.map((s) => s.rulesPassed)).toEqual([
      false,
      true,
      false,
    ])
    expect(evaluateConformanceSync(samples, spec('a+')).sampleClassifications.map((s) => s.rulesPassed)).toEqual([
      true,
      true,
      false,
    ])
    expect(evaluateConformanceSync(samples, spec('^\\p{L}+$')).sampleClassifications.map((s) => s.rulesPassed)).toEqual(
      [false, true, true],
    )
    const failed = evaluateConformanceSync(samples, spec('^(a+)+$')).sampleClassifications[0]!
    expect(failed.ruleViolations).toEqual(['text: does not match the pattern "^(a+)+$"'])
  })

  it('refuses a pattern the linear engine cannot run, naming the field', () => {
    const run = (pattern: string) => () =>
      evaluateConformanceSync([{ sentiment: 'positive', text: 'x' }], spec(pattern))
    expect(run('(a)\\1')).toThrow(InputError)
    expect(run('(a)\\1')).toThrow(/rules\.fields\.text\.pattern: not a valid regular expression.*backreferences/)
    expect(run('(?<=a)b')).toThrow(/rules\.fields\.text\.pattern/)
    expect(run('(')).toThrow(/rules\.fields\.text\.pattern/)
  })
})
