import { describe, expect, it } from 'vitest'
import { Random } from '../../src/core/random.js'
import type { RunRecord } from '../../src/core/run-record.js'
import { regressionVerdict } from '../../src/report-builder/baseline.js'
import { type ComparableRun, compareRuns } from '../../src/report-builder/compare.js'
import { minimumDetectableEffect, normalQuantile } from '../../src/stats/power.js'
import { choose, twoSamplePermutationTest, twoSampleSmallestP } from '../../src/stats/two-sample.js'
import { failedRecord, makeRecord } from '../helpers/stats-records.js'

/** The hospital F1 after the regression (not an approximation of √½). */
// biome-ignore lint/suspicious/noApproximativeNumericConstant: a measured F1, not √½
const AFTER = 0.707

/** `trials` identical runs of one fixed table (the hospital case) at the given F1. */
const hospital = (f1: number, trials: number, extra: Partial<RunRecord> = {}) =>
  Array.from({ length: trials }, (_, t) =>
    makeRecord({ caseId: 'hospital repair', trial: t, correct: true, f1, ...extra }),
  )

/** A deterministic agent over `cases` cases: case i passes when `pass(i)`, with F1 `f1(i)`, the same on every trial. */
const deterministic = (cases: number, trials: number, pass: (i: number) => boolean, f1: (i: number) => number) =>
  Array.from({ length: cases * trials }, (_, k) => {
    const i = k % cases
    return makeRecord({
      caseId: `q${String(i).padStart(2, '0')}`,
      trial: Math.floor(k / cases),
      correct: pass(i),
      f1: f1(i),
    })
  })

describe('determinism needs evidence: at least 2 trials a side, all identical', () => {
  it('hospital F1 0.940 → 0.707 fails the gate at 2 and 6 trials, as an exact change', () => {
    for (const trials of [2, 6]) {
      const [v] = regressionVerdict(hospital(0.94, trials), hospital(AFTER, trials))
      expect(v, `${trials} trials`).toMatchObject({
        method: 'deterministic',
        status: 'exact',
        unit: 'case',
        units: 1,
        p: null,
        failed: true,
      })
      expect(v!.f1).toMatchObject({ test: 'deterministic', p: null, significantWorse: true })
      expect(v!.f1!.meanDelta).toBeCloseTo(-0.233, 12)
      expect(v!.message).toContain('deterministic drop (F1)')
      expect(v!.message).not.toContain('underpowered')
    }
  })

  it('with one trial a side nothing shows the agent is deterministic: untestable here, not a failure', () => {
    const [v] = regressionVerdict(hospital(0.94, 1), hospital(AFTER, 1))
    expect(v).toMatchObject({
      method: 'untestable',
      status: 'untestable',
      failed: false,
      reasons: [],
      power: { basis: 'trials', trialsNeeded: 4 },
    })
    expect(v!.message).toContain(
      '1 case with 1 vs 1 trials, too few for a test (add trials: 4 a side, or 2 identical a side for a deterministic agent; or add cases)',
    )
    // the floor still applies
    expect(
      regressionVerdict(hospital(0.94, 1), hospital(AFTER, 1, { correct: false }), { floor: 0.5 })[0],
    ).toMatchObject({ failed: true, reasons: ['below floor'] })
  })

  it('also when the baseline and the candidate ran different numbers of trials', () => {
    const [v] = regressionVerdict(hospital(0.94, 2), hospital(AFTER, 6))
    expect(v).toMatchObject({ method: 'deterministic', failed: true, rows: { a: 2, b: 6 } })
    expect(v!.unitNote).toContain('a different number of trials on each side')
  })

  it('minDelta sets the smallest exact drop that fails (default 0: any drop)', () => {
    const tiny = regressionVerdict(hospital(0.94, 3), hospital(0.939, 3))[0]!
    expect(tiny.failed).toBe(true)
    expect(regressionVerdict(hospital(0.94, 3), hospital(0.939, 3), { minDelta: 0.01 })[0]!.failed).toBe(false)
    expect(regressionVerdict(hospital(0.94, 3), hospital(AFTER, 3), { minDelta: 0.2 })[0]!.failed).toBe(true)
    expect(regressionVerdict(hospital(0.94, 3), hospital(AFTER, 3), { minDelta: 0.3 })[0]!.failed).toBe(false)
    // a deterministic gain is "better", never a failure
    expect(regressionVerdict(hospital(AFTER, 3), hospital(0.94, 3))[0]).toMatchObject({
      failed: false,
      f1: { significantBetter: true },
    })
  })

  it('the floor still applies to a deterministic change', () => {
    const fail = hospital(0.94, 3, { correct: false })
    const [v] = regressionVerdict(fail, fail, { floor: 0.5 })
    expect(v).toMatchObject({ method: 'deterministic', belowFloor: true, failed: true })
  })

  it('over 10 cases: one trial is a test (p = 0.25, passes); 2 or 6 identical trials are exact and name the 3 lost cases', () => {
    const one = compareRuns(
      deterministic(
        10,
        1,
        () => true,
        () => 0.9,
      ),
      deterministic(
        10,
        1,
        (i) => i < 7,
        (i) => (i < 7 ? 0.9 : 0.5),
      ),
    ).overall
    // 3 of 10 cases lost: McNemar on units, b = 3, c = 0, p = 2/8
    expect(one).toMatchObject({
      units: 10,
      method: 'paired',
      passFailTest: 'mcnemar-exact',
      b: 3,
      c: 0,
      p: 0.25,
      failed: false,
    })
    for (const trials of [2, 6]) {
      const v = compareRuns(
        deterministic(
          10,
          trials,
          () => true,
          () => 0.9,
        ),
        deterministic(
          10,
          trials,
          (i) => i < 7,
          (i) => (i < 7 ? 0.9 : 0.5),
        ),
      ).overall
      expect(v, `${trials} trials`).toMatchObject({
        units: 10,
        method: 'deterministic',
        p: null,
        failed: true,
        exact: { units: 10, dropped: ['q07', 'q08', 'q09'] },
      })
      expect(v.reasons).toEqual(['deterministic drop (pass/fail)', 'deterministic drop (F1)'])
    }
  })
})

describe('exact changes where the evidence is exact: an unchanged case never hides a drop', () => {
  /** `cases` cases of 3 identical trials; case 0 falls from 0.940 to 0.707 in B, the others keep their F1. */
  const group = (cases: number, f1: number) =>
    Array.from({ length: cases * 3 }, (_, k) => {
      const i = k % cases
      return makeRecord({
        caseId: `c${i}`,
        trial: Math.floor(k / cases),
        correct: true,
        f1: i === 0 ? f1 : 0.5 + i / 100,
      })
    })

  it('fails alone, among 2 and among 10 otherwise unchanged deterministic cases, naming the case', () => {
    for (const cases of [1, 2, 10]) {
      const g = compareRuns(group(cases, 0.94), group(cases, AFTER)).overall
      expect(g, `${cases} cases`).toMatchObject({
        method: 'deterministic',
        failed: true,
        exact: { units: cases, dropped: ['c0'] },
      })
    }
  })

  it('mixed groups: the exact units enter the paired test as units like the others', () => {
    // case c0 exact (3 identical trials) and dropped; c1…c9 vary from trial to trial and do not change
    const side = (f1: number, seed: number) => {
      const r = new Random(seed)
      return Array.from({ length: 30 }, (_, k) => {
        const i = k % 10
        const value = i === 0 ? f1 : 0.4 + 0.2 * r.next()
        return makeRecord({ caseId: `c${i}`, trial: Math.floor(k / 10), correct: true, f1: value })
      })
    }
    const g = compareRuns(side(0.94, 1), side(AFTER, 2)).overall
    expect(g).toMatchObject({
      method: 'paired',
      passFailTest: 'mcnemar-exact',
      f1: { test: 'sign-flip-exact', n: 10 },
      exact: { units: 1, dropped: [] },
    })
    expect(g.unitNote).toContain(
      '1 of 10 units are deterministic on both sides: they enter the test as units like the others',
    )
  })
})

describe('failures count', () => {
  const f1Run = (caseId: string, trial: number, f1: number) => makeRecord({ caseId, trial, correct: f1 > 0.5, f1 })

  it('a candidate that crashes where the baseline scored fails, and the crash is F1 0 in the tests', () => {
    const [v] = regressionVerdict([f1Run('h', 0, 0.514)], [failedRecord({ caseId: 'h', trial: 0 })])
    expect(v).toMatchObject({ failed: true, failedWhereScored: ['h'], reasons: ['new failures'] })
    expect(v!.f1!.meanDelta).toBeCloseTo(-0.514, 12)
    expect(v!.message).toContain('runs failed (crash, timeout or budget) on h, where the baseline scored on every run')
  })

  it('20 cases with 8 crashes fail (as new failures and in the F1 test)', () => {
    const a = Array.from({ length: 20 }, (_, i) => f1Run(`c${i}`, 0, 0.6 + i / 100))
    const b = a.map((r, i) => (i < 8 ? failedRecord({ caseId: r.caseId }) : r))
    const v = compareRuns(a, b).overall
    expect(v).toMatchObject({ failed: true, failedWhereScored: ['c0', 'c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7'] })
    // 8 units at F1 0 against 12 unchanged: the sign-flip test (Monte Carlo past 16 units) puts p near 2/256
    expect(v.f1).toMatchObject({ test: 'sign-flip-monte-carlo', significantWorse: true })
    expect(v.f1!.p).toBeLessThan(0.01)
  })

  it('nothing scored on either side: the gate fails closed', () => {
    const crashed = [failedRecord({ caseId: 'a' }), failedRecord({ caseId: 'b' })]
    const v = compareRuns(crashed, crashed).overall
    expect(v).toMatchObject({ status: 'nothing-scored', failed: true, reasons: ['nothing scored'] })
  })
})

describe('two copies of one deterministic agent never differ', () => {
  it('one unit or many, any trial count', () => {
    for (const trials of [2, 6]) {
      const one = regressionVerdict(hospital(0.94, trials), hospital(0.94, trials))[0]!
      expect(one).toMatchObject({
        method: 'deterministic',
        failed: false,
        significantWorse: false,
        significantBetter: false,
      })
      expect(one.message).toContain('no deterministic drop')
    }
    for (const trials of [1, 2, 6]) {
      const many = compareRuns(
        deterministic(
          17,
          trials,
          (i) => i % 3 > 0,
          (i) => i / 17,
        ),
        deterministic(
          17,
          trials,
          (i) => i % 3 > 0,
          (i) => i / 17,
        ),
      )
      expect(many.overall).toMatchObject({ units: 17, b: 0, c: 0, failed: false, f1: { meanDelta: 0 } })
    }
  })
})

describe('a stochastic agent against itself', () => {
  it('fails at about α over 300 seeded repetitions (12 cases × 3 trials, new seeds for each arm)', () => {
    const alpha = 0.05
    const reps = 300
    const cases = 12
    const trials = 3
    const rng = new Random(2024)
    // each case has its own difficulty; the agent passes a trial with that probability and its F1 scatters around it
    const difficulty = Array.from({ length: cases }, () => 0.15 + 0.7 * rng.next())
    const arm = (r: Random): ComparableRun[] =>
      Array.from({ length: cases * trials }, (_, k) => {
        const i = k % cases
        const q = difficulty[i]!
        const f1 = Math.min(1, Math.max(0, q + 0.25 * (r.next() - 0.5)))
        return { ...base, caseId: `q${i}`, trial: Math.floor(k / cases), correct: r.next() < q, f1 }
      })
    const base = makeRecord()
    let passFail = 0
    let f1 = 0
    let failed = 0
    for (let rep = 0; rep < reps; rep++) {
      const a = arm(new Random(10_000 + 2 * rep))
      const b = arm(new Random(10_001 + 2 * rep))
      const g = compareRuns(a, b, { alpha, seed: rep, pairing: 'same-arm' }).groups[0]!
      expect(g).toMatchObject({ units: cases, method: 'paired' })
      if (g.p! < alpha) passFail++
      if (g.f1!.p! < alpha) f1++
      if (g.failed) failed++
    }
    // two-sided tests at α: each rejects about α of the time (SD of the rate ≈ 0.0126 at 300 repetitions; the
    // exact tests are discrete, so a little below α); the gate fails only on drops of either test
    expect(passFail / reps).toBeGreaterThan(0.015)
    expect(passFail / reps).toBeLessThan(0.09)
    expect(f1 / reps).toBeGreaterThan(0.015)
    expect(f1 / reps).toBeLessThan(0.09)
    expect(failed / reps).toBeLessThan(0.09)
  })
})

describe('one unit with varied trials: two samples', () => {
  it('the two-sample permutation test by hand', () => {
    // C(6, 3) = 20 splits; only all-ones-in-A and all-ones-in-B reach |Δ| = 1: p = 2/20
    expect(twoSamplePermutationTest([0, 0, 0], [1, 1, 1], { seed: 1 })).toMatchObject({
      p: 0.1,
      method: 'exact',
      meanDelta: 1,
    })
    expect(twoSamplePermutationTest([1, 0, 1], [1, 0, 1], { seed: 1 }).p).toBe(1)
    expect(twoSampleSmallestP(3, 3)).toBe(0.1)
    expect(twoSampleSmallestP(1, 1)).toBe(1)
    expect(choose(20, 10)).toBe(184_756)
    // past 65 536 splits it samples: p never 0
    const big = twoSamplePermutationTest(new Array(10).fill(0), new Array(10).fill(1), { seed: 3, iterations: 999 })
    expect(big).toMatchObject({ method: 'monte-carlo', p: 1 / 1000 })
  })

  it('one case with 2 and 2 varied trials is untestable here and says how many trials would do', () => {
    const a = [
      makeRecord({ caseId: 'h', trial: 0, correct: true, f1: 0.9 }),
      makeRecord({ caseId: 'h', trial: 1, correct: false, f1: 0.4 }),
    ]
    const b = [
      makeRecord({ caseId: 'h', trial: 0, correct: false, f1: 0.3 }),
      makeRecord({ caseId: 'h', trial: 1, correct: false, f1: 0.35 }),
    ]
    const [v] = regressionVerdict(a, b)
    expect(v).toMatchObject({
      method: 'untestable',
      failed: false,
      power: { basis: 'trials', canReachAlpha: false, trialsNeeded: 4 },
    })
    expect(v!.power.smallestP).toBeCloseTo(1 / 3, 12)
    expect(v!.message).toContain('untestable here vs baseline')
    expect(v!.message).toContain(
      '(add trials: 4 a side, or 2 identical a side for a deterministic agent; or add cases)',
    )
  })
})

describe('conversations pair by conversation', () => {
  it('turns are clustered: 6 conversations × 4 turns are 6 units', () => {
    const chats = (lost: number) =>
      Array.from({ length: 24 }, (_, k) =>
        makeRecord({ caseId: `chat${k % 6}`, turn: Math.floor(k / 6), correct: k % 6 >= lost }),
      )
    const g = compareRuns(chats(0), chats(6)).overall
    // one trial of each conversation: its 4 turns are not 4 trials, so nothing is exact
    expect(g).toMatchObject({
      unit: 'conversation',
      units: 6,
      rows: { a: 24, b: 24 },
      method: 'paired',
      passFailTest: 'mcnemar-exact',
      b: 6,
      c: 0,
      p: 0.03125,
      failed: true,
    })
    // 24 turn pairs would have claimed p = 2/2^24; the conversations hold the information of 6
  })
})

describe('bad input: a documented rule, named in the output', () => {
  it('mixed units in one group', () => {
    const a = [...hospital(0.9, 2), makeRecord({ caseId: 'chat', turn: 0 }), makeRecord({ caseId: 'chat', turn: 1 })]
    const g = compareRuns(a, a).overall
    // the case's 2 identical trials are exact, the conversation's single trial is not: both enter the paired test
    expect(g).toMatchObject({ unit: 'mixed', units: 2, method: 'paired', exact: { units: 1 } })
    expect(g.unitNote).toContain('mixed units (1 case, 1 conversation): each counts as one unit')
  })

  it('arms with different unit sets pair only the units both have, and say so', () => {
    const a = deterministic(
      8,
      1,
      () => true,
      () => 1,
    )
    const b = deterministic(
      8,
      1,
      () => true,
      () => 1,
    )
      .filter((r) => r.caseId !== 'q07')
      .concat(makeRecord({ caseId: 'extra' }))
    const g = compareRuns(a, b).overall
    expect(g).toMatchObject({ units: 7, onlyA: 1, onlyB: 1 })
    expect(g.unitNote).toContain(
      'the sides hold different units: 1 only in A and 1 only in B are left out; the tests use the 7 on both',
    )
  })

  it('a generated dataset pairs only with the same data; a changed fixed table is refused', () => {
    const gen = (trial: number, x: string) =>
      makeRecord({ caseId: 'synthetic', trial, datasetSha256: { dirty: x.repeat(64), clean: x.repeat(64) } })
    const g = compareRuns([gen(0, '1'), gen(1, '2')], [gen(0, '1'), gen(1, '2')]).overall
    expect(g).toMatchObject({ unit: 'generated data', units: 2 })
    expect(() => compareRuns([gen(0, '1')], [gen(0, '9')])).toThrow(/refusing to compare: dataset "hospital" differs/)
  })

  it('refuses minDelta outside [0, 1]', () => {
    expect(() => compareRuns([], [], { minDelta: -0.1 })).toThrow(/minDelta must be in \[0, 1\]/)
  })
})

describe('power in units (Miller 2024)', () => {
  it('the minimum detectable effect by hand', () => {
    expect(normalQuantile(0.975)).toBeCloseTo(1.959963984540054, 8)
    expect(normalQuantile(0.8)).toBeCloseTo(0.8416212335729143, 8)
    expect(normalQuantile(0.001)).toBeCloseTo(-3.090232306167813, 7)
    // (1.95996 + 0.84162) · 0.5 / √100
    expect(minimumDetectableEffect({ units: 100, sd: 0.5, alpha: 0.05 })).toBeCloseTo(0.140079, 5)
    // 4 units cannot reach α = 0.05 at all: nothing is detectable
    expect(minimumDetectableEffect({ units: 4, sd: 0.5, alpha: 0.05 })).toBeNull()
  })

  it('each group reports its units, what they can detect, and the units needed', () => {
    const a = deterministic(
      30,
      1,
      (i) => i % 2 === 0,
      (i) => (i % 10) / 10,
    )
    const b = deterministic(
      30,
      1,
      (i) => i % 2 === 0 && i % 10 !== 0,
      (i) => (i % 7) / 7,
    )
    const g = compareRuns(a, b).overall
    expect(g.power).toMatchObject({ basis: 'units', units: 30, unitsNeeded: 6, canReachAlpha: true })
    // F1 is the group's primary (gating) test: the MDE is stated for it, not for the pass/fail test shown beside it
    expect(g.primaryMetric).toBe('f1')
    expect(g.power.mde.score).toBeNull()
    expect(g.power.mde.f1).toBeGreaterThan(0)
    const four = compareRuns(
      deterministic(
        4,
        1,
        () => true,
        () => 1,
      ),
      deterministic(
        4,
        1,
        () => false,
        () => 0,
      ),
    ).overall
    expect(four.power).toMatchObject({
      units: 4,
      smallestP: 0.125,
      canReachAlpha: false,
      mde: { score: null, f1: null },
    })
  })
})
