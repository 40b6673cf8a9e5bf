import { describe, expect, it } from 'vitest'
import { costPerCorrectFix, sumUsage, tokensSpentAndSaved } from '../../../src/core/usage.js'
import { aggregate } from '../../../src/report-builder/aggregate.js'
import { makeRecord } from '../../helpers/stats-records.js'
import { checkBudget } from '../../../src/grading/budget.js'
import { InputError } from '../../../src/core/errors.js'
import type { Usage } from '../../../src/core/schemas.js'
import { emptyUsage } from '../../../src/core/usage.js'

const live: Usage = {
  ...emptyUsage(),
  calls: 3,
  promptTokens: 900,
  completionTokens: 100,
  quotaUnits: 3 / 14_400,
  costUsd: 0.002,
}
const replayed: Usage = {
  ...emptyUsage(),
  calls: 3,
  cachedCalls: 3,
  cachedPromptTokens: 900,
  cachedCompletionTokens: 100,
}

describe('checkBudget', () => {
  it('passes within every limit and says so', () => {
    const result = checkBudget({ fixes: [], usage: live }, { tokens: 1_000, usd: 0.01, calls: 3, quotaUnits: 0.001 })
    expect(result.passed).toBe(true)
    expect(result.detail).toBe(
      'within budget: tokens 1000 <= 1000, usd 0.002 <= 0.01, calls 3 <= 3, quotaUnits 0.000208333 <= 0.001',
    )
  })

  it('fails on any limit exceeded and names it', () => {
    const result = checkBudget(live, { tokens: 999, calls: 5 })
    expect(result.passed).toBe(false)
    expect(result.detail).toBe('over budget: tokens 1000 > 999, calls 3 <= 5')
  })

  it('holds replays to the same token and call budget; cached answers cost no money or quota', () => {
    expect(checkBudget(replayed, { tokens: 999 }).passed).toBe(false)
    expect(checkBudget(replayed, { tokens: 999 }).detail).toMatch(/tokens 1000 \(1000 from cache\) > 999/)
    expect(checkBudget(replayed, { usd: 0, quotaUnits: 0, calls: 3 }).passed).toBe(true)
  })

  it('counts a result without usage as zero', () => {
    expect(checkBudget([], { calls: 0 }).passed).toBe(true)
    expect(checkBudget({ fixes: [] }, { tokens: 0 }).passed).toBe(true)
  })

  it('rejects an empty or negative budget', () => {
    expect(() => checkBudget(live, {})).toThrow(InputError)
    expect(() => checkBudget(live, { usd: -1 })).toThrow(/budget.usd/)
    expect(() => checkBudget(live, { tokens: 1.5 })).toThrow('budget.tokens: expected a non-negative integer, got 1.5')
  })
})

describe('cost reporting', () => {
  it('cost per correct fix is cost ÷ tp, null without a correct fix', () => {
    expect(costPerCorrectFix(live, 4)).toBe(0.0005)
    expect(costPerCorrectFix(live, 0)).toBeNull()
  })

  it('keeps tokens spent and tokens saved by the cache apart', () => {
    expect(tokensSpentAndSaved(live)).toEqual({ spent: 1_000, saved: 0 })
    expect(tokensSpentAndSaved(replayed)).toEqual({ spent: 0, saved: 1_000 })
  })

  it("the report ships these very numbers: a group sums its runs' usage and divides by its pooled tp", () => {
    const repair = { precision: 1, recall: 0.5, f1: 2 / 3, fp: 0, fn: 2 }
    const records = [
      makeRecord({ ...repair, trial: 0, tp: 2, usage: live }),
      makeRecord({ ...repair, trial: 1, tp: 2, usage: replayed }),
    ]
    const [group] = aggregate(records)
    const summed = sumUsage([live, replayed])
    expect(group!.usage).toEqual(summed)
    expect(group!.tokens).toEqual(tokensSpentAndSaved(summed))
    expect(group!.tokens).toEqual({ spent: 1_000, saved: 1_000 })
    expect(group!.costPerCorrectFixUsd).toBe(costPerCorrectFix(summed, 4))
    expect(group!.costPerCorrectFixUsd).toBe(0.0005)
  })
})
