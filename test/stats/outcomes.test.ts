import { describe, expect, it } from 'vitest'
import { caseTrialStats, flakyCases, repeatGate, summarizeOutcomes } from '../../src/stats/index.js'
import { failedRecord, makeRecord } from '../helpers/stats-records.js'

describe('summarizeOutcomes', () => {
  it('keeps unjudged rows in Score and out of validated accuracy', () => {
    // 10 rows: 6 correct, 2 wrong, 2 failed (correct null, not completed)
    const records = [
      ...Array.from({ length: 6 }, (_, i) => makeRecord({ trial: i, correct: true, f1: 1 })),
      ...Array.from({ length: 2 }, (_, i) => makeRecord({ trial: 6 + i, correct: false, f1: 0.5 })),
      ...Array.from({ length: 2 }, (_, i) => failedRecord({ trial: 8 + i })),
    ]
    const s = summarizeOutcomes(records, { seed: 3 })
    expect(s).toMatchObject({ attempted: 10, correct: 6, validated: 8, completed: 8 })
    // Score = 6/10, validated accuracy = 6/8, completion = 8/10
    expect(s.score.point).toBe(0.6)
    expect(s.validatedAccuracy.point).toBe(0.75)
    expect(s.completionRate.point).toBe(0.8)
    // Wilson 6/10: center = (0.6 + 0.19207)/1.38415 = 0.57227; half = 1.95996·√(0.024 + 0.0096036)/1.38415 = 0.25957
    expect(s.score.low).toBeCloseTo(0.3126738, 6)
    expect(s.score.high).toBeCloseTo(0.8318197, 6)
    // F1 over the 8 rows that have one: (6·1 + 2·0.5)/8 = 0.875
    expect(s.f1).toMatchObject({ n: 8, mean: 0.875 })
    expect(s.f1!.low!).toBeLessThanOrEqual(0.875)
    expect(s.f1!.high).toBe(1)
  })

  it('has no F1 when no row has one, and handles no rows at all', () => {
    expect(summarizeOutcomes([makeRecord()], { seed: 1 }).f1).toBeNull()
    const empty = summarizeOutcomes([], { seed: 1 })
    expect(empty.score).toEqual({ point: null, low: 0, high: 1 })
    expect(empty.attempted).toBe(0)
  })

  it('is deterministic under a seed, and another seed moves the bootstrap interval alone', () => {
    // 12 distinct F1s: enough resamples differ that the seed shows in the interval's ends
    const records = Array.from({ length: 12 }, (_, trial) => {
      const f1 = ((trial * 7) % 12) / 11
      return makeRecord({ trial, f1, correct: f1 >= 0.5 })
    })
    const five = summarizeOutcomes(records, { seed: 5 })
    expect(summarizeOutcomes(records, { seed: 5 })).toEqual(five)
    const six = summarizeOutcomes(records, { seed: 6 })
    expect(six.f1!.mean).toBe(five.f1!.mean)
    expect([six.f1!.low, six.f1!.high]).not.toEqual([five.f1!.low, five.f1!.high])
    // the Wilson intervals and the counts do not resample
    expect({ ...six, f1: null }).toEqual({ ...five, f1: null })
  })
})

describe('caseTrialStats', () => {
  // case A: 2 of 3 trials pass (flaky); case B: 3 of 3; case C: 0 of 3 (one failed run)
  const records = [
    makeRecord({ caseId: 'A', trial: 0, correct: true }),
    makeRecord({ caseId: 'A', trial: 1, correct: false }),
    makeRecord({ caseId: 'A', trial: 2, correct: true }),
    makeRecord({ caseId: 'B', trial: 0 }),
    makeRecord({ caseId: 'B', trial: 1 }),
    makeRecord({ caseId: 'B', trial: 2 }),
    makeRecord({ caseId: 'C', trial: 0, correct: false }),
    failedRecord({ caseId: 'C', trial: 1 }),
    makeRecord({ caseId: 'C', trial: 2, correct: false }),
  ]
  const stats = caseTrialStats(records)

  it('counts passes and computes pass@k and pass^k per case', () => {
    expect(stats.map((s) => [s.caseId, s.n, s.passes])).toEqual([
      ['A', 3, 2],
      ['B', 3, 3],
      ['C', 3, 0],
    ])
    const a = stats[0]!
    // n=3, c=2: pass@1 = 2/3; pass@2 = 1 − C(1,2)/C(3,2) = 1; pass^2 = C(2,2)/C(3,2) = 1/3; pass^3 = 0
    expect(a.passAtK[1]).toBeCloseTo(2 / 3, 14)
    expect(a.passAtK[2]).toBe(1)
    expect(a.passHatK[2]).toBeCloseTo(1 / 3, 14)
    expect(a.passHatK[3]).toBe(0)
    expect(stats[1]!.passHatK[3]).toBe(1)
    expect(stats[2]!.passAtK[3]).toBe(0)
  })

  it('lists flaky cases: passed in some trials and not others', () => {
    expect(flakyCases(stats).map((s) => s.caseId)).toEqual(['A'])
  })

  it('repeat gate: passes at least k of N', () => {
    const two = repeatGate(stats, { atLeast: 2 })
    expect(two.passed).toBe(false)
    expect(two.failing.map((s) => s.caseId)).toEqual(['C'])
    expect(repeatGate(stats.slice(0, 2), { atLeast: 2 }).passed).toBe(true)
    expect(repeatGate(stats.slice(0, 2), { atLeast: 3 }).failing.map((s) => s.caseId)).toEqual(['A'])
    expect(() => repeatGate(stats, { atLeast: 0 })).toThrow(/atLeast/)
  })

  it('keeps arms and turns apart', () => {
    const s = caseTrialStats([
      makeRecord({ caseId: 'A', armId: 'x' }),
      makeRecord({ caseId: 'A', armId: 'y' }),
      makeRecord({ caseId: 'A', armId: 'x', turn: 1 }),
    ])
    expect(s.map((e) => e.key)).toEqual(['x|hospital|A|', 'x|hospital|A|1', 'y|hospital|A|'])
  })
})
