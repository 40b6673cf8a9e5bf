import { describe, expect, it } from 'vitest'
import { Random } from '../../src/core/random.js'
import { clusteredProportion, clusterTMeanInterval } from '../../src/stats/clustered.js'

/**
 * Coverage of the clustered intervals (nominal 95%) by seeded simulation: 1000 samples of G units with 3 trials
 * each; every unit has its own pass rate (uniform 0.2–0.9) and its own F1 level (uniform 0.3–0.8, trials ±0.15
 * around it), so the true Score and F1 are 0.55. The Monte Carlo s.e. of a coverage near 0.95 is
 * √(0.95·0.05/1000) = 0.007.
 */
const REPS = 1000
const TRUTH = 0.55

function coverage(units: number, seed: number): { score: number; f1: number } {
  const rng = new Random(seed)
  let score = 0
  let f1 = 0
  const clusters = Array.from({ length: units * 3 }, (_, i) => `u${Math.floor(i / 3)}`)
  for (let rep = 0; rep < REPS; rep++) {
    const passes: boolean[] = []
    const values: number[] = []
    for (let u = 0; u < units; u++) {
      const rate = 0.2 + 0.7 * rng.next()
      const level = 0.3 + 0.5 * rng.next()
      for (let t = 0; t < 3; t++) {
        passes.push(rng.next() < rate)
        values.push(level + 0.3 * (rng.next() - 0.5))
      }
    }
    const s = clusteredProportion(passes, clusters)
    if (s.low <= TRUTH && TRUTH <= s.high) score++
    const m = clusterTMeanInterval(values, clusters, { seed: rep, bounds: [0, 1] })
    if (m.low! <= TRUTH && TRUTH <= m.high!) f1++
  }
  return { score: score / REPS, f1: f1 / REPS }
}

describe('small-sample intervals cover at least 90% from 5 units up (and at 3)', () => {
  for (const units of [3, 5, 10, 30]) {
    it(`${units} units × 3 trials`, () => {
      const c = coverage(units, units)
      expect(c.f1, `F1 ${c.f1}`).toBeGreaterThanOrEqual(0.9)
      expect(c.score, `Score ${c.score}`).toBeGreaterThanOrEqual(0.9)
      // and not absurdly wide
      expect(c.f1).toBeLessThanOrEqual(0.99)
    })
  }
})
