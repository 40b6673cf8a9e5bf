import { InputError } from '../core/errors.js'
import type { RunRecord } from '../core/run-record.js'
import { stars } from '../stats/number-format.js'
import { type McNemarResult, mcnemar } from '../stats/mcnemar.js'
import { signFlipTest } from '../stats/permutation.js'
import { type Power, pairedPower } from '../stats/power.js'
import { mean } from '../stats/quantile.js'
import { compareGroupKeys, distinctLabels, groupName } from './aggregate.js'

export const COMPARISON_VERSION = 2

/** What a paired comparison reads from a run: its identity, its judgment and its F1. */
export type ComparableRun = Pick<
  RunRecord,
  'caseId' | 'turn' | 'trial' | 'agent' | 'model' | 'dataset' | 'suite' | 'category' | 'correct' | 'f1' | 'datasetSha256'
>

export interface CompareOptions {
  /** Significance level for "significantly worse/better". Default 0.05. */
  alpha?: number
  /** Seed for the F1 permutation test and bootstrap. Default 0. */
  seed?: number
  /** Absolute Score floor for side B: a group whose B Score is below it fails whatever the test says. */
  floor?: number
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

export interface F1Comparison {
  /** Pairs where both sides have an F1 (the pairs the test used). */
  n: number
  meanA: number
  meanB: number
  /** Mean of F1(B) − F1(A) with its percentile-bootstrap 95% interval. */
  meanDelta: number
  low: number
  high: number
  /** Two-sided paired sign-flip permutation test. */
  p: number
  stars: string
  method: 'exact' | 'monte-carlo'
  /** meanDelta < 0 and p < alpha. */
  significantWorse: boolean
  significantBetter: boolean
}

export interface PairedGroupComparison {
  /** Display name (the leaderboard's group name in same-arm mode). */
  group: string
  /** null for the overall row. */
  key: ComparisonGroupKey | null
  /** Pairs (rows present on both sides). */
  n: number
  /** A correct, B not. */
  b: number
  /** A not correct, B correct. */
  c: number
  bothCorrect: number
  bothWrong: number
  /** Rows without a partner, left out of the tests. */
  onlyA: number
  onlyB: number
  /** Score over the paired rows (a row without a judgment counts as not correct, as in Score). */
  scoreA: number | null
  scoreB: number | null
  /** scoreB − scoreA = (c − b) / n. */
  delta: number | null
  mcnemar: McNemarResult
  p: number
  stars: string
  /** Pass/fail (McNemar): b > c and p < alpha. */
  significantWorse: boolean
  significantBetter: boolean
  f1: F1Comparison | null
  /** Side B's Score over all its rows in the group (paired or not): what the floor is checked on. */
  current: { attempted: number; correct: number; score: number | null }
  belowFloor: boolean
  /** Whether these pairs can reach alpha at all, and how many would. */
  power: Power
  /** B has rows here and A none: a new group, compared with nothing and never a failure. */
  isNew: boolean
  /** significantly worse on pass/fail or on F1, or below the floor. */
  failed: boolean
}

export interface Comparison {
  comparisonVersion: typeof COMPARISON_VERSION
  labelA: string
  labelB: string
  mode: 'same-arm' | 'cross-arm'
  alpha: number
  seed: number
  floor: number | null
  groups: PairedGroupComparison[]
  overall: PairedGroupComparison
  /** True when the overall row or any group failed. */
  regression: boolean
}

type Pair = [ComparableRun, ComparableRun]

/**
 * Paired comparison of two sets of runs (A the baseline, B the candidate). Rows pair on
 * (caseId, turn, trial) within a group; Score differences get McNemar's test, F1 differences a paired
 * sign-flip permutation test, and either one significantly worse fails the group. Refuses (InputError) when a
 * pair's dataset sha256s differ, and when one side has two rows for the same pair.
 */
export function compareRuns(a: readonly ComparableRun[], b: readonly ComparableRun[], options: CompareOptions = {}): Comparison {
  const alpha = options.alpha ?? 0.05
  const seed = options.seed ?? 0
  const floor = options.floor ?? null
  const labelA = options.labelA ?? 'A'
  const labelB = options.labelB ?? 'B'
  if (!(alpha > 0 && alpha < 1)) throw new InputError(`alpha must be in (0, 1), got ${alpha}`)
  if (!Number.isInteger(seed)) throw new InputError(`seed must be an integer, got ${seed}`)
  if (floor !== null && !(floor >= 0 && floor <= 1)) throw new InputError(`floor must be in [0, 1], got ${floor}`)

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
  const groups = new Map<string, { key: ComparisonGroupKey; pairs: Pair[]; onlyA: number; onlyB: number; rowsB: ComparableRun[] }>()
  const groupOf = (key: ComparisonGroupKey) => {
    const id = JSON.stringify(key)
    let g = groups.get(id)
    if (!g) {
      g = { key, pairs: [], onlyA: 0, onlyB: 0, rowsB: [] }
      groups.set(id, g)
    }
    return g
  }
  for (const [slot, { key, row }] of slotsA) {
    const partner = slotsB.get(slot)
    const g = groupOf(key)
    if (!partner) {
      g.onlyA++
      continue
    }
    checkSameData(row, partner.row, labelA, labelB)
    g.pairs.push([row, partner.row])
  }
  for (const [slot, { key, row }] of slotsB) {
    const g = groupOf(key)
    g.rowsB.push(row)
    if (!slotsA.has(slot)) g.onlyB++
  }

  const settings = { alpha, seed, floor }
  const ordered = [...groups.values()].sort((x, y) => compareGroupKeys(x.key, y.key))
  const labels = groupLabels(ordered.map((g) => g.key))
  const groupResults = ordered.map((g, i) => summarizePairs(labels[i]!, g.key, g.pairs, g.onlyA, g.onlyB, g.rowsB, settings))
  const overall = summarizePairs(
    'overall',
    null,
    ordered.flatMap((g) => g.pairs),
    ordered.reduce((s, g) => s + g.onlyA, 0),
    ordered.reduce((s, g) => s + g.onlyB, 0),
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
    groups: groupResults,
    overall,
    regression: [overall, ...groupResults].some((g) => g.failed),
  }
}

function summarizePairs(
  group: string,
  key: ComparisonGroupKey | null,
  pairs: readonly Pair[],
  onlyA: number,
  onlyB: number,
  rowsB: readonly ComparableRun[],
  settings: { alpha: number; seed: number; floor: number | null },
): PairedGroupComparison {
  let b = 0
  let c = 0
  let bothCorrect = 0
  let bothWrong = 0
  for (const [x, y] of pairs) {
    const okA = x.correct === true
    const okB = y.correct === true
    if (okA && okB) bothCorrect++
    else if (okA) b++
    else if (okB) c++
    else bothWrong++
  }
  const n = pairs.length
  const test = mcnemar(b, c)
  const correctB = rowsB.filter((r) => r.correct === true).length
  const currentScore = rowsB.length ? correctB / rowsB.length : null
  const significantWorse = b > c && test.p < settings.alpha
  const f1 = compareF1(pairs, settings.seed, settings.alpha)
  const belowFloor = settings.floor !== null && currentScore !== null && currentScore < settings.floor
  const isNew = n === 0 && onlyA === 0 && rowsB.length > 0
  return {
    group,
    key,
    n,
    b,
    c,
    bothCorrect,
    bothWrong,
    onlyA,
    onlyB,
    scoreA: n ? (bothCorrect + b) / n : null,
    scoreB: n ? (bothCorrect + c) / n : null,
    delta: n ? (c - b) / n : null,
    mcnemar: test,
    p: test.p,
    stars: stars(test.p),
    significantWorse,
    significantBetter: c > b && test.p < settings.alpha,
    f1,
    current: { attempted: rowsB.length, correct: correctB, score: currentScore },
    belowFloor,
    power: pairedPower(n, settings.alpha),
    isNew,
    failed: !isNew && (significantWorse || (f1?.significantWorse ?? false) || belowFloor),
  }
}

function compareF1(pairs: readonly Pair[], seed: number, alpha: number): F1Comparison | null {
  const scored = pairs.filter(([x, y]) => x.f1 !== null && y.f1 !== null)
  if (scored.length === 0) return null
  const fa = scored.map(([x]) => x.f1!)
  const fb = scored.map(([, y]) => y.f1!)
  const test = signFlipTest(
    fb.map((v, i) => v - fa[i]!),
    { seed },
  )
  const meanDelta = test.meanDelta!
  return {
    n: scored.length,
    meanA: mean(fa),
    meanB: mean(fb),
    meanDelta,
    low: test.low!,
    high: test.high!,
    p: test.p,
    stars: stars(test.p),
    method: test.method,
    significantWorse: meanDelta < 0 && test.p < alpha,
    significantBetter: meanDelta > 0 && test.p < alpha,
  }
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
      const where = `dataset "${row.dataset}", case "${row.caseId}", turn ${row.turn ?? '-'}, trial ${row.trial}`
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
    `refusing to compare: dataset "${x.dataset}" differs (case "${x.caseId}", trial ${x.trial}): ` +
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
