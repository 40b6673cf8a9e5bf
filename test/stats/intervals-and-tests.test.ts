import { describe, expect, it } from 'vitest'
import {
  binomialHalfCdf,
  bootstrapMeanInterval,
  chiSquareSurvival1,
  erfc,
  formatInterval,
  formatNumber,
  formatP,
  formatSigned,
  mcnemar,
  pairedBootstrap,
  pairedPermutationTest,
  passAtK,
  passHatK,
  quantileSorted,
  stars,
  wilsonInterval,
} from '../../src/stats/index.js'

describe('wilsonInterval', () => {
  it('8 of 10 gives the textbook interval', () => {
    // z² = 3.841458820694124, p̂ = 0.8, n = 10
    // denominator = 1 + z²/n = 1.3841458820694124
    // center = (0.8 + z²/20) / 1.38414588 = 0.99207294 / 1.38414588 = 0.71674016
    // half = z·√(0.8·0.2/10 + z²/400) / 1.38414588 = 1.95996·√0.02560365 / 1.38414588 = 0.22657769
    const w = wilsonInterval(8, 10)
    expect(w.point).toBe(0.8)
    expect(w.low).toBeCloseTo(0.4901624715, 9)
    expect(w.high).toBeCloseTo(0.9433178485, 9)
  })

  it('0 of 0 has no point and the whole unit interval', () => {
    expect(wilsonInterval(0, 0)).toEqual({ point: null, low: 0, high: 1 })
  })

  it('pins the bounds to exactly 0 and 1 at the extremes', () => {
    // 0/10: high = 2·(z²/20)/1.38414588 = 0.38414588/1.38414588 = 0.27753280
    expect(wilsonInterval(0, 10)).toEqual({ point: 0, low: 0, high: expect.closeTo(0.277532799863, 10) })
    const all = wilsonInterval(10, 10)
    expect(all.high).toBe(1)
    expect(all.low).toBeCloseTo(0.722467200137, 10)
  })

  it('rejects impossible counts', () => {
    expect(() => wilsonInterval(3, 2)).toThrow(/0 ≤ successes ≤ n/)
    expect(() => wilsonInterval(-1, 2)).toThrow()
    expect(() => wilsonInterval(1.5, 2)).toThrow()
  })
})

describe('special functions', () => {
  it('erfc matches reference values across the range', () => {
    expect(erfc(0)).toBe(1)
    expect(erfc(0.1)).toBeCloseTo(0.8875370839817152, 14)
    expect(erfc(1)).toBeCloseTo(0.15729920705028513, 14)
    // relative accuracy in the far tail
    expect(erfc(5) / 1.5374597944280351e-12).toBeCloseTo(1, 12)
    expect(erfc(10) / 2.088487583762545e-45).toBeCloseTo(1, 12)
    expect(erfc(-1)).toBeCloseTo(2 - 0.15729920705028513, 14)
  })

  it('χ²(1) survival is 0.05 at the 95% critical value z²', () => {
    expect(chiSquareSurvival1(1.959963984540054 ** 2)).toBeCloseTo(0.05, 13)
    expect(chiSquareSurvival1(0)).toBe(1)
  })

  it('binomial(n, 1/2) CDF is exact for small n', () => {
    // P(X ≤ 1), n = 10: (C(10,0) + C(10,1)) / 1024 = 11/1024
    expect(binomialHalfCdf(1, 10)).toBe(11 / 1024)
    expect(binomialHalfCdf(10, 10)).toBe(1)
    expect(binomialHalfCdf(-1, 10)).toBe(0)
    // large-n branch agrees with symmetry: P(X ≤ 49) for n = 99 is exactly 1/2
    expect(binomialHalfCdf(49, 99)).toBeCloseTo(0.5, 12)
  })
})

describe('mcnemar', () => {
  it('uses the exact binomial for b + c ≤ 25', () => {
    // b=1, c=9, n=10: p = 2·P(X ≤ 1) = 2·11/1024 = 22/1024 = 0.021484375
    expect(mcnemar(1, 9)).toEqual({ b: 1, c: 9, n: 10, method: 'exact', statistic: 1, p: 0.021484375 })
    // b=5, c=20, n=25 (the last exact case): 2·Σ_{i≤5} C(25,i) / 2^25
    // = 2·(1 + 25 + 300 + 2300 + 12650 + 53130) / 33554432 = 2·68406/33554432 = 0.004077315330505371
    const edge = mcnemar(5, 20)
    expect(edge.method).toBe('exact')
    expect(edge.p).toBe(136812 / 33554432)
  })

  it('caps the exact p at 1 and handles no discordant pairs', () => {
    // b=c=3: 2·P(X ≤ 3 | n=6) = 2·42/64 > 1 → 1
    expect(mcnemar(3, 3).p).toBe(1)
    expect(mcnemar(0, 0)).toMatchObject({ n: 0, method: 'exact', p: 1 })
  })

  it('uses the continuity-corrected χ² above 25 discordant pairs', () => {
    // b=30, c=10: (|30−10| − 1)² / 40 = 361/40 = 9.025; p = erfc(√(9.025/2)) = 0.002663119259138554
    const r = mcnemar(30, 10)
    expect(r.method).toBe('chi2')
    expect(r.statistic).toBe(9.025)
    expect(r.p).toBeCloseTo(0.002663119259138554, 13)
    // b=18, c=8, n=26 (first χ² case): (10 − 1)²/26 = 81/26 = 3.1153846; p = 0.07755616674366551
    const first = mcnemar(18, 8)
    expect(first.method).toBe('chi2')
    expect(first.statistic).toBeCloseTo(81 / 26, 14)
    expect(first.p).toBeCloseTo(0.07755616674366551, 13)
    // symmetric in b and c
    expect(mcnemar(8, 18).p).toBe(first.p)
    // b = c: no correction, statistic 0, p = 1 (as R's mcnemar.test)
    expect(mcnemar(13, 13)).toMatchObject({ statistic: 0, p: 1 })
  })

  it('rejects non-counts', () => {
    expect(() => mcnemar(-1, 2)).toThrow(/b must be a non-negative integer/)
    expect(() => mcnemar(1, 0.5)).toThrow(/c must be/)
  })
})

describe('bootstrap', () => {
  const values = [0.1, 0.4, 0.35, 0.8, 0.9, 0.55, 0.62, 0.71, 0.2, 1]

  it('gives constant values the means a resample would (the shortcut skips only the draws)', () => {
    const sumOf = (v: number, n: number) => {
      let sum = 0
      for (let i = 0; i < n; i++) sum += v
      return sum / n
    }
    for (const v of [0, 1, 0.1, 1 / 3]) {
      const constant = Array.from({ length: 7 }, () => v)
      const interval = bootstrapMeanInterval(constant, { seed: 5, iterations: 50 })
      expect(interval.low).toBe(sumOf(v, 7))
      expect(interval.high).toBe(sumOf(v, 7))
      expect(pairedBootstrap(constant, { seed: 5, iterations: 50 })).toMatchObject({
        low: sumOf(v, 7),
        high: sumOf(v, 7),
      })
    }
    // One differing value takes the drawn path.
    const mixed = bootstrapMeanInterval([1, 1, 1, 1, 0], { seed: 5 })
    expect(mixed.low!).toBeLessThan(mixed.high!)
  })

  it('is deterministic under a seed and moves with the seed', () => {
    const a = bootstrapMeanInterval(values, { seed: 42 })
    const b = bootstrapMeanInterval(values, { seed: 42 })
    const c = bootstrapMeanInterval(values, { seed: 43 })
    expect(a).toEqual(b)
    expect(c.low).not.toBe(a.low)
    // the mean itself is the sample mean: 5.63 / 10
    expect(a.mean).toBeCloseTo(0.563, 12)
    expect(a.n).toBe(10)
    expect(a.low!).toBeLessThan(0.563)
    expect(a.high!).toBeGreaterThan(0.563)
    // sd ≈ 0.30, se ≈ 0.095: a 95% interval spans roughly ±0.19
    expect(a.high! - a.low!).toBeGreaterThan(0.25)
    expect(a.high! - a.low!).toBeLessThan(0.5)
  })

  it('collapses on constant data and reports nothing for no data', () => {
    expect(bootstrapMeanInterval([0.5, 0.5, 0.5], { seed: 1 })).toEqual({ mean: 0.5, low: 0.5, high: 0.5, n: 3 })
    expect(bootstrapMeanInterval([], { seed: 1 })).toEqual({ mean: null, low: null, high: null, n: 0 })
  })

  it('rejects non-finite values and bad options', () => {
    expect(() => bootstrapMeanInterval([1, Number.NaN], { seed: 1 })).toThrow(/value 1/)
    expect(() => bootstrapMeanInterval([1], { seed: 1, iterations: 0 })).toThrow(/iterations/)
    expect(() => bootstrapMeanInterval([1], { seed: 1, level: 1 })).toThrow(/level/)
  })

  it('paired bootstrap: p by interval inversion', () => {
    // all deltas positive: no resample mean is ≤ 0, p = (2·0 + 1)/(2000 + 1)
    const up = pairedBootstrap([0.1, 0.2, 0.3, 0.1], { seed: 7 })
    expect(up.p).toBeCloseTo(1 / 2001, 15)
    expect(up.mean).toBeCloseTo(0.175, 15)
    expect(pairedBootstrap([0, 0, 0], { seed: 7 }).p).toBe(1)
    expect(pairedBootstrap([], { seed: 7 })).toMatchObject({ n: 0, p: 1, mean: null })
  })
})

describe('pairedPermutationTest', () => {
  it('enumerates every sign pattern for small n', () => {
    // deltas b − a = [+0.2, +0.2, +0.2]: |sum| = 0.6 reached only by all + or all −: p = 2/8 = 0.25
    const r = pairedPermutationTest([0.5, 0.5, 0.5], [0.7, 0.7, 0.7], { seed: 1 })
    expect(r.method).toBe('exact')
    expect(r.p).toBeCloseTo(0.25, 12)
    expect(r.meanDelta).toBeCloseTo(0.2, 12)
    // deltas [1, −1]: sums over patterns are 0, 2, −2, 0 → |S| ≥ 0 always: p = 1
    expect(pairedPermutationTest([0, 1], [1, 0], { seed: 1 }).p).toBe(1)
    // deltas [3, 1, 1]: |S| over 8 patterns = 5,3,1,1 (and mirrors) → |S| ≥ 5 in 2 of 8 → 0.25
    expect(pairedPermutationTest([0, 0, 0], [3, 1, 1], { seed: 1 }).p).toBe(0.25)
  })

  it('falls back to seeded random flips for large n, deterministically', () => {
    const a = Array.from({ length: 40 }, (_, i) => (i % 5) / 5)
    const b = a.map((v, i) => v + (i % 3 === 0 ? 0.1 : 0.02))
    const r1 = pairedPermutationTest(a, b, { seed: 9, iterations: 2000 })
    const r2 = pairedPermutationTest(a, b, { seed: 9, iterations: 2000 })
    expect(r1).toEqual(r2)
    expect(r1.method).toBe('monte-carlo')
    // every delta is positive: no flip reaches the observed sum except all-plus, so p = 1/2001
    expect(r1.p).toBeCloseTo(1 / 2001, 15)
    expect(r1.low!).toBeGreaterThan(0)
  })

  it('refuses unequal lengths and reports nothing for no pairs', () => {
    expect(() => pairedPermutationTest([1], [1, 2], { seed: 1 })).toThrow(/equal lengths/)
    expect(pairedPermutationTest([], [], { seed: 1 })).toMatchObject({ n: 0, meanDelta: null, p: 1 })
  })
})

describe('pass@k and pass^k', () => {
  it('matches the closed forms', () => {
    // n=5, c=2, k=2: 1 − C(3,2)/C(5,2) = 1 − 3/10 = 0.7
    expect(passAtK(5, 2, 2)).toBeCloseTo(0.7, 14)
    // k=1 is the pass rate
    expect(passAtK(5, 2, 1)).toBeCloseTo(0.4, 14)
    // n − c < k: some passing trial is always drawn
    expect(passAtK(5, 4, 2)).toBe(1)
    expect(passAtK(5, 0, 3)).toBe(0)
    // pass^k: C(2,2)/C(5,2) = 1/10
    expect(passHatK(5, 2, 2)).toBeCloseTo(0.1, 14)
    expect(passHatK(5, 2, 3)).toBe(0)
    expect(passHatK(4, 4, 4)).toBe(1)
    // n=10, c=7, k=3: C(7,3)/C(10,3) = 35/120
    expect(passHatK(10, 7, 3)).toBeCloseTo(35 / 120, 14)
  })

  it('rejects k outside 1..n', () => {
    expect(() => passAtK(3, 1, 4)).toThrow(/1 ≤ k ≤ n/)
    expect(() => passHatK(3, 4, 1)).toThrow()
  })
})

describe('formatting', () => {
  it('formats intervals with fixed digits', () => {
    expect(formatInterval(0.8123, 0.78, 0.84)).toBe('0.812 [0.780, 0.840]')
    expect(formatInterval(null, 0, 1)).toBe('n/a')
    expect(formatInterval(0.5, null, null)).toBe('0.500')
    expect(formatNumber(-0.0001)).toBe('0.000')
    expect(formatSigned(0.05)).toBe('+0.050')
    expect(formatSigned(-0.05)).toBe('-0.050')
    expect(formatSigned(0)).toBe('0.000')
    expect(formatP(0.021484375)).toBe('0.0215')
    expect(formatP(1e-7)).toBe('<0.001')
    // p agrees with its stars: no '0.0010' beside '***', no '0.0500' beside '*'
    expect([formatP(0.00099), stars(0.00099)]).toEqual(['<0.001', '***'])
    expect([formatP(0.049996), stars(0.049996)]).toEqual(['<0.05', '*'])
    expect([formatP(0.0099996), stars(0.0099996)]).toEqual(['<0.01', '**'])
    expect(formatP(0.05)).toBe('0.0500')
    expect(formatP(0.0015)).toBe('0.0015')
  })

  it('stars by threshold', () => {
    expect(stars(0.0005)).toBe('***')
    expect(stars(0.001)).toBe('**')
    expect(stars(0.009)).toBe('**')
    expect(stars(0.01)).toBe('*')
    expect(stars(0.049)).toBe('*')
    expect(stars(0.05)).toBe('')
    expect(stars(Number.NaN)).toBe('')
  })

  it('type-7 quantiles interpolate', () => {
    // [1,2,3,4]: h = 3·0.25 = 0.75 → 1 + 0.75·(2 − 1) = 1.75
    expect(quantileSorted([1, 2, 3, 4], 0.25)).toBe(1.75)
    expect(quantileSorted([5], 0.975)).toBe(5)
  })
})

describe('power of the paired tests', () => {
  it('the smallest reachable p is 2·0.5^n; the docs table of units needed per alpha', async () => {
    const { pairedPower, pairsNeeded, smallestReachableP } = await import('../../src/stats/power.js')
    expect(smallestReachableP(3)).toBe(0.25)
    expect(smallestReachableP(6)).toBe(0.03125)
    expect(smallestReachableP(0)).toBe(1)
    expect([0.1, 0.05, 0.01, 0.001].map(pairsNeeded)).toEqual([5, 6, 8, 11])
    expect(pairedPower(3, 0.05)).toEqual({ units: 3, smallestP: 0.25, unitsNeeded: 6, canReachAlpha: false })
    expect(pairedPower(6, 0.05).canReachAlpha).toBe(true)
    // docs/ci.md and docs/statistics.md state the same numbers
    const { readFileSync } = await import('node:fs')
    for (const doc of ['../../docs/ci.md', '../../docs/statistics.md']) {
      const text = readFileSync(new URL(doc, import.meta.url), 'utf8')
      for (const row of [
        '| 0.10 | 5 | 4 units: 0.125 |',
        '| 0.05 | 6 | 5 units: 0.0625 (3 units: 0.25) |',
        '| 0.01 | 8 | 7 units: 0.0156 |',
        '| 0.001 | 11 | 10 units: 0.0020 |',
      ]) {
        expect(text).toContain(row)
      }
    }
  })
})
