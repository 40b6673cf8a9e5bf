import { describe, expect, it } from 'vitest'
import type { RunRecord } from '../../src/core/run-record.js'
import { regressionVerdict } from '../../src/report-builder/baseline.js'
import { compareRuns } from '../../src/report-builder/compare.js'
import { comparisonToJson, renderComparisonMarkdown } from '../../src/report-builder/markdown/compare.js'
import { failedRecord, makeRecord } from '../helpers/stats-records.js'

/** One side's rows for cases c0…c(n−1), trial 0, correct where `pass(i)`. */
function side(n: number, pass: (i: number) => boolean | null, extra: Partial<RunRecord> = {}): RunRecord[] {
  return Array.from({ length: n }, (_, i) => {
    const correct = pass(i)
    return correct === null
      ? failedRecord({ caseId: `c${String(i).padStart(2, '0')}`, ...extra })
      : makeRecord({ caseId: `c${String(i).padStart(2, '0')}`, correct, ...extra })
  })
}

describe('compareRuns: McNemar branches with hand-computed values', () => {
  it('exact branch: b=1, c=9 among 18 pairs', () => {
    // cases 0–4 both right (5), case 5 A right/B wrong (b=1), cases 6–14 A wrong/B right (c=9), 15–17 both wrong (3)
    const a = side(18, (i) => i <= 5)
    const b = side(18, (i) => i <= 4 || (i >= 6 && i <= 14))
    const cmp = compareRuns(a, b)
    const g = cmp.overall
    expect(cmp.mode).toBe('same-arm')
    expect(g).toMatchObject({ n: 18, b: 1, c: 9, bothCorrect: 5, bothWrong: 3, onlyA: 0, onlyB: 0 })
    // p = 2·P(X ≤ 1 | n=10) = 2·11/1024 = 0.021484375
    expect(g.mcnemar!.method).toBe('exact')
    expect(g.p).toBe(0.021484375)
    expect(g.stars).toBe('*')
    // Score A = 6/18, Score B = 14/18, Δ = (9 − 1)/18 = 0.444…
    expect(g.scoreA).toBeCloseTo(6 / 18, 14)
    expect(g.scoreB).toBeCloseTo(14 / 18, 14)
    expect(g.delta).toBeCloseTo(8 / 18, 14)
    expect(g.significantBetter).toBe(true)
    expect(cmp.regression).toBe(false)
    // the other way round B is significantly worse
    const back = compareRuns(b, a)
    expect(back.overall).toMatchObject({ b: 9, c: 1, significantWorse: true })
    expect(back.regression).toBe(true)
  })

  it('χ² branch: b=30, c=10 among 50 pairs', () => {
    // 0–9 both right, 10–39 A right/B wrong (30), 40–49 A wrong/B right (10)
    const a = side(50, (i) => i < 40)
    const b = side(50, (i) => i < 10 || i >= 40)
    const g = compareRuns(a, b).overall
    expect(g).toMatchObject({ n: 50, b: 30, c: 10 })
    // (|30 − 10| − 1)²/40 = 9.025, p = erfc(√4.5125) = 0.002663119259138554
    expect(g.mcnemar).toMatchObject({ method: 'chi2', statistic: 9.025 })
    expect(g.p).toBeCloseTo(0.002663119259138554, 13)
    expect(g.stars).toBe('**')
    // Δ = (10 − 30)/50 = −0.4
    expect(g.delta).toBeCloseTo(-0.4, 14)
    expect(g.significantWorse).toBe(true)
  })

  it('a failed run (correct null) counts as not correct in the pairing', () => {
    const a = side(3, () => true)
    const b = side(3, (i) => (i === 0 ? null : true))
    expect(compareRuns(a, b).overall).toMatchObject({ b: 1, c: 0, bothCorrect: 2 })
  })

  it('pairs F1 with a permutation test and bootstrap interval', () => {
    // three pairs, F1 A = 0.5 each, F1 B = 0.7 each: deltas +0.2 ×3, exact p = 2/8 = 0.25
    const a = side(3, () => false).map((r) => ({ ...r, f1: 0.5 }))
    const b = side(3, () => false).map((r) => ({ ...r, f1: 0.7 }))
    const f1 = compareRuns(a, b).overall.f1!
    expect(f1).toMatchObject({ n: 3, test: 'sign-flip-exact' })
    expect(f1.meanA).toBeCloseTo(0.5, 14)
    expect(f1.meanB).toBeCloseTo(0.7, 14)
    expect(f1.meanDelta).toBeCloseTo(0.2, 14)
    expect(f1.p).toBeCloseTo(0.25, 12)
    expect(f1.low).toBeCloseTo(0.2, 12)
    expect(f1.high).toBeCloseTo(0.2, 12)
  })

  it('is deterministic under a seed', () => {
    const a = side(30, (i) => i % 3 !== 0).map((r, i) => ({ ...r, f1: (i % 7) / 7 }))
    const b = side(30, (i) => i % 4 !== 0).map((r, i) => ({ ...r, f1: (i % 5) / 5 }))
    expect(comparisonToJson(compareRuns(a, b, { seed: 11 }))).toBe(comparisonToJson(compareRuns(a, b, { seed: 11 })))
  })
})

describe('compareRuns: pairing and groups', () => {
  it('groups by agent/model × suite × dataset × category and counts unpaired rows', () => {
    const a = [...side(4, () => true), ...side(2, () => true, { dataset: 'beers', suite: 'beers' })]
    // B lacks case c03 of hospital, has an extra trial 1 for c00 (nested in c00's unit) and a case c09 A lacks
    const b = [
      ...side(3, () => false),
      makeRecord({ caseId: 'c00', trial: 1 }),
      makeRecord({ caseId: 'c09', correct: false }),
      ...side(2, () => true, { dataset: 'beers', suite: 'beers' }),
    ]
    const cmp = compareRuns(a, b)
    expect(cmp.groups.map((g) => [g.group, g.n, g.b, g.c, g.onlyA, g.onlyB])).toEqual([
      ['baseline · beers · repair', 2, 0, 0, 0, 0],
      ['baseline · evals/repair.eval.ts · repair', 3, 3, 0, 1, 1],
    ])
    // c00: A 1 of 1, B 1 of 2 → pass rate 0.5, not binary: the sign-flip test on unit pass rates, named
    expect(cmp.groups[1]).toMatchObject({
      unit: 'case',
      units: 3,
      method: 'paired',
      passFailTest: 'sign-flip-exact',
      mcnemar: null,
      rows: { a: 3, b: 4 },
    })
    expect(cmp.groups[1]!.unitNote).toContain('1 only in A and 1 only in B are left out')
    expect(cmp.groups[1]!.unitNote).toContain('a different number of trials on each side')
    expect(cmp.overall).toMatchObject({ n: 5, b: 3, onlyA: 1, onlyB: 1 })
    // the floor looks at all of B's rows in the group: hospital 1 correct of 5 = 0.2
    expect(cmp.groups[1]!.current).toEqual({ attempted: 5, correct: 1, score: 0.2 })
  })

  it('pairs across agents when the two sides share none (two arms)', () => {
    const a = side(5, () => true, { agent: 'gpt', agentKind: 'model', model: 'gpt-x' })
    const b = side(5, (i) => i < 4, { agent: 'llama', agentKind: 'model', model: 'llama-y' })
    const cmp = compareRuns(a, b)
    expect(cmp.mode).toBe('cross-arm')
    expect(cmp.groups).toHaveLength(1)
    expect(cmp.groups[0]).toMatchObject({
      group: 'evals/repair.eval.ts · repair',
      n: 5,
      b: 1,
      c: 0,
      key: { agent: null },
    })
  })

  it('in same-arm mode pairs only an agent with itself', () => {
    const a = [...side(2, () => true), ...side(2, () => true, { agent: 'other' })]
    const b = side(2, () => false)
    const cmp = compareRuns(a, b)
    expect(cmp.mode).toBe('same-arm')
    expect(cmp.overall).toMatchObject({ n: 2, b: 2, onlyA: 2 })
  })

  it('refuses to pair two rows of one side into the same slot', () => {
    const a = [...side(1, () => true, { agent: 'x' }), ...side(1, () => true, { agent: 'y' })]
    const b = side(1, () => true, { agent: 'z' })
    expect(() => compareRuns(a, b, { labelA: 'a.jsonl' })).toThrow(
      /a\.jsonl: two rows for the same pair \(dataset "hospital", case "c00", turn -, trial 1, agents "x" and "y"\); pick one agent per side with --agents/,
    )
  })

  it('refuses, naming the dataset and both hashes, when paired datasets differ', () => {
    const a = side(2, () => true)
    const other = { dirty: 'c'.repeat(64), clean: 'b'.repeat(64) }
    const b = side(2, () => true, { datasetSha256: other })
    let message = ''
    try {
      compareRuns(a, b)
    } catch (error) {
      message = (error as Error).message
      expect((error as Error).name).toBe('InputError')
    }
    expect(message).toContain('dataset "hospital" differs')
    expect(message).toContain(`A dirty ${'a'.repeat(64)} clean ${'b'.repeat(64)}`)
    expect(message).toContain(`B dirty ${'c'.repeat(64)}`)
  })

  it('validates options', () => {
    expect(() => compareRuns([], [], { alpha: 0 })).toThrow(/alpha/)
    expect(() => compareRuns([], [], { floor: 2 })).toThrow(/floor/)
  })
})

describe('regressionVerdict (the reporter baseline gate)', () => {
  it('a flake does not fail, a real regression does', () => {
    // flake: 20 cases, 2 lost (b=2, c=0): p = 2·P(X ≤ 0 | n=2) = 2·1/4 = 0.5
    const baseFlake = side(20, () => true, { suite: 'flaky' })
    const curFlake = side(20, (i) => i >= 2, { suite: 'flaky' })
    // regression: 20 cases, 12 lost, 1 gained (b=12, c=1): p = 2·(1 + 13)/8192 = 0.00341796875
    const baseReal = side(20, (i) => i < 19, { suite: 'real' })
    const curReal = side(20, (i) => i >= 12, { suite: 'real' })
    const verdicts = regressionVerdict([...baseFlake, ...baseReal], [...curFlake, ...curReal])
    const flake = verdicts.find((v) => v.group.includes('flaky'))!
    const real = verdicts.find((v) => v.group.includes('real'))!
    expect(flake).toMatchObject({ b: 2, c: 0, p: 0.5, significantWorse: false, failed: false })
    expect(flake.delta).toBeCloseTo(-0.1, 14)
    expect(flake.message).toBe(
      'baseline · flaky · repair: no significant change vs baseline (α=0.05): pass/fail McNemar exact b=2 c=0 p=0.5000 · F1 n/a (20 cases); Δscore -0.100, ΔF1 n/a; Holm-corrected over 2 tests',
    )
    expect(real).toMatchObject({ b: 12, c: 1, p: 0.00341796875, significantWorse: true, failed: true })
    // Δ = (1 − 12)/20 = −0.55
    expect(real.message).toBe(
      'baseline · real · repair: regression (pass/fail) vs baseline (α=0.05): pass/fail McNemar exact b=12 c=1 p=0.0034 (Holm 0.0068) · F1 n/a (20 cases); Δscore -0.550, ΔF1 n/a; Holm-corrected over 2 tests',
    )
  })

  it('pairs an agent only with itself: two agents on one dataset against a baseline of another are new, not an error', () => {
    const base = side(6, () => true, { agent: 'x' })
    const cur = [...side(6, () => true, { agent: 'y' }), ...side(6, () => false, { agent: 'z' })]
    const verdicts = regressionVerdict(base, cur)
    expect(verdicts.map((v) => [v.group, v.isNew, v.failed, v.n])).toEqual([
      ['x · evals/repair.eval.ts · repair', false, false, 0],
      ['y · evals/repair.eval.ts · repair', true, false, 0],
      ['z · evals/repair.eval.ts · repair', true, false, 0],
    ])
    // and with the baseline's own agent present, it is paired with itself only
    const both = regressionVerdict([...base, ...side(6, () => true, { agent: 'y' })], cur)
    expect(both.find((v) => v.group.startsWith('y '))).toMatchObject({ n: 6, b: 0, c: 0, isNew: false, failed: false })
  })

  it('fails on a deterministic F1 drop that pass/fail cannot see (0.617 → 0.163, one case, 10 identical trials)', () => {
    const trials = (f1: number) =>
      Array.from({ length: 10 }, (_, i) => makeRecord({ caseId: 'c', trial: i, correct: true, f1 }))
    const [v] = regressionVerdict(trials(0.617), trials(0.163))
    // one unit, every trial identical on each side: an exact change, no p
    expect(v).toMatchObject({
      method: 'deterministic',
      units: 1,
      b: 0,
      c: 0,
      p: null,
      significantWorse: false,
      failed: true,
    })
    expect(v!.f1).toMatchObject({ n: 1, p: null, test: 'deterministic', significantWorse: true })
    expect(v!.message).toContain(
      'deterministic drop (F1) vs baseline (α=0.05): deterministic change on 1 case (every trial identical on each side, 10 vs 10 trials): exact, no p-value',
    )
  })

  it("compares a fixed table's varied trials as two samples (one unit)", () => {
    const trials = (f1s: number[]) => f1s.map((f1, i) => makeRecord({ caseId: 'c', trial: i, correct: f1 > 0.5, f1 }))
    const [v] = regressionVerdict(trials([0.9, 0.8, 0.85, 0.95, 0.9, 0.88]), trials([0.3, 0.2, 0.4, 0.35, 0.25, 0.3]))
    // C(12, 6) = 924 splits; only the observed one and its mirror reach |Δ|: p = 2/924
    expect(v).toMatchObject({ method: 'two-sample', passFailTest: 'two-sample-exact', failed: true })
    expect(v!.f1).toMatchObject({ test: 'two-sample-exact', significantWorse: true })
    expect(v!.f1!.p).toBeCloseTo(2 / 924, 14)
    expect(v!.p).toBeCloseTo(2 / 924, 14)
    expect(v!.message).toContain(
      '1 case: trials as two samples (6 vs 6): pass/fail two-sample permutation exact p=0.0022',
    )
  })

  it('alpha is configurable', () => {
    const base = side(20, () => true)
    const cur = side(20, (i) => i >= 5)
    // b=5, c=0: p = 2/32 = 0.0625: not significant at 0.05, significant at 0.1
    expect(regressionVerdict(base, cur)[0]).toMatchObject({ p: 0.0625, failed: false })
    expect(regressionVerdict(base, cur, { alpha: 0.1 })[0]).toMatchObject({ failed: true })
  })

  it('fails a group below the absolute floor even without significance', () => {
    const base = side(4, (i) => i < 2)
    const cur = side(4, (i) => i < 2)
    const [v] = regressionVerdict(base, cur, { floor: 0.6 })
    expect(v).toMatchObject({ significantWorse: false, belowFloor: true, failed: true })
    expect(v!.message).toContain('Score 0.500 is below the floor 0.6')
    // a group with no baseline rows is new: compared with nothing, never a failure
    const [fresh] = regressionVerdict([], cur, { floor: 0.6 })
    expect(fresh!.message).toBe(
      'baseline · evals/repair.eval.ts · repair: new (no counterpart in the baseline; not compared)',
    )
    expect(fresh).toMatchObject({ isNew: true, failed: false })
  })
})

describe('rendering', () => {
  const a = side(18, (i) => i <= 5).map((r) => ({ ...r, f1: 0.5 }))
  const b = side(18, (i) => i <= 4 || (i >= 6 && i <= 14)).map((r) => ({ ...r, f1: 0.6 }))
  const cmp = compareRuns(b, a, { labelA: 'new.jsonl', labelB: 'old.jsonl' })

  it('Markdown shows the counts, p, stars and the verdict', () => {
    const md = renderComparisonMarkdown(cmp)
    expect(md).toContain('A: `new.jsonl` · B: `old.jsonl`')
    expect(md).toContain(
      '| baseline · evals/repair.eval.ts · repair | 18 cases | paired | 9 | 1 | 0.778 | 0.333 | -0.444 | 0.0215 * (McNemar exact) | 18 | 0.600 | 0.500 | -0.100 [-0.100, -0.100] | <0.001 *** (sign-flip Monte Carlo) | **regression (F1)** |',
    )
    expect(md).toContain('| **overall** | 18 cases | paired | 9 | 1 |')
    expect(md).toContain('**B is worse than A**')
    // F1: 0.6 → 0.5 on 18 pairs, Δ −0.1 everywhere; the sign-flip test (Monte Carlo past 16 pairs) gives p = 1/10001
    expect(md).toContain(
      // F1 is the group's primary metric: pass/fail is shown, not gated
      '- overall: regression (F1) vs A (α=0.05): pass/fail McNemar exact b=9 c=1 p=0.0215 (shown, not gating) · F1 sign-flip Monte Carlo p<0.001 (18 cases); Δscore -0.444, ΔF1 -0.100',
    )
  })

  it('JSON round-trips', () => {
    const parsed = JSON.parse(comparisonToJson(cmp))
    expect(parsed).toMatchObject({
      comparisonVersion: 4,
      mode: 'same-arm',
      regression: true,
      family: { method: 'holm', tests: 1 },
      overall: { b: 9, c: 1, primaryMetric: 'f1' },
    })
  })
})
