import { trialLabel } from '../core/trial-label.js'
import { InputError } from '../core/errors.js'
import type { RunRecord } from '../core/run-record.js'
import { stars } from '../stats/number-format.js'
import { type McNemarResult, mcnemar } from '../stats/mcnemar.js'
import { signFlipTest } from '../stats/permutation.js'
import { minimumDetectableEffect, type Power, pairedPower, sampleSd } from '../stats/power.js'
import { mean } from '../stats/quantile.js'
import { twoSamplePermutationTest, twoSampleSmallestP } from '../stats/two-sample.js'
import { assignUnits, plural as pluralUnit, type UnitKind } from '../stats/units.js'
import { compareGroupKeys, distinctLabels, groupName } from './aggregate.js'

export const COMPARISON_VERSION = 3

/** What a paired comparison reads from a run: its identity, its judgment and its F1. */
export type ComparableRun = Pick<
  RunRecord,
  'caseId' | 'turn' | 'trial' | 'agent' | 'model' | 'dataset' | 'suite' | 'category' | 'correct' | 'f1' | 'datasetSha256'
>

export interface CompareOptions {
  /** Significance level for "significantly worse/better". Default 0.05. */
  alpha?: number
  /** Seed for the permutation tests and bootstrap. Default 0. */
  seed?: number
  /** Absolute Score floor for side B: a group whose B Score is below it fails whatever the test says. */
  floor?: number
  /**
   * The smallest drop a deterministic change must exceed to fail (Score and F1 alike). Default 0: any
   * deterministic drop fails.
   */
  minDelta?: number
  /** Names of the two sides in messages and Markdown. Default 'A' and 'B'. */
  labelA?: string
  labelB?: string
  /**
   * `auto` (default): same-arm when the sides share an agent/model, else cross-arm. `same-arm` always pairs an
   * agent only with itself (the baseline gate: a group without a counterpart is new, never paired across agents).
   */
  pairing?: 'auto' | 'same-arm'
}

/**
 * What a group is. In same-arm mode (the two sides share at least one agent/model) groups are
 * agent/model × suite × dataset × category and only the same agent is paired with itself; in cross-arm
 * mode (no agent in common: two arms) agent and model are null and pairs cross agents.
 */
export interface ComparisonGroupKey {
  agent: string | null
  model: string | null
  dataset: string
  suite: string
  category: string | null
}

/**
 * How a group was compared:
 * - `paired`: two or more units on both sides: per unit the mean over its trials, then a paired test across units;
 * - `two-sample`: one unit (a fixed table): the two sides' trials as two samples of that unit;
 * - `deterministic`: one unit and every trial of each side identical: the change is exact, no p-value;
 * - `none`: no unit on both sides.
 */
export type ComparisonMethod = 'paired' | 'two-sample' | 'deterministic' | 'none'

/** The test behind a p-value. */
export type TestMethod =
  | 'mcnemar-exact'
  | 'mcnemar-chi2'
  | 'sign-flip-exact'
  | 'sign-flip-monte-carlo'
  | 'two-sample-exact'
  | 'two-sample-monte-carlo'
  | 'deterministic'
  | 'none'

export interface F1Comparison {
  /** Units (or, for one unit, B's trials) with an F1 on both sides. */
  n: number
  meanA: number
  meanB: number
  /** Mean of F1(B) − F1(A) over units, with its percentile-bootstrap 95% interval (both ends the delta when exact). */
  meanDelta: number
  low: number
  high: number
  /** Two-sided p; null for a deterministic change. */
  p: number | null
  stars: string
  test: TestMethod
  /** Paired: significantly worse at alpha. Deterministic: the drop exceeds minDelta. */
  significantWorse: boolean
  significantBetter: boolean
}

export interface PairedGroupComparison {
  /** Display name (the leaderboard's group name in same-arm mode). */
  group: string
  /** null for the overall row. */
  key: ComparisonGroupKey | null
  /** What one unit is (see `stats/units.ts`): `case`, `conversation`, `generated data` or `mixed`. */
  unit: UnitKind | 'mixed'
  /** Units on both sides: the units the tests used. */
  units: number
  /** The same as `units` (the count every verdict reads). */
  n: number
  /** The rule applied to this group's units when they are mixed, unequal or not the same on both sides; else null. */
  unitNote: string | null
  method: ComparisonMethod
  /** Rows of the paired units on each side. */
  rows: { a: number; b: number }
  /** Units where A did better on pass/fail than B (for binary units: A correct, B not). */
  b: number
  /** Units where B did better than A. */
  c: number
  bothCorrect: number
  bothWrong: number
  /** Units on one side only, left out of the tests. */
  onlyA: number
  onlyB: number
  /** Score over the paired units: the mean of each unit's pass rate (a run without a judgment counts as not correct). */
  scoreA: number | null
  scoreB: number | null
  /** scoreB − scoreA. */
  delta: number | null
  /** The pass/fail test: McNemar on units when every unit's outcome is binary, else the sign-flip test on pass rates. */
  passFailTest: TestMethod
  /** McNemar's counts and statistic, when McNemar was the test. */
  mcnemar: McNemarResult | null
  /** Two-sided p of the pass/fail test; null for a deterministic change or no pairs. */
  p: number | null
  stars: string
  /** Pass/fail significantly worse (deterministic: the drop exceeds minDelta). */
  significantWorse: boolean
  significantBetter: boolean
  f1: F1Comparison | null
  /** Side B's Score over all its rows in the group (paired or not): what the floor is checked on. */
  current: { attempted: number; correct: number; score: number | null }
  belowFloor: boolean
  /** Whether these units can reach alpha at all, how many would, and what they can detect. */
  power: GroupPower
  /** B has rows here and A none: a new group, compared with nothing and never a failure. */
  isNew: boolean
  /** significantly worse on pass/fail or on F1, a deterministic drop, or below the floor. */
  failed: boolean
}

export interface GroupPower extends Power {
  /** How the smallest p was found: over paired units, or over the trials of one unit. */
  basis: 'units' | 'trials' | 'exact'
  /** Minimum detectable effect (α, power 0.8; Miller 2024) on Score and on F1; null where it cannot be stated. */
  mde: { score: number | null; f1: number | null }
}

export interface Comparison {
  comparisonVersion: typeof COMPARISON_VERSION
  labelA: string
  labelB: string
  mode: 'same-arm' | 'cross-arm'
  alpha: number
  seed: number
  floor: number | null
  minDelta: number
  groups: PairedGroupComparison[]
  overall: PairedGroupComparison
  /** True when the overall row or any group failed. */
  regression: boolean
}

/** One unit's trials on both sides. */
interface UnitPair {
  key: string
  kind: UnitKind
  a: ComparableRun[]
  b: ComparableRun[]
}

interface Settings {
  alpha: number
  seed: number
  floor: number | null
  minDelta: number
}

/**
 * Paired comparison of two sets of runs (A the baseline, B the candidate) on units: within a group, the runs of
 * each unit (a case, a conversation, a generated dataset: `assignUnits`) are averaged per side, and the tests
 * run across units. One unit: its trials as two samples, or an exact deterministic change when every trial of
 * both sides is identical. Refuses (InputError) when a pair's dataset sha256s differ, and when one side has two
 * rows for the same (case, turn, trial).
 */
export function compareRuns(a: readonly ComparableRun[], b: readonly ComparableRun[], options: CompareOptions = {}): Comparison {
  const alpha = options.alpha ?? 0.05
  const seed = options.seed ?? 0
  const floor = options.floor ?? null
  const minDelta = options.minDelta ?? 0
  const labelA = options.labelA ?? 'A'
  const labelB = options.labelB ?? 'B'
  if (!(alpha > 0 && alpha < 1)) throw new InputError(`alpha must be in (0, 1), got ${alpha}`)
  if (!Number.isInteger(seed)) throw new InputError(`seed must be an integer, got ${seed}`)
  if (floor !== null && !(floor >= 0 && floor <= 1)) throw new InputError(`floor must be in [0, 1], got ${floor}`)
  if (!(minDelta >= 0 && minDelta <= 1)) throw new InputError(`minDelta must be in [0, 1], got ${minDelta}`)

  const identitiesA = new Set(a.map(identityOf))
  const mode = options.pairing === 'same-arm' || b.some((r) => identitiesA.has(identityOf(r))) ? 'same-arm' : 'cross-arm'
  const keyOf = (r: ComparableRun): ComparisonGroupKey => ({
    agent: mode === 'same-arm' ? r.agent : null,
    model: mode === 'same-arm' ? r.model : null,
    dataset: r.dataset,
    suite: r.suite,
    category: r.category,
  })

  const slotsA = indexSlots(a, keyOf, labelA, mode)
  const slotsB = indexSlots(b, keyOf, labelB, mode)
  for (const [slot, { row }] of slotsA) {
    const partner = slotsB.get(slot)
    if (partner) checkSameData(row, partner.row, labelA, labelB)
  }
  const groups = new Map<string, { key: ComparisonGroupKey; rowsA: ComparableRun[]; rowsB: ComparableRun[] }>()
  const groupOf = (key: ComparisonGroupKey) => {
    const id = JSON.stringify(key)
    let g = groups.get(id)
    if (!g) {
      g = { key, rowsA: [], rowsB: [] }
      groups.set(id, g)
    }
    return g
  }
  for (const { key, row } of slotsA.values()) groupOf(key).rowsA.push(row)
  for (const { key, row } of slotsB.values()) groupOf(key).rowsB.push(row)

  const settings: Settings = { alpha, seed, floor, minDelta }
  const ordered = [...groups.values()].sort((x, y) => compareGroupKeys(x.key, y.key))
  const labels = groupLabels(ordered.map((g) => g.key))
  const split = ordered.map((g) => unitPairs(g.rowsA, g.rowsB))
  const groupResults = ordered.map((g, i) => summarizeUnits(labels[i]!, g.key, split[i]!, g.rowsB, settings))
  const overall = summarizeUnits(
    'overall',
    null,
    {
      paired: split.flatMap((s, i) => s.paired.map((u) => ({ ...u, key: `${i}|${u.key}` }))),
      onlyA: split.reduce((s, x) => s + x.onlyA, 0),
      onlyB: split.reduce((s, x) => s + x.onlyB, 0),
      notes: [...new Set(split.flatMap((s) => s.notes))],
    },
    [...b],
    settings,
  )
  return {
    comparisonVersion: COMPARISON_VERSION,
    labelA,
    labelB,
    mode,
    alpha,
    seed,
    floor,
    minDelta,
    groups: groupResults,
    overall,
    regression: [overall, ...groupResults].some((g) => g.failed),
  }
}

interface SplitUnits {
  paired: UnitPair[]
  onlyA: number
  onlyB: number
  notes: string[]
}

/** The group's units on both sides (keys from both sides' rows together, so a generated dataset pairs with itself). */
function unitPairs(rowsA: readonly ComparableRun[], rowsB: readonly ComparableRun[]): SplitUnits {
  const { keys, kinds, summary } = assignUnits([...rowsA, ...rowsB])
  const units = new Map<string, UnitPair>()
  const order: string[] = []
  keys.forEach((key, i) => {
    let u = units.get(key)
    if (!u) {
      u = { key, kind: kinds[i]!, a: [], b: [] }
      units.set(key, u)
      order.push(key)
    }
    if (kinds[i] === 'conversation') u.kind = 'conversation'
    if (i < rowsA.length) u.a.push(rowsA[i]!)
    else u.b.push(rowsB[i - rowsA.length]!)
  })
  const all = order.map((k) => units.get(k)!)
  const paired = all.filter((u) => u.a.length && u.b.length)
  const onlyA = all.filter((u) => !u.b.length).length
  const onlyB = all.filter((u) => !u.a.length).length
  const notes: string[] = []
  if (summary.note) notes.push(summary.note)
  if (paired.length && (onlyA || onlyB)) {
    notes.push(`the sides hold different units: ${onlyA} only in A and ${onlyB} only in B are left out; the tests use the ${paired.length} on both`)
  }
  const unequal = paired.some((u) => u.a.length !== u.b.length)
  if (unequal) notes.push('a unit ran a different number of trials on each side: each side is averaged over its own trials')
  return { paired, onlyA, onlyB, notes }
}

function summarizeUnits(
  group: string,
  key: ComparisonGroupKey | null,
  split: SplitUnits,
  rowsB: readonly ComparableRun[],
  settings: Settings,
): PairedGroupComparison {
  const { paired } = split
  const units = paired.length
  const kinds = new Set(paired.map((u) => u.kind))
  const unit: UnitKind | 'mixed' = kinds.size > 1 ? 'mixed' : ([...kinds][0] ?? 'case')
  const correctB = rowsB.filter((r) => r.correct === true).length
  const currentScore = rowsB.length ? correctB / rowsB.length : null
  const belowFloor = settings.floor !== null && currentScore !== null && currentScore < settings.floor
  const isNew = units === 0 && split.onlyA === 0 && rowsB.length > 0
  const passA = paired.map((u) => passRate(u.a))
  const passB = paired.map((u) => passRate(u.b))
  let b = 0
  let c = 0
  let bothCorrect = 0
  let bothWrong = 0
  passA.forEach((x, i) => {
    const y = passB[i]!
    if (x > y) b++
    else if (y > x) c++
    else if (x === 1) bothCorrect++
    else if (x === 0) bothWrong++
  })
  const scoreA = units ? mean(passA) : null
  const scoreB = units ? mean(passB) : null
  const delta = units ? mean(passB.map((y, i) => y - passA[i]!)) : null

  const method: ComparisonMethod = units === 0 ? 'none' : units > 1 ? 'paired' : isDeterministic(paired[0]!) ? 'deterministic' : 'two-sample'
  let passFailTest: TestMethod = 'none'
  let test: McNemarResult | null = null
  let p: number | null = null
  let worse = false
  let better = false
  if (method === 'deterministic') {
    passFailTest = 'deterministic'
    worse = delta! < -settings.minDelta
    better = delta! > settings.minDelta
  } else if (method === 'two-sample') {
    const t = twoSamplePermutationTest(paired[0]!.a.map(asPass), paired[0]!.b.map(asPass), { seed: settings.seed })
    passFailTest = t.method === 'exact' ? 'two-sample-exact' : 'two-sample-monte-carlo'
    p = t.p
  } else if (method === 'paired') {
    const binary = [...passA, ...passB].every((v) => v === 0 || v === 1)
    if (binary) {
      test = mcnemar(b, c)
      passFailTest = test.method === 'exact' ? 'mcnemar-exact' : 'mcnemar-chi2'
      p = test.p
    } else {
      const t = signFlipTest(passB.map((y, i) => y - passA[i]!), { seed: settings.seed })
      passFailTest = t.method === 'exact' ? 'sign-flip-exact' : 'sign-flip-monte-carlo'
      p = t.p
    }
  }
  if (p !== null) {
    worse = delta! < 0 && p < settings.alpha
    better = delta! > 0 && p < settings.alpha
  }
  const f1 = compareF1(paired, method, settings)
  const power = groupPower(paired, method, passA, passB, settings.alpha)
  const notes = [...split.notes]
  if (unit === 'mixed' && !notes.some((n) => n.startsWith('mixed units'))) {
    const counts = [...kinds].sort().map((k) => {
      const n = paired.filter((u) => u.kind === k).length
      return `${n} ${pluralUnit(k, n)}`
    })
    notes.unshift(`mixed units (${counts.join(', ')}): each counts as one unit`)
  }
  return {
    group,
    key,
    unit,
    units,
    n: units,
    unitNote: notes.length ? notes.join('; ') : null,
    method,
    rows: { a: paired.reduce((s, u) => s + u.a.length, 0), b: paired.reduce((s, u) => s + u.b.length, 0) },
    b,
    c,
    bothCorrect,
    bothWrong,
    onlyA: split.onlyA,
    onlyB: split.onlyB,
    scoreA,
    scoreB,
    delta,
    passFailTest,
    mcnemar: test,
    p,
    stars: p === null ? '' : stars(p),
    significantWorse: worse,
    significantBetter: better,
    f1,
    current: { attempted: rowsB.length, correct: correctB, score: currentScore },
    belowFloor,
    power,
    isNew,
    failed: !isNew && (worse || (f1?.significantWorse ?? false) || belowFloor),
  }
}

const asPass = (r: ComparableRun): number => (r.correct === true ? 1 : 0)

function passRate(rows: readonly ComparableRun[]): number {
  return mean(rows.map(asPass))
}

function f1s(rows: readonly ComparableRun[]): number[] {
  return rows.flatMap((r) => (r.f1 === null ? [] : [r.f1]))
}

/** Every trial of each side gives the same judgment and the same F1. */
function isDeterministic(u: UnitPair): boolean {
  const same = (rows: readonly ComparableRun[]) => rows.every((r) => r.correct === rows[0]!.correct && Object.is(r.f1, rows[0]!.f1))
  return same(u.a) && same(u.b)
}

function compareF1(paired: readonly UnitPair[], method: ComparisonMethod, settings: Settings): F1Comparison | null {
  if (method === 'none') return null
  if (method === 'paired') {
    const scored = paired.flatMap((u) => {
      const x = f1s(u.a)
      const y = f1s(u.b)
      return x.length && y.length ? [[mean(x), mean(y)] as const] : []
    })
    if (scored.length === 0) return null
    const fa = scored.map(([x]) => x)
    const fb = scored.map(([, y]) => y)
    const t = signFlipTest(fb.map((v, i) => v - fa[i]!), { seed: settings.seed })
    const meanDelta = t.meanDelta!
    return {
      n: scored.length,
      meanA: mean(fa),
      meanB: mean(fb),
      meanDelta,
      low: t.low!,
      high: t.high!,
      p: t.p,
      stars: stars(t.p),
      test: t.method === 'exact' ? 'sign-flip-exact' : 'sign-flip-monte-carlo',
      significantWorse: meanDelta < 0 && t.p < settings.alpha,
      significantBetter: meanDelta > 0 && t.p < settings.alpha,
    }
  }
  const x = f1s(paired[0]!.a)
  const y = f1s(paired[0]!.b)
  if (!x.length || !y.length) return null
  const meanA = mean(x)
  const meanB = mean(y)
  const meanDelta = meanB - meanA
  if (method === 'deterministic') {
    return {
      n: 1,
      meanA,
      meanB,
      meanDelta,
      low: meanDelta,
      high: meanDelta,
      p: null,
      stars: '',
      test: 'deterministic',
      significantWorse: meanDelta < -settings.minDelta,
      significantBetter: meanDelta > settings.minDelta,
    }
  }
  const t = twoSamplePermutationTest(x, y, { seed: settings.seed })
  return {
    n: 1,
    meanA,
    meanB,
    meanDelta,
    // No interval across units exists for one unit: the ends are the delta.
    low: meanDelta,
    high: meanDelta,
    p: t.p,
    stars: stars(t.p),
    test: t.method === 'exact' ? 'two-sample-exact' : 'two-sample-monte-carlo',
    significantWorse: meanDelta < 0 && t.p < settings.alpha,
    significantBetter: meanDelta > 0 && t.p < settings.alpha,
  }
}

function groupPower(
  paired: readonly UnitPair[],
  method: ComparisonMethod,
  passA: readonly number[],
  passB: readonly number[],
  alpha: number,
): GroupPower {
  if (method === 'deterministic') {
    return { units: 1, smallestP: 0, unitsNeeded: 1, canReachAlpha: true, basis: 'exact', mde: { score: 0, f1: 0 } }
  }
  if (method === 'two-sample') {
    const smallestP = twoSampleSmallestP(paired[0]!.a.length, paired[0]!.b.length)
    const base = pairedPower(1, alpha)
    return { ...base, smallestP, canReachAlpha: smallestP < alpha, basis: 'trials', mde: { score: null, f1: null } }
  }
  const base = pairedPower(paired.length, alpha)
  const f1Pairs = paired.flatMap((u) => {
    const x = f1s(u.a)
    const y = f1s(u.b)
    return x.length && y.length ? [[mean(x), mean(y)] as const] : []
  })
  const mde = (xs: readonly number[], ys: readonly number[]) =>
    minimumDetectableEffect({ units: xs.length, sd: deltaSd(xs, ys), alpha })
  return {
    ...base,
    basis: 'units',
    mde: { score: mde(passA, passB), f1: mde(f1Pairs.map(([x]) => x), f1Pairs.map(([, y]) => y)) },
  }
}

/**
 * The spread of the per-unit differences Miller's formula needs: their sample SD, or where every difference is
 * the same, the SD the two sides' units would give if independent (√(s²_A + s²_B)); null when both are 0.
 */
function deltaSd(xs: readonly number[], ys: readonly number[]): number | null {
  const observed = sampleSd(ys.map((y, i) => y - xs[i]!))
  if (observed === null) return null
  if (observed > 0) return observed
  const sa = sampleSd(xs) ?? 0
  const sb = sampleSd(ys) ?? 0
  const independent = Math.sqrt(sa * sa + sb * sb)
  return independent > 0 ? independent : null
}

function identityOf(r: ComparableRun): string {
  return JSON.stringify([r.agent, r.model])
}
function indexSlots(
  rows: readonly ComparableRun[],
  keyOf: (r: ComparableRun) => ComparisonGroupKey,
  label: string,
  mode: 'same-arm' | 'cross-arm',
): Map<string, { key: ComparisonGroupKey; row: ComparableRun }> {
  const slots = new Map<string, { key: ComparisonGroupKey; row: ComparableRun }>()
  for (const row of rows) {
    const key = keyOf(row)
    const slot = JSON.stringify([key, row.caseId, row.turn, row.trial])
    const seen = slots.get(slot)
    if (seen) {
      const where = `dataset "${row.dataset}", case "${row.caseId}", turn ${row.turn ?? '-'}, ${trialLabel(row.trial)}`
      const agents =
        seen.row.agent === row.agent ? `agent "${row.agent}"` : `agents "${seen.row.agent}" and "${row.agent}"`
      const hint = mode === 'cross-arm' ? '; pick one agent per side with --agents A,B' : ''
      throw new InputError(`${label}: two rows for the same pair (${where}, ${agents})${hint}`)
    }
    slots.set(slot, { key, row })
  }
  return slots
}

function checkSameData(x: ComparableRun, y: ComparableRun, labelA: string, labelB: string): void {
  const ha = x.datasetSha256
  const hb = y.datasetSha256
  if (!ha || !hb || (ha.dirty === hb.dirty && ha.clean === hb.clean)) return
  throw new InputError(
    `refusing to compare: dataset "${x.dataset}" differs (case "${x.caseId}", ${trialLabel(x.trial)}): ` +
      `${labelA} dirty ${ha.dirty} clean ${ha.clean}, ${labelB} dirty ${hb.dirty} clean ${hb.clean}`,
  )
}

/** The leaderboard's group names; where two groups would share one, the dataset is added to tell them apart. */
function groupLabels(keys: readonly ComparisonGroupKey[]): string[] {
  const base = keys.map((k) =>
    k.agent === null
      ? [k.suite, k.category].filter((x) => x !== null && x !== '').join(' · ')
      : groupName({ agent: k.agent, agentKind: '', model: k.model, dataset: k.dataset, suite: k.suite, category: k.category }),
  )
  return distinctLabels(base, keys.map((k) => k.dataset))
}
