import { trialLabel } from '../core/trial-label.js'
import { InputError } from '../core/errors.js'
import type { RunRecord } from '../core/run-record.js'
import { stars } from '../stats/number-format.js'
import { holmAdjust } from '../stats/holm.js'
import { type McNemarResult, mcnemar } from '../stats/mcnemar.js'
import { signFlipTest } from '../stats/permutation.js'
import { mcnemarMde, type Power, pairedPower, sampleSd, signFlipMde } from '../stats/power.js'
import { mean } from '../stats/quantile.js'
import { tQuantile } from '../stats/t-dist.js'
import { twoSamplePermutationTest, twoSampleSmallestP } from '../stats/two-sample.js'
import { assignUnits, plural as pluralUnit, type UnitKind } from '../stats/units.js'
import { compareGroupKeys, distinctLabels, groupName } from './aggregate.js'
import {
  type UnitObs,
  f1Of,
  failedWhereScored,
  isExact,
  mergeByCase,
  passOf,
  toTrial,
  trialsOf,
} from './compare-units.js'

const COMPARISON_VERSION = 4

/** What a paired comparison reads from a run: its identity, its judgment and its F1. */
export type ComparableRun = Pick<
  RunRecord,
  | 'caseId'
  | 'turn'
  | 'trial'
  | 'agent'
  | 'model'
  | 'dataset'
  | 'suite'
  | 'category'
  | 'correct'
  | 'f1'
  | 'datasetSha256'
>

interface CompareOptions {
  /** Family-wise significance level of the gate (Holm over every test it runs). Default 0.05. */
  alpha?: number
  /** Seed for the permutation tests. Default 0. */
  seed?: number
  /**
   * Random sign flips (or splits) of a Monte Carlo permutation test. Default 10 000. Any count gives a valid
   * p, (1 + extreme) / (iterations + 1); fewer only make it coarser (simulations use fewer).
   */
  iterations?: number
  /** Absolute Score floor for side B: a group whose B Score is below it fails whatever the test says. */
  floor?: number
  /**
   * The smallest drop of an exact unit (deterministic on both sides) that fails, Score and F1 alike. Default 0:
   * any exact drop fails.
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
  /**
   * Whether the overall row gates (default true, as in `compare`). The reporter's baseline gate decides per
   * group only: its overall row is then left out of the tests' family and of `regression`.
   */
  gateOverall?: boolean
}

/**
 * What a group is. In same-arm mode (the two sides share at least one agent/model) groups are
 * agent/model × suite × dataset × category and only the same agent is paired with itself; in cross-arm
 * mode (no agent in common: two arms) agent and model are null and pairs cross agents.
 */
interface ComparisonGroupKey {
  agent: string | null
  model: string | null
  dataset: string
  suite: string
  category: string | null
}

/**
 * How a group was compared:
 * - `paired`: two or more units that are not exact: per unit the mean over its trials, then a paired test across them;
 * - `two-sample`: one unit that is not exact: the two sides' trials as two samples of that unit;
 * - `untestable`: one unit that is not exact, with too few trials for the two-sample test to ever reach α;
 * - `deterministic`: every unit exact (at least 2 trials a side, all identical): the change is exact, no p-value;
 * - `none`: no unit on both sides.
 */
type ComparisonMethod = 'paired' | 'two-sample' | 'untestable' | 'deterministic' | 'none'

/**
 * The group's verdict kind, in JSON and every output: `compared` (tests ran), `exact` (every unit exact),
 * `untestable` (one unit, too few trials), `no-pairs` (no unit in common), `new` (B only) and `nothing-scored`
 * (no run of either side scored: the gate fails closed).
 */
type GroupStatus = 'compared' | 'exact' | 'untestable' | 'no-pairs' | 'new' | 'nothing-scored'

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

interface F1Comparison {
  /** Units (or, for one unit, B's trials) with an F1 on both sides. */
  n: number
  meanA: number
  meanB: number
  /** Mean of F1(B) − F1(A) over units, with its t interval (95%, n − 1 df; both ends the delta when exact). */
  meanDelta: number
  low: number
  high: number
  /** Two-sided p of the F1 test; null when no test ran (every unit exact). */
  p: number | null
  /** p after Holm's correction over the gate's family; null when the test is not in the family. */
  pAdjusted: number | null
  stars: string
  test: TestMethod
  /** Significantly worse (Holm-adjusted p below alpha), or an exact unit's F1 dropped beyond minDelta. */
  significantWorse: boolean
  significantBetter: boolean
}

/** The units deterministic on both sides (exact evidence): how many, and which dropped or gained beyond minDelta. */
interface ExactUnits {
  units: number
  dropped: string[]
  gained: string[]
}

export interface PairedGroupComparison {
  /** Display name (the leaderboard's group name in same-arm mode). */
  group: string
  /** null for the overall row. */
  key: ComparisonGroupKey | null
  /** What one unit is (see `stats/units.ts`): `case`, `conversation`, `generated data` or `mixed`. */
  unit: UnitKind | 'mixed'
  /** Units on both sides: the units the comparison used. */
  units: number
  /** The same as `units` (the count every verdict reads). */
  n: number
  /** The rule applied to this group's units when they are mixed, unequal or not the same on both sides; else null. */
  unitNote: string | null
  method: ComparisonMethod
  status: GroupStatus
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
  /** Score over the paired units: the mean of each unit's pass rate (a run that did not score counts as not correct). */
  scoreA: number | null
  scoreB: number | null
  /** scoreB − scoreA. */
  delta: number | null
  /** The pass/fail test on the units that are not exact: McNemar when every outcome is binary, else the sign-flip test. */
  passFailTest: TestMethod
  /** McNemar's counts and statistic, when McNemar was the test. */
  mcnemar: McNemarResult | null
  /** Two-sided p of the pass/fail test; null when no test ran. */
  p: number | null
  /** p after Holm's correction over the gate's family; null when the test is not in the family. */
  pAdjusted: number | null
  stars: string
  /** Pass/fail significantly worse (Holm-adjusted), or an exact unit lost its pass. */
  significantWorse: boolean
  significantBetter: boolean
  f1: F1Comparison | null
  /** Units deterministic on both sides, compared exactly. */
  exact: ExactUnits
  /**
   * The one test that gates this group (F1 where the group measures it, else pass/fail); the other test's p is
   * shown, not gated. Null when no test can reach alpha (exact, untestable or too few units).
   */
  primaryMetric: 'f1' | 'pass/fail' | null
  /** Units where B did not score (crash, timeout, budget) in a run while every run of A scored: each fails the group. */
  failedWhereScored: string[]
  /** Side B's Score over all its rows in the group (paired or not): what the floor is checked on. */
  current: { attempted: number; correct: number; score: number | null }
  belowFloor: boolean
  /** Whether these units can reach alpha at all, how many would, and what they can detect. */
  power: GroupPower
  /** B has rows here and A none: a new group, compared with nothing and never a failure. */
  isNew: boolean
  /** significantly worse on pass/fail or on F1, an exact drop, a failure where A scored, below the floor, or nothing scored. */
  failed: boolean
  /** Why the group failed, in the verdict's words (`regression (F1)`, `deterministic drop (pass/fail)`, …); empty when it passed. */
  reasons: string[]
  /** How many tests the gate corrected for together (Holm); this group's adjusted p-values are over that family. */
  holmTests: number
}

interface GroupPower extends Power {
  /** How the smallest p was found: over paired units, over the trials of one unit, or exact (no test). */
  basis: 'units' | 'trials' | 'exact'
  /**
   * Minimum detectable drop (power 0.8 at the Holm-corrected level α/tests) on Score and on F1, from the test that
   * runs: exact McNemar power for binary units, the t approximation of the sign-flip test otherwise; null where
   * it cannot be stated.
   */
  mde: { score: number | null; f1: number | null }
  /** Trials a side that would make a one-unit comparison testable (the two-sample test reaching α); null otherwise. */
  trialsNeeded: number | null
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
  /** The gate's tests, corrected together: Holm over each gating row's primary test (F1, else pass/fail) that can reach α. */
  family: { method: 'holm'; tests: number }
  groups: PairedGroupComparison[]
  overall: PairedGroupComparison
  /** True when any gating row failed (the groups, and the overall row unless `gateOverall` is false). */
  regression: boolean
}

interface Settings {
  alpha: number
  seed: number
  iterations: number
  floor: number | null
  minDelta: number
}

/**
 * Paired comparison of two sets of runs (A the baseline, B the candidate) on units, by the rules of
 * docs/statistics.md: within a group, the runs of each unit (a case, a conversation, a generated dataset:
 * `assignUnits`) are averaged per side. Units deterministic on both sides are compared exactly; the others go
 * to a paired test across units (one unit: its trials as two samples). Every test of every gating row is
 * corrected together (Holm). A run that did not score is not correct and F1 0; B failing where A scored fails.
 * Refuses (InputError) when a pair's dataset sha256s differ, and when one side has two rows for the same
 * (case, turn, trial).
 */
export function compareRuns(
  a: readonly ComparableRun[],
  b: readonly ComparableRun[],
  options: CompareOptions = {},
): Comparison {
  const alpha = options.alpha ?? 0.05
  const seed = options.seed ?? 0
  const floor = options.floor ?? null
  const minDelta = options.minDelta ?? 0
  const labelA = options.labelA ?? 'A'
  const labelB = options.labelB ?? 'B'
  const gateOverall = options.gateOverall ?? true
  if (!(alpha > 0 && alpha < 1)) throw new InputError(`alpha must be in (0, 1), got ${alpha}`)
  if (!Number.isInteger(seed)) throw new InputError(`seed must be an integer, got ${seed}`)
  if (floor !== null && !(floor >= 0 && floor <= 1)) throw new InputError(`floor must be in [0, 1], got ${floor}`)
  if (!(minDelta >= 0 && minDelta <= 1)) throw new InputError(`minDelta must be in [0, 1], got ${minDelta}`)

  const identitiesA = new Set(a.map(identityOf))
  const mode =
    options.pairing === 'same-arm' || b.some((r) => identitiesA.has(identityOf(r))) ? 'same-arm' : 'cross-arm'
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

  const settings: Settings = { alpha, seed, iterations: options.iterations ?? 10_000, floor, minDelta }
  const ordered = [...groups.values()].sort((x, y) => compareGroupKeys(x.key, y.key))
  const labels = groupLabels(ordered.map((g) => g.key))
  const split = ordered.map((g) => unitPairs(g.rowsA, g.rowsB))
  const drafts = ordered.map((g, i) => draftGroup(labels[i]!, g.key, split[i]!, g.rowsB, settings))
  // Agents nest in their case: the overall row's unit is the case (suite, dataset, unit), never agent × case.
  const overallUnits = mergeByCase(
    ordered.map((g, i) => ({
      caseKey: (u: UnitObs) => JSON.stringify([g.key.suite, g.key.dataset, u.key]),
      units: split[i]!.paired,
    })),
  )
  const overallSplit: SplitUnits = {
    paired: overallUnits,
    onlyA: split.reduce((s, x) => s + x.onlyA, 0),
    onlyB: split.reduce((s, x) => s + x.onlyB, 0),
    notes: [...new Set(split.flatMap((s) => s.notes))],
  }
  // With one group the overall row is that group: the same units, tested once.
  const single = drafts.length === 1
  const overallDraft = single ? null : draftGroup('overall', null, overallSplit, [...b], settings)

  const family = [...drafts, ...(overallDraft && gateOverall ? [overallDraft] : [])].flatMap((d) => d.tests)
  const adjusted = holmAdjust(family.map((t) => t.p))
  family.forEach((t, i) => {
    t.adjusted = adjusted[i]!
  })
  const tests = family.length
  const groupResults = drafts.map((d) => finish(d, settings, tests))
  const overall = single ? { ...groupResults[0]!, group: 'overall', key: null } : finish(overallDraft!, settings, tests)
  return {
    comparisonVersion: COMPARISON_VERSION,
    labelA,
    labelB,
    mode,
    alpha,
    seed,
    floor,
    minDelta,
    family: { method: 'holm', tests },
    groups: groupResults,
    overall,
    regression: [...(gateOverall ? [overall] : []), ...groupResults].some((g) => g.failed),
  }
}

interface SplitUnits {
  paired: UnitObs[]
  onlyA: number
  onlyB: number
  notes: string[]
}

/** The group's units on both sides (keys from both sides' rows together, so a generated dataset pairs with itself). */
function unitPairs(rowsA: readonly ComparableRun[], rowsB: readonly ComparableRun[]): SplitUnits {
  const { keys, kinds, summary } = assignUnits([...rowsA, ...rowsB])
  const hasF1 = [...rowsA, ...rowsB].some((r) => r.f1 !== null)
  const units = new Map<string, UnitObs>()
  const order: string[] = []
  keys.forEach((key, i) => {
    let u = units.get(key)
    const row = i < rowsA.length ? rowsA[i]! : rowsB[i - rowsA.length]!
    if (!u) {
      u = { key, name: unitName(row, key), kind: kinds[i]!, parts: [{ a: [], b: [] }] }
      units.set(key, u)
      order.push(key)
    }
    if (kinds[i] === 'conversation') u.kind = 'conversation'
    u.parts[0]![i < rowsA.length ? 'a' : 'b'].push(toTrial(row, hasF1))
  })
  const all = order.map((k) => units.get(k)!)
  const paired = all.filter((u) => u.parts[0]!.a.length && u.parts[0]!.b.length)
  const onlyA = all.filter((u) => !u.parts[0]!.b.length).length
  const onlyB = all.filter((u) => !u.parts[0]!.a.length).length
  const notes: string[] = []
  if (summary.note) notes.push(summary.note)
  if (paired.length && (onlyA || onlyB)) {
    notes.push(
      `the sides hold different units: ${onlyA} only in A and ${onlyB} only in B are left out; the tests use the ${paired.length} on both`,
    )
  }
  const unequal = paired.some((u) => u.parts[0]!.a.length !== u.parts[0]!.b.length)
  if (unequal)
    notes.push('a unit ran a different number of trials on each side: each side is averaged over its own trials')
  return { paired, onlyA, onlyB, notes }
}

/** `hospital repair`; a generated dataset's unit adds the start of its data's sha256. */
function unitName(row: ComparableRun, key: string): string {
  return key.includes('\u0000') && row.datasetSha256
    ? `${row.caseId} (data ${row.datasetSha256.dirty.slice(0, 8)})`
    : row.caseId
}

/** One test of the gate's family: its raw p, the direction of the change, and where the Holm-adjusted p goes. */
interface FamilyTest {
  metric: 'pass' | 'f1'
  p: number
  delta: number
  adjusted: number | null
}

/** A group before the family's correction: everything but the tests' verdicts. */
interface Draft {
  base: Omit<
    PairedGroupComparison,
    'pAdjusted' | 'significantWorse' | 'significantBetter' | 'failed' | 'power' | 'f1' | 'reasons' | 'holmTests'
  >
  f1: Omit<F1Comparison, 'pAdjusted' | 'significantWorse' | 'significantBetter'> | null
  tests: FamilyTest[]
  /** What the power needs: the units tested, their per-unit values, and the one unit's trials. */
  tested: UnitObs[]
  exactDropScore: boolean
  exactDropF1: boolean
  exactGainScore: boolean
  exactGainF1: boolean
  nothingScored: boolean
}

function draftGroup(
  group: string,
  key: ComparisonGroupKey | null,
  split: SplitUnits,
  rowsB: readonly ComparableRun[],
  settings: Settings,
): Draft {
  const { paired } = split
  const units = paired.length
  const kinds = new Set(paired.map((u) => u.kind))
  const unit: UnitKind | 'mixed' = kinds.size > 1 ? 'mixed' : ([...kinds][0] ?? 'case')
  const correctB = rowsB.filter((r) => r.correct === true).length
  const currentScore = rowsB.length ? correctB / rowsB.length : null
  const belowFloor = settings.floor !== null && currentScore !== null && currentScore < settings.floor
  const isNew = units === 0 && split.onlyA === 0 && rowsB.length > 0
  const passA = paired.map((u) => passOf(u, 'a'))
  const passB = paired.map((u) => passOf(u, 'b'))
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
  const nothingScored =
    units > 0 && paired.every((u) => [...trialsOf(u, 'a'), ...trialsOf(u, 'b')].every((t) => !t.scored))

  // Where every unit is exact the group is compared unit by unit, so an unchanged unit added beside a dropped
  // one never hides the drop. In a mixed group the exact units enter the paired test like any unit: a stochastic
  // agent can repeat an outcome by chance, and gating such units one by one would fail unchanged agents.
  const exactUnits = paired.filter(isExact)
  const allExact = units > 0 && exactUnits.length === units
  const tested = allExact ? [] : paired
  const tolerance = settings.minDelta + 1e-12
  const exactChange = (allExact ? exactUnits : []).map((u) => {
    const dScore = passOf(u, 'b') - passOf(u, 'a')
    const fa = f1Of(u, 'a')
    const fb = f1Of(u, 'b')
    const dF1 = fa === null || fb === null ? 0 : fb - fa
    return { u, dScore, dF1 }
  })
  const dropped = exactChange.filter((x) => x.dScore < -tolerance || x.dF1 < -tolerance)
  const gained = exactChange.filter((x) => !dropped.includes(x) && (x.dScore > tolerance || x.dF1 > tolerance))

  const method: ComparisonMethod =
    units === 0
      ? 'none'
      : tested.length === 0
        ? 'deterministic'
        : tested.length > 1
          ? 'paired'
          : oneUnitTestable(tested[0]!, settings.alpha)
            ? 'two-sample'
            : 'untestable'
  const status: GroupStatus = isNew
    ? 'new'
    : units === 0
      ? 'no-pairs'
      : nothingScored
        ? 'nothing-scored'
        : method === 'deterministic'
          ? 'exact'
          : method === 'untestable'
            ? 'untestable'
            : 'compared'

  const tests: FamilyTest[] = []
  let passFailTest: TestMethod = method === 'deterministic' ? 'deterministic' : 'none'
  let test: McNemarResult | null = null
  let p: number | null = null
  const testedPassA = tested.map((u) => passOf(u, 'a'))
  const testedPassB = tested.map((u) => passOf(u, 'b'))
  if (method === 'two-sample' || method === 'untestable') {
    const u = tested[0]!
    const t = twoSamplePermutationTest(
      trialsOf(u, 'a').map((x) => x.pass),
      trialsOf(u, 'b').map((x) => x.pass),
      { seed: settings.seed, iterations: settings.iterations },
    )
    passFailTest = t.method === 'exact' ? 'two-sample-exact' : 'two-sample-monte-carlo'
    p = t.p
  } else if (method === 'paired') {
    const binary = [...testedPassA, ...testedPassB].every((v) => v === 0 || v === 1)
    if (binary) {
      const lost = testedPassA.filter((x, i) => x > testedPassB[i]!).length
      const won = testedPassA.filter((x, i) => x < testedPassB[i]!).length
      test = mcnemar(lost, won)
      passFailTest = test.method === 'exact' ? 'mcnemar-exact' : 'mcnemar-chi2'
      p = test.p
    } else {
      const t = signFlipTest(
        testedPassB.map((y, i) => y - testedPassA[i]!),
        { seed: settings.seed, iterations: settings.iterations, bootstrapIterations: 1 },
      )
      passFailTest = t.method === 'exact' ? 'sign-flip-exact' : 'sign-flip-monte-carlo'
      p = t.p
    }
  }
  const testedDelta = tested.length ? mean(testedPassB.map((y, i) => y - testedPassA[i]!)) : 0
  if (p !== null && method !== 'untestable' && smallestP(method, tested) < settings.alpha) {
    tests.push({ metric: 'pass', p, delta: testedDelta, adjusted: null })
  }
  const f1 = draftF1(paired, tested, method, settings, tests)
  // One primary test per group gates: F1 where the group measures it, else pass/fail; the other is shown only.
  const primary = tests.some((t) => t.metric === 'f1') ? tests.filter((t) => t.metric === 'f1') : tests
  const notes = [...split.notes]
  if (unit === 'mixed' && !notes.some((n) => n.startsWith('mixed units'))) {
    const counts = [...kinds].sort().map((k) => {
      const n = paired.filter((u) => u.kind === k).length
      return `${n} ${pluralUnit(k, n)}`
    })
    notes.unshift(`mixed units (${counts.join(', ')}): each counts as one unit`)
  }
  if (exactUnits.length && !allExact) {
    notes.push(
      `${exactUnits.length} of ${units} units are deterministic on both sides: they enter the test as units like the others (only a group whose every unit is deterministic is compared exactly)`,
    )
  }
  return {
    base: {
      group,
      key,
      unit,
      units,
      n: units,
      unitNote: notes.length ? notes.join('; ') : null,
      method,
      status,
      rows: {
        a: paired.reduce((s, u) => s + trialsOf(u, 'a').length, 0),
        b: paired.reduce((s, u) => s + trialsOf(u, 'b').length, 0),
      },
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
      exact: { units: exactUnits.length, dropped: dropped.map((x) => x.u.name), gained: gained.map((x) => x.u.name) },
      failedWhereScored: paired.filter(failedWhereScored).map((u) => u.name),
      primaryMetric: primary[0] ? (primary[0].metric === 'f1' ? 'f1' : 'pass/fail') : null,
      current: { attempted: rowsB.length, correct: correctB, score: currentScore },
      belowFloor,
      isNew,
    },
    f1,
    tests: primary,
    tested,
    exactDropScore: dropped.some((x) => x.dScore < -tolerance),
    exactDropF1: dropped.some((x) => x.dF1 < -tolerance),
    exactGainScore: gained.some((x) => x.dScore > tolerance),
    exactGainF1: gained.some((x) => x.dF1 > tolerance),
    nothingScored,
  }
}

/** Whether the two-sample test on one unit's trials can reach alpha at all. */
function oneUnitTestable(u: UnitObs, alpha: number): boolean {
  return twoSampleSmallestP(trialsOf(u, 'a').length, trialsOf(u, 'b').length) < alpha
}

function smallestP(method: ComparisonMethod, tested: readonly UnitObs[]): number {
  if (method === 'paired') return pairedPower(tested.length, 0.5).smallestP
  if (method === 'two-sample')
    return twoSampleSmallestP(trialsOf(tested[0]!, 'a').length, trialsOf(tested[0]!, 'b').length)
  return 1
}

function draftF1(
  paired: readonly UnitObs[],
  tested: readonly UnitObs[],
  method: ComparisonMethod,
  settings: Settings,
  tests: FamilyTest[],
): Draft['f1'] {
  if (method === 'none') return null
  const pairsOf = (units: readonly UnitObs[]) =>
    units.flatMap((u) => {
      const x = f1Of(u, 'a')
      const y = f1Of(u, 'b')
      return x === null || y === null ? [] : [[x, y] as const]
    })
  const all = pairsOf(paired)
  if (all.length === 0) return null
  const meanA = mean(all.map(([x]) => x))
  const meanB = mean(all.map(([, y]) => y))
  const deltas = all.map(([x, y]) => y - x)
  const meanDelta = meanB - meanA
  const { low, high } = tInterval(deltas)
  const common = { n: all.length, meanA, meanB, meanDelta, low, high }
  if (method === 'deterministic') return { ...common, p: null, stars: '', test: 'deterministic' }
  if (method === 'two-sample' || method === 'untestable') {
    const u = tested[0]!
    const x = trialsOf(u, 'a').flatMap((t) => (t.f1 === null ? [] : [t.f1]))
    const y = trialsOf(u, 'b').flatMap((t) => (t.f1 === null ? [] : [t.f1]))
    if (!x.length || !y.length) return { ...common, p: null, stars: '', test: 'none' }
    const t = twoSamplePermutationTest(x, y, { seed: settings.seed, iterations: settings.iterations })
    if (method === 'two-sample' && twoSampleSmallestP(x.length, y.length) < settings.alpha) {
      tests.push({ metric: 'f1', p: t.p, delta: mean(y) - mean(x), adjusted: null })
    }
    return {
      ...common,
      p: t.p,
      stars: stars(t.p),
      test: t.method === 'exact' ? 'two-sample-exact' : 'two-sample-monte-carlo',
    }
  }
  const testedPairs = pairsOf(tested)
  if (testedPairs.length === 0) return { ...common, p: null, stars: '', test: 'none' }
  const t = signFlipTest(
    testedPairs.map(([x, y]) => y - x),
    { seed: settings.seed, iterations: settings.iterations, bootstrapIterations: 1 },
  )
  if (pairedPower(testedPairs.length, settings.alpha).canReachAlpha) {
    tests.push({ metric: 'f1', p: t.p, delta: t.meanDelta!, adjusted: null })
  }
  return {
    ...common,
    p: t.p,
    stars: stars(t.p),
    test: t.method === 'exact' ? 'sign-flip-exact' : 'sign-flip-monte-carlo',
  }
}

/** The mean's 95% t interval (n − 1 df); with one value, or no spread, both ends are the mean. */
function tInterval(values: readonly number[]): { low: number; high: number } {
  const m = mean(values)
  const sd = sampleSd(values)
  if (sd === null || sd === 0) return { low: m, high: m }
  const half = (tQuantile(0.975, values.length - 1) * sd) / Math.sqrt(values.length)
  return { low: m - half, high: m + half }
}

/** The verdict once the family is corrected: adjusted p, worse or better, power at the corrected level, failed. */
function finish(d: Draft, settings: Settings, family: number): PairedGroupComparison {
  const verdictOf = (metric: 'pass' | 'f1') => {
    const t = d.tests.find((x) => x.metric === metric)
    if (!t || t.adjusted === null) return { pAdjusted: null, worse: false, better: false }
    return {
      pAdjusted: t.adjusted,
      worse: t.delta < 0 && t.adjusted < settings.alpha,
      better: t.delta > 0 && t.adjusted < settings.alpha,
    }
  }
  const pass = verdictOf('pass')
  const f1v = verdictOf('f1')
  const significantWorse = pass.worse || d.exactDropScore
  const significantBetter = !significantWorse && (pass.better || d.exactGainScore)
  const f1: F1Comparison | null = d.f1 && {
    ...d.f1,
    pAdjusted: f1v.pAdjusted,
    significantWorse: f1v.worse || d.exactDropF1,
    significantBetter: !(f1v.worse || d.exactDropF1) && (f1v.better || d.exactGainF1),
  }
  const familySize = Math.max(1, family)
  const power = groupPower(d, settings.alpha, familySize)
  const exactWord = 'deterministic drop'
  const reasons = d.base.isNew
    ? []
    : [
        pass.worse ? 'regression (pass/fail)' : null,
        d.exactDropScore ? `${exactWord} (pass/fail)` : null,
        f1v.worse ? 'regression (F1)' : null,
        d.exactDropF1 ? `${exactWord} (F1)` : null,
        d.base.failedWhereScored.length ? 'new failures' : null,
        d.base.belowFloor ? 'below floor' : null,
        d.nothingScored ? 'nothing scored' : null,
      ].filter((x) => x !== null)
  return {
    ...d.base,
    pAdjusted: pass.pAdjusted,
    significantWorse,
    significantBetter,
    f1,
    power,
    failed: reasons.length > 0,
    reasons,
    holmTests: family,
  }
}

function groupPower(d: Draft, alpha: number, familySize: number): GroupPower {
  const { method } = d.base
  if (method === 'deterministic' || method === 'none') {
    return {
      units: d.base.units,
      smallestP: 0,
      unitsNeeded: 1,
      canReachAlpha: true,
      basis: 'exact',
      mde: { score: 0, f1: 0 },
      trialsNeeded: null,
    }
  }
  const level = alpha / familySize
  if (method === 'two-sample' || method === 'untestable') {
    const u = d.tested[0]!
    const smallestP = twoSampleSmallestP(trialsOf(u, 'a').length, trialsOf(u, 'b').length)
    const base = pairedPower(1, alpha)
    return {
      ...base,
      smallestP,
      canReachAlpha: smallestP < alpha,
      basis: 'trials',
      mde: { score: null, f1: null },
      trialsNeeded: trialsNeeded(alpha),
    }
  }
  const base = pairedPower(d.tested.length, alpha)
  const passA = d.tested.map((u) => passOf(u, 'a'))
  const passB = d.tested.map((u) => passOf(u, 'b'))
  const binary = [...passA, ...passB].every((v) => v === 0 || v === 1)
  const units = d.tested.length
  const score = binary
    ? mcnemarMde({ units, noise: (2 * Math.min(d.base.mcnemar?.b ?? 0, d.base.mcnemar?.c ?? 0)) / units, alpha: level })
    : signFlipMde({ units, sd: deltaSd(passA, passB), alpha: level })
  const f1Pairs = d.tested.flatMap((u) => {
    const x = f1Of(u, 'a')
    const y = f1Of(u, 'b')
    return x === null || y === null ? [] : [[x, y] as const]
  })
  const f1 = signFlipMde({
    units: f1Pairs.length,
    sd: deltaSd(
      f1Pairs.map(([x]) => x),
      f1Pairs.map(([, y]) => y),
    ),
    alpha: level,
  })
  // What the gating test can detect: the secondary metric's MDE would describe a test that does not gate.
  const primary = d.base.primaryMetric
  return {
    ...base,
    basis: 'units',
    mde: { score: primary === 'f1' ? null : score, f1: primary === 'pass/fail' ? null : f1 },
    trialsNeeded: null,
  }
}

/** The fewest trials a side with which the two-sample test of one unit can reach alpha (4 at α = 0.05). */
function trialsNeeded(alpha: number): number {
  let n = 2
  while (twoSampleSmallestP(n, n) >= alpha && n < 1000) n++
  return n
}

/**
 * The spread of the per-unit differences the power needs: their sample SD, or where every difference is
 * the same, the SD the two sides' units would give if independent (√(s²_A + s²_B)); null when both are 0.
 */
function deltaSd(xs: readonly number[], ys: readonly number[]): number | null {
  const observed = sampleSd(ys.map((y, i) => y - xs[i]!))
  if (observed === null) return null
  // differences equal up to rounding are equal
  if (observed > 1e-12) return observed
  const sa = sampleSd(xs) ?? 0
  const sb = sampleSd(ys) ?? 0
  const independent = Math.sqrt(sa * sa + sb * sb)
  return independent > 1e-12 ? independent : null
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
      : groupName({
          agent: k.agent,
          agentKind: '',
          model: k.model,
          dataset: k.dataset,
          suite: k.suite,
          category: k.category,
        }),
  )
  return distinctLabels(
    base,
    keys.map((k) => k.dataset),
  )
}
