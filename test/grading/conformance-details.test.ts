import { describe, expect, it } from 'vitest'
import { tableEquals } from '../../src/grading/answers/table-equals.js'
import { evaluateConformanceSync } from '../../src/grading/conformance/index.js'
import { renderConformanceMarkdown } from '../../src/report-builder/markdown/conformance.js'
import { chiSquareGoodnessOfFit, exactMultinomialTest, goodnessOfFit } from '../../src/stats/goodness-of-fit.js'

// Issue 26 item 14: an observed label requested at 0% is an impossible outcome, reported as such (not as
// "χ² = Infinity" beside an exact test of "0 outcomes"); grader details show whitespace.

function samples(counts: Record<string, number>): Array<{ mood: string }> {
  return Object.entries(counts).flatMap(([mood, n]) => Array.from({ length: n }, () => ({ mood })))
}

describe('a label requested at 0% but observed', () => {
  it('the test is "impossible": p = 0, no statistic, no outcome count, naming the category', () => {
    for (const test of [goodnessOfFit, exactMultinomialTest, chiSquareGoodnessOfFit]) {
      const r = test([5, 4, 1], [0.5, 0.5, 0])
      expect(r).toEqual({
        method: 'impossible',
        statistic: null,
        degreesOfFreedom: 1,
        pValue: 0,
        outcomes: 0,
        impossible: [2],
      })
    }
    // An unobserved zero category still drops out.
    const dropped = goodnessOfFit([5, 5, 0], [0.5, 0.5, 0])
    expect(dropped.method).toBe('exact-multinomial')
    expect(dropped.pValue).toBeCloseTo(1, 9)
  })

  it('the evaluation, its JSON and its Markdown say the same', () => {
    const r = evaluateConformanceSync(samples({ happy: 5, sad: 4, angry: 1 }), {
      properties: [{ name: 'mood', distribution: { happy: 50, sad: 50, angry: 0 } }],
    })
    const a = r.distributionAnalysis[0]!
    expect(a.test).toMatchObject({ method: 'impossible', statistic: null, pValue: 0, outcomes: 0 })
    const json = JSON.parse(JSON.stringify(r))
    expect(json.distributionAnalysis[0].test).toMatchObject({
      method: 'impossible',
      statistic: null,
      outcomes: 0,
      impossible: [2],
    })
    const md = renderConformanceMarkdown(r)
    expect(md).not.toContain('Infinity')
    expect(md).not.toContain('0 outcomes')
    expect(md).toContain('p = 0: angry observed though requested at 0%, impossible under the request')
    expect(r.conformanceExplanation).not.toContain('Infinity')
    expect(r.conformanceExplanation).toContain('angry observed though requested at 0%')
  })

  it('a label outside the request is named the same way', () => {
    const r = evaluateConformanceSync(samples({ happy: 5, sad: 4, sarcastic: 1 }), {
      properties: [{ name: 'mood', distribution: { happy: 50, sad: 50 } }],
    })
    expect(renderConformanceMarkdown(r)).toContain('p = 0: sarcastic observed though requested at 0%')
  })
})

describe('table equality details show whitespace', () => {
  const t = (columns: string[], rows: string[][]) => ({ columns, rows })

  it('" 5" against "5" reads as different', () => {
    const r = tableEquals(t(['name', 'n'], [['Ann', '5']]))({ value: t(['name', 'n'], [['Ann', ' 5']]) })
    expect(r.passed).toBe(false)
    expect(r.detail).toContain('expected "5", found " 5"')
  })

  it('a trailing tab, a line break and a no-break space are shown escaped', () => {
    const r = tableEquals(t(['a'], [['v']]))({ value: t(['a'], [['v\t']]) })
    expect(r.detail).toContain('found "v\\t"')
    expect(tableEquals(t(['a'], [['v']]))({ value: t(['a'], [['v\n']]) }).detail).toContain('found "v\\n"')
    expect(tableEquals(t(['a'], [['v']]))({ value: t(['a'], [['v\u00a0']]) }).detail).toContain('found "v\\u00a0"')
  })
})
