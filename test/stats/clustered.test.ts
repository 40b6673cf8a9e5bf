import { describe, expect, it } from 'vitest'
import { bootstrapMeanInterval } from '../../src/stats/bootstrap.js'
import { clusterBootstrapMeanInterval, clusteredProportion, clusterRobustMean } from '../../src/stats/clustered.js'
import { summarizeOutcomes } from '../../src/stats/outcomes.js'
import { wilsonInterval, Z_95 } from '../../src/stats/wilson.js'
import { makeRecord } from '../helpers/stats-records.js'

/** Wilson's formula written out for a fractional n, to check the clustered interval by hand. */
function wilsonByHand(p: number, n: number): [number, number] {
  const z2 = Z_95 * Z_95
  const d = 1 + z2 / n
  const center = (p + z2 / (2 * n)) / d
  const half = (Z_95 * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / d
  return [center - half, center + half]
}

describe('clusterRobustMean (Miller 2024, eq. 4)', () => {
  it('matches a hand-computed cluster-robust SE on unequal clusters', () => {
    // A = [1, 1, 0, 1], B = [0, 1], C = [0, 0, 0]: N = 9, ȳ = 4/9.
    // Σ residuals per cluster: A 3 − 4·4/9 = 11/9, B 1 − 2·4/9 = 1/9, C 0 − 3·4/9 = −12/9.
    // SE² = (121 + 1 + 144)/81 / 81 = 266/6561, SE = √266/81.
    const values = [1, 1, 0, 1, 0, 1, 0, 0, 0]
    const clusters = ['A', 'A', 'A', 'A', 'B', 'B', 'C', 'C', 'C']
    const r = clusterRobustMean(values, clusters)
    expect(r.mean).toBeCloseTo(4 / 9, 15)
    expect(r.se).toBeCloseTo(Math.sqrt(266) / 81, 15)
    expect(r).toMatchObject({ units: 3, n: 9 })
    // effective n = p(1 − p)/(SE² · G/(G − 1)) = (20/81)/(266/6561 · 3/2) = 1620/266 · 2/3 (CR1)
    const p = clusteredProportion(values.map(Boolean), clusters)
    expect(p.method).toBe('wilson-clustered')
    expect(p.effectiveN).toBeCloseTo((1620 / 266) * (2 / 3), 12)
    const [low, high] = wilsonByHand(4 / 9, (1620 / 266) * (2 / 3))
    expect(p.low).toBeCloseTo(low, 12)
    expect(p.high).toBeCloseTo(high, 12)
  })

  it('is wider than the iid SE when whole clusters move together', () => {
    // two clusters of three identical runs: SE = √(1.5² + 1.5²)/6 = 0.35355…, iid would say √(6·0.25)/6 = 0.2041
    const r = clusterRobustMean([1, 1, 1, 0, 0, 0], ['a', 'a', 'a', 'b', 'b', 'b'])
    expect(r.se).toBeCloseTo(Math.sqrt(4.5) / 6, 15)
    expect(r.se!).toBeGreaterThan(Math.sqrt(1.5) / 6)
  })

  it('equals the plug-in iid SE with one run per cluster', () => {
    const values = [1, 0, 1, 1, 0]
    const r = clusterRobustMean(values, ['1', '2', '3', '4', '5'])
    const m = 0.6
    expect(r.se).toBeCloseTo(Math.sqrt(values.reduce((s, v) => s + (v - m) ** 2, 0)) / 5, 15)
  })

  it('refuses values without a unit each', () => {
    expect(() => clusterRobustMean([1, 2], ['a'])).toThrow(/2 values but 1 unit keys/)
  })
})

describe('intervals over units', () => {
  // A deterministic agent over 17 cases passes 13 of them, on every trial.
  const deterministic = (trials: number) =>
    Array.from({ length: 17 * trials }, (_, i) => {
      const c = i % 17
      return makeRecord({
        caseId: `q${String(c).padStart(2, '0')}`,
        trial: Math.floor(i / 17),
        correct: c < 13,
        f1: c / 16,
      })
    })

  it("a deterministic agent's Score interval does not narrow when its 17 cases are repeated 5 times", () => {
    const once = summarizeOutcomes(deterministic(1), { seed: 7 })
    const five = summarizeOutcomes(deterministic(5), { seed: 7 })
    const wilson = wilsonInterval(13, 17)
    expect(once.score).toEqual(wilson)
    expect(once.intervalMethods.score).toBe('wilson')
    expect(five.intervalMethods.score).toBe('wilson-clustered')
    expect(five.score.point).toBeCloseTo(13 / 17, 15)
    // CR0 gives n_eff = 17 units exactly; the small-sample factor 17/16 (CR1) makes it 16
    const [low, high] = wilsonByHand(13 / 17, 16)
    expect(five.score.low).toBeCloseTo(low, 12)
    expect(five.score.high).toBeCloseTo(high, 12)
    expect(five.score.low).toBeLessThan(wilson.low)
    // pooled over 85 "independent" runs it would be much narrower
    expect(wilsonInterval(65, 85).high - wilsonInterval(65, 85).low).toBeLessThan((wilson.high - wilson.low) * 0.6)
    expect(five.units).toMatchObject({ unit: 'case', units: 17, runsPerUnit: { min: 5, max: 5 } })
  })

  it('the F1 interval is a t interval over cases: the same interval at 1 and 5 trials', () => {
    const once = summarizeOutcomes(deterministic(1), { seed: 7 })
    const five = summarizeOutcomes(deterministic(5), { seed: 7 })
    expect(once.intervalMethods.f1).toBe('t')
    expect(five.intervalMethods.f1).toBe('cluster-t')
    // mean ± t_16 · s/√17 over the 17 case F1s c/16
    const f1s = Array.from({ length: 17 }, (_, c) => c / 16)
    const m = f1s.reduce((x, y) => x + y, 0) / 17
    const s = Math.sqrt(f1s.reduce((x, y) => x + (y - m) ** 2, 0) / 16)
    expect(once.f1!.low).toBeCloseTo(m - 2.1199052992210112 * (s / Math.sqrt(17)), 9)
    expect(five.f1!.mean).toBeCloseTo(once.f1!.mean!, 14)
    expect(five.f1!.low).toBeCloseTo(once.f1!.low!, 12)
    expect(five.f1!.high).toBeCloseTo(once.f1!.high!, 12)
  })

  it("keeps the run bootstrap's numbers exactly where every unit is one run", () => {
    const values = [0.1, 0.5, 0.9, 0.3, 0.7]
    const plain = bootstrapMeanInterval(values, { seed: 11 })
    const clustered = clusterBootstrapMeanInterval(values, ['a', 'b', 'c', 'd', 'e'], { seed: 11 })
    expect(clustered).toEqual({ ...plain, method: 'bootstrap', units: 5 })
  })

  it('clusters conversations by conversation, not by turn', () => {
    // 4 conversations × 3 turns: chats 0 and 1 pass every turn, chats 2 and 3 fail every turn
    const records = Array.from({ length: 12 }, (_, i) =>
      makeRecord({ caseId: `chat${i % 4}`, turn: Math.floor(i / 4), correct: i % 4 < 2 }),
    )
    const s = summarizeOutcomes(records, { seed: 1 })
    expect(s.units).toMatchObject({ unit: 'conversation', units: 4, runsPerUnit: { min: 3, max: 3 } })
    expect(s.intervalMethods.score).toBe('wilson-clustered')
    // the turns move together: the interval is Wilson over the 4 conversations (CR1: n_eff = 4 · 3/4 = 3), not over 12 turns
    const [low, high] = wilsonByHand(0.5, 3)
    expect(s.score.low).toBeCloseTo(low, 12)
    expect(s.score.high).toBeCloseTo(high, 12)
  })

  it('is continuous where every unit has the same mean: 10 units of 2/4, then one success moved', () => {
    const clusters = Array.from({ length: 40 }, (_, i) => `u${Math.floor(i / 4)}`)
    const even = clusters.map((_, i) => i % 4 < 2)
    const moved = [...even]
    moved[2] = true // unit 0 passes 3 of 4
    moved[4] = false // unit 1 passes 1 of 4
    const a = clusteredProportion(even, clusters)
    const b = clusteredProportion(moved, clusters)
    // the same-mean units are worth the runs (the limit as the spread goes to 0), not a jump down to the units
    expect(a.effectiveN).toBe(40)
    expect(b.effectiveN).toBe(40)
    expect(Math.abs(a.low - b.low)).toBeLessThan(0.01)
    expect(Math.abs(a.high - b.high)).toBeLessThan(0.01)
  })

  it('one unit: the interval is over its trials (wilson-trials)', () => {
    const records = Array.from({ length: 10 }, (_, i) =>
      makeRecord({ caseId: 'hospital repair', trial: i, correct: i < 6 }),
    )
    const s = summarizeOutcomes(records, { seed: 1 })
    expect(s.intervalMethods.score).toBe('wilson-trials')
    expect(s.score).toEqual(wilsonInterval(6, 10))
  })
})
