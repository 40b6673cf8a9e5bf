import { describe, expect, it } from 'vitest'
import { Random } from '../../src/core/random.js'
import { type ComparableRun, compareRuns } from '../../src/report-builder/compare.js'
import { holmAdjust } from '../../src/stats/holm.js'
import { mcnemarDropPower, mcnemarMde, signFlipMde, tTestPower } from '../../src/stats/power.js'
import { tCdf, tQuantile } from '../../src/stats/t-dist.js'

/** Power simulations: 1000 seeded comparisons each; Monte Carlo s.e. of a rate near 0.8 is √(0.8·0.2/1000) = 0.013. */
const REPS = 1000

const base = {
  turn: null,
  trial: 0,
  agent: 'agent',
  model: null,
  dataset: 'hospital',
  suite: 'repair',
  category: null,
  datasetSha256: null,
}

/** A standard normal draw (Box–Muller). */
function normal(rng: Random): number {
  return Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next())
}

describe("Student's t and Holm, by hand and against R", () => {
  it('t quantiles and CDF (qt, pt)', () => {
    expect(tQuantile(0.975, 1)).toBeCloseTo(12.706204736174698, 8)
    expect(tQuantile(0.975, 4)).toBeCloseTo(2.7764451051977934, 9)
    expect(tQuantile(0.975, 29)).toBeCloseTo(2.045229642132703, 9)
    expect(tQuantile(0.025, 9)).toBeCloseTo(-2.262157162798205, 9)
    // closed form for 3 df: 1/2 + (θ + sin θ cos θ)/π, θ = atan(t/√3)
    const theta = Math.atan(2 / Math.sqrt(3))
    expect(tCdf(2, 3)).toBeCloseTo(0.5 + (theta + Math.sin(theta) * Math.cos(theta)) / Math.PI, 12)
  })

  it('noncentral t power (power.t.test, one sample)', () => {
    // power.t.test(n = 10, delta = 1, sd = 1, type = "one.sample") = 0.8030962
    expect(tTestPower(9, Math.sqrt(10), 0.05)).toBeCloseTo(0.8030962, 5)
  })

  it("Holm's step-down adjustment (p.adjust(method = 'holm'))", () => {
    expect(holmAdjust([0.01, 0.04, 0.03, 0.005])).toEqual([0.03, 0.06, 0.06, 0.02])
    expect(holmAdjust([0.5, 0.5])).toEqual([1, 1])
    expect(holmAdjust([])).toEqual([])
  })
})

describe('power that holds: the gate fires at the reported MDE 0.80 ± 0.05 of the time', () => {
  it('binary units (McNemar): exact power at the MDE is 0.80, and so is the simulated gate', () => {
    for (const units of [10, 20, 30]) {
      const noise = 0.1
      const mde = mcnemarMde({ units, noise, alpha: 0.05 })!
      expect(mcnemarDropPower({ units, noise, drop: mde, alpha: 0.05 })).toBeCloseTo(0.8, 6)
      const rng = new Random(units)
      let fired = 0
      for (let rep = 0; rep < REPS; rep++) {
        const a: ComparableRun[] = []
        const b: ComparableRun[] = []
        for (let i = 0; i < units; i++) {
          const u = rng.next()
          const both = rng.next() < 0.5
          const [x, y] = u < noise / 2 + mde ? [true, false] : u < noise + mde ? [false, true] : [both, both]
          a.push({ ...base, caseId: `c${i}`, correct: x, f1: null })
          b.push({ ...base, caseId: `c${i}`, correct: y, f1: null })
        }
        if (compareRuns(a, b, { seed: rep }).regression) fired++
      }
      expect(Math.abs(fired / REPS - 0.8), `${units} units: ${fired / REPS}`).toBeLessThanOrEqual(0.05)
    }
  })

  it('unit means (sign-flip test on F1, the primary test of a group that measures F1): the noncentral-t MDE', () => {
    for (const units of [10, 20, 30]) {
      const sd = 0.1
      // one group: its primary test (F1) is the family; pass/fail is shown, not gated
      const mde = signFlipMde({ units, sd, alpha: 0.05 })!
      const rng = new Random(100 + units)
      let fired = 0
      for (let rep = 0; rep < REPS; rep++) {
        const a: ComparableRun[] = []
        const b: ComparableRun[] = []
        for (let i = 0; i < units; i++) {
          const f1 = 0.3 + 0.5 * rng.next()
          a.push({ ...base, caseId: `c${i}`, correct: true, f1 })
          b.push({ ...base, caseId: `c${i}`, correct: true, f1: f1 - mde + sd * normal(rng) })
        }
        const cmp = compareRuns(a, b, { seed: rep, iterations: 999 })
        expect(cmp.family.tests).toBe(1)
        if (cmp.regression) fired++
      }
      expect(Math.abs(fired / REPS - 0.8), `${units} units: ${fired / REPS}`).toBeLessThanOrEqual(0.05)
    }
  })

  it('the reported MDE is the one the test that runs needs', () => {
    // 30 binary units, 3 lost and 1 gained: noise 2·min(b, c)/n = 2/30, one test in the family (no F1)
    const a = Array.from({ length: 30 }, (_, i) => ({ ...base, caseId: `c${i}`, correct: i !== 29, f1: null }))
    const b = Array.from({ length: 30 }, (_, i) => ({ ...base, caseId: `c${i}`, correct: i >= 3, f1: null }))
    const g = compareRuns(a, b).overall
    expect(g).toMatchObject({ b: 3, c: 1, holmTests: 1 })
    expect(g.power.mde.score).toBe(mcnemarMde({ units: 30, noise: 2 / 30, alpha: 0.05 }))
  })
})
