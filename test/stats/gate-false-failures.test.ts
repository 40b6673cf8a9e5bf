import { describe, expect, it } from 'vitest'
import { Random } from '../../src/core/random.js'
import { type ComparableRun, compareRuns } from '../../src/report-builder/compare.js'

/**
 * Seeded simulations of the gate's decisions (docs/statistics.md, "The gate's rules"). Each rate is over `REPS`
 * comparisons; its Monte Carlo standard error is √(r(1 − r)/REPS), at most 0.0098 for a rate near α = 0.05.
 */
const REPS = 500
const ALPHA = 0.05
const MC_SE = Math.sqrt((ALPHA * (1 - ALPHA)) / REPS)
/** Monte Carlo permutation draws per test in these simulations: any count gives a valid p (see CompareOptions). */
const ITERATIONS = 499

const base = { turn: null, agent: 'agent', model: null, dataset: 'hospital', suite: 'repair', datasetSha256: null }

/**
 * One arm of an unchanged stochastic repair agent: every case has 40 errors, each fixed with the case's own
 * probability (0.5 to 0.9, fixed per case); F1 = 2k/(k + 40) for k fixed (no false positives), and the case passes
 * its test when F1 ≥ 0.8. Two arms drawn with different seeds are the same agent run twice. `rows` (from `armRows`)
 * is refilled in place: compareRuns keeps nothing between calls, and 500 repetitions then allocate no rows.
 */
function arm(rng: Random, cdfs: readonly Float64Array[][], trials: number, rows: ComparableRun[]): ComparableRun[] {
  let r = 0
  for (const cases of cdfs) {
    for (const cdf of cases) {
      for (let t = 0; t < trials; t++) {
        // k ~ Bin(40, q) by its inverse CDF: one draw per trial
        const u = rng.next()
        let k = 0
        while (k < 40 && cdf[k]! < u) k++
        const f1 = (2 * k) / (k + 40)
        const row = rows[r++]!
        row.f1 = f1
        row.correct = f1 >= 0.8
      }
    }
  }
  return rows
}

/** The rows of one arm, in the order `arm` fills them (group, case, trial). */
function armRows(groups: number, units: number, trials: number): ComparableRun[] {
  const rows: ComparableRun[] = []
  for (let g = 0; g < groups; g++) {
    for (let i = 0; i < units; i++) {
      for (let t = 0; t < trials; t++) {
        rows.push({ ...base, category: `g${g}`, caseId: `g${g}-c${i}`, trial: t, correct: null, f1: null })
      }
    }
  }
  return rows
}

/** P(K ≤ k) for K ~ Bin(40, q), k = 0…40. */
function binomialCdf(q: number): Float64Array {
  const cdf = new Float64Array(41)
  let pmf = (1 - q) ** 40
  let sum = 0
  for (let k = 0; k <= 40; k++) {
    sum += pmf
    cdf[k] = sum
    pmf *= ((40 - k) / (k + 1)) * (q / (1 - q))
  }
  cdf[40] = 1
  return cdf
}

function falseFailureRate(groups: number, units: number, trials: number, seed: number): number {
  const rng = new Random(seed)
  const difficulty = Array.from({ length: groups }, () =>
    Array.from({ length: units }, () => binomialCdf(0.5 + 0.4 * rng.next())),
  )
  const rowsA = armRows(groups, units, trials)
  const rowsB = armRows(groups, units, trials)
  let failed = 0
  for (let rep = 0; rep < REPS; rep++) {
    const a = arm(rng, difficulty, trials, rowsA)
    const b = arm(rng, difficulty, trials, rowsB)
    if (compareRuns(a, b, { alpha: ALPHA, seed: rep, iterations: ITERATIONS }).regression) failed++
  }
  return failed / REPS
}

describe('an unchanged stochastic agent against itself fails at most α (+ 2 Monte Carlo s.e.) of the time', () => {
  // units × trials, in one group or in several: Holm keeps the family (every group, both metrics, the overall row) at α
  for (const [groups, units, trials] of [
    [1, 1, 1],
    [1, 1, 2],
    [1, 1, 3],
    [1, 10, 1],
    [1, 30, 3],
    [4, 30, 1],
    [10, 30, 1],
  ] as const) {
    it(`${groups > 1 ? `${groups} groups × ` : ''}${units} units × ${trials} trials`, () => {
      const rate = falseFailureRate(groups, units, trials, 1000 * groups + 10 * units + trials)
      expect(rate).toBeLessThanOrEqual(ALPHA + 2 * MC_SE)
    })
  }
})

describe('what must fail does', () => {
  it('a deterministic drop on 1 of 10 units fails every time (500 drops, 0.01 to 0.3, on random units)', () => {
    const rng = new Random(7)
    let detected = 0
    for (let rep = 0; rep < REPS; rep++) {
      const f1s = Array.from({ length: 10 }, () => 0.3 + 0.6 * rng.next())
      const dropped = Math.floor(rng.next() * 10)
      const drop = 0.01 + 0.29 * rng.next()
      // a deterministic agent: 2 identical trials a side
      const side = (after: boolean) =>
        f1s.flatMap((f1, i) =>
          [0, 1].map((trial) => {
            const value = after && i === dropped ? f1 - drop : f1
            return { ...base, category: null, caseId: `c${i}`, trial, correct: value >= 0.5, f1: value }
          }),
        )
      const g = compareRuns(side(false), side(true), { alpha: ALPHA, seed: rep }).overall
      if (g.failed && g.exact.dropped.length === 1 && g.exact.dropped[0] === `c${dropped}`) detected++
    }
    expect(detected).toBe(REPS)
  })

  it('crashes where the baseline scored fail every time, and a crash is F1 0 in the tests', () => {
    const rng = new Random(11)
    let failed = 0
    for (let rep = 0; rep < REPS; rep++) {
      const units = 1 + Math.floor(rng.next() * 20)
      const crashes = 1 + Math.floor(rng.next() * units)
      const a = Array.from({ length: units }, (_, i) => ({
        ...base,
        category: null,
        caseId: `c${i}`,
        trial: 0,
        correct: true,
        f1: 0.5 + 0.4 * rng.next(),
      }))
      const b = a.map((r, i) => (i < crashes ? { ...r, correct: null, f1: null } : r))
      const g = compareRuns(a, b, { alpha: ALPHA, seed: rep, iterations: ITERATIONS }).overall
      if (g.failed && g.failedWhereScored.length === crashes && g.f1!.meanB < g.f1!.meanA) failed++
    }
    expect(failed).toBe(REPS)
  })
})
