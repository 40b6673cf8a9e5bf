import { InputError } from '../core/errors.js'
import type { RunRecord } from '../core/run-record.js'
import { formatNumber, formatP, formatSigned, stars } from '../stats/format.js'
import { type McNemarResult, mcnemar } from '../stats/mcnemar.js'
import { signFlipTest } from '../stats/permutation.js'
import { groupName } from './aggregate.js'
import { table } from './format.js'

export const COMPARISON_VERSION = 1

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
  /** Pairs where both sides have an F1. */
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
  significantWorse: boolean
  significantBetter: boolean
  f1: F1Comparison | null
  /** Side B's Score over all its rows in the group (paired or not): what the floor is checked on. */
  current: { attempted: number; correct: number; score: number | null }
  belowFloor: boolean
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
  /** True when the overall row or any group is significantly worse on B, or below the floor. */
  regression: boolean
}

type Pair = [RunRecord, RunRecord]

/**
 * Paired comparison of two sets of runs (A the baseline, B the candidate). Rows pair on
 * (caseId, turn, trial) within a group; Score differences get McNemar's test, F1 differences a paired
 * sign-flip permutation test. Refuses (InputError) when a pair's dataset sha256s differ, and when one side
 * has two rows for the same pair.
 */
export function compareRuns(a: readonly RunRecord[], b: readonly RunRecord[], options: CompareOptions = {}): Comparison {
  const alpha = options.alpha ?? 0.05
  const seed = options.seed ?? 0
  const floor = options.floor ?? null
  const labelA = options.labelA ?? 'A'
  const labelB = options.labelB ?? 'B'
  if (!(alpha > 0 && alpha < 1)) throw new InputError(`alpha must be in (0, 1), got ${alpha}`)
  if (!Number.isInteger(seed)) throw new InputError(`seed must be an integer, got ${seed}`)
  if (floor !== null && !(floor >= 0 && floor <= 1)) throw new InputError(`floor must be in [0, 1], got ${floor}`)

  const identitiesA = new Set(a.map(identityOf))
  const mode = b.some((r) => identitiesA.has(identityOf(r))) ? 'same-arm' : 'cross-arm'
  const keyOf = (r: RunRecord): ComparisonGroupKey => ({
    agent: mode === 'same-arm' ? r.agent : null,
    model: mode === 'same-arm' ? r.model : null,
    dataset: r.dataset,
    suite: r.suite,
    category: r.category,
  })

  const slotsA = indexSlots(a, keyOf, labelA, mode)
  const slotsB = indexSlots(b, keyOf, labelB, mode)
  const groups = new Map<string, { key: ComparisonGroupKey; pairs: Pair[]; onlyA: number; onlyB: number; rowsB: RunRecord[] }>()
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
  const ordered = [...groups.values()].sort((x, y) => compareKeys(x.key, y.key))
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
    regression: [overall, ...groupResults].some((g) => g.significantWorse || g.belowFloor),
  }
}

export interface GroupVerdict {
  group: string
  key: ComparisonGroupKey
  n: number
  b: number
  c: number
  p: number
  delta: number | null
  significantWorse: boolean
  belowFloor: boolean
  /** significantWorse || belowFloor. */
  failed: boolean
  /** One line with b, c, p and the delta, for gate output and watch mode. */
  message: string
}

/**
 * The reporter's baseline gate: per group, fail only when the current runs are significantly worse than
 * the baseline's (b > c and McNemar p < alpha) or their Score is below the absolute floor. A flake does not
 * reach significance; a real regression does.
 */
export function regressionVerdict(
  baseline: readonly RunRecord[],
  current: readonly RunRecord[],
  options: { alpha?: number; floor?: number; seed?: number } = {},
): GroupVerdict[] {
  const cmp = compareRuns(baseline, current, { ...options, labelA: 'baseline', labelB: 'current' })
  return cmp.groups.map((g) => ({
    group: g.group,
    key: g.key!,
    n: g.n,
    b: g.b,
    c: g.c,
    p: g.p,
    delta: g.delta,
    significantWorse: g.significantWorse,
    belowFloor: g.belowFloor,
    failed: g.significantWorse || g.belowFloor,
    message: verdictMessage(g, cmp.alpha, cmp.floor),
  }))
}

function verdictMessage(g: PairedGroupComparison, alpha: number, floor: number | null): string {
  const counts = `b=${g.b} c=${g.c} p=${formatP(g.p)} Δ=${formatSigned(g.delta)} (${g.n} pairs)`
  let text: string
  if (g.n === 0) text = `${g.group}: no paired baseline rows`
  else if (g.significantWorse) text = `${g.group}: significantly worse than baseline (α=${alpha}): ${counts}`
  else if (g.significantBetter) text = `${g.group}: significantly better than baseline: ${counts}`
  else text = `${g.group}: no significant change vs baseline: ${counts}`
  if (g.belowFloor) text += `; Score ${formatNumber(g.current.score)} is below the floor ${floor}`
  return text
}

function summarizePairs(
  group: string,
  key: ComparisonGroupKey | null,
  pairs: readonly Pair[],
  onlyA: number,
  onlyB: number,
  rowsB: readonly RunRecord[],
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
    significantWorse: b > c && test.p < settings.alpha,
    significantBetter: c > b && test.p < settings.alpha,
    f1: compareF1(pairs, settings.seed),
    current: { attempted: rowsB.length, correct: correctB, score: currentScore },
    belowFloor: settings.floor !== null && currentScore !== null && currentScore < settings.floor,
  }
}

function compareF1(pairs: readonly Pair[], seed: number): F1Comparison | null {
  const scored = pairs.filter(([x, y]) => x.f1 !== null && y.f1 !== null)
  if (scored.length === 0) return null
  const fa = scored.map(([x]) => x.f1!)
  const fb = scored.map(([, y]) => y.f1!)
  const test = signFlipTest(
    fb.map((v, i) => v - fa[i]!),
    { seed },
  )
  return {
    n: scored.length,
    meanA: fa.reduce((s, v) => s + v, 0) / fa.length,
    meanB: fb.reduce((s, v) => s + v, 0) / fb.length,
    meanDelta: test.meanDelta!,
    low: test.low!,
    high: test.high!,
    p: test.p,
    stars: stars(test.p),
    method: test.method,
  }
}

function identityOf(r: RunRecord): string {
  return JSON.stringify([r.agent, r.model])
}

function indexSlots(
  rows: readonly RunRecord[],
  keyOf: (r: RunRecord) => ComparisonGroupKey,
  label: string,
  mode: 'same-arm' | 'cross-arm',
): Map<string, { key: ComparisonGroupKey; row: RunRecord }> {
  const slots = new Map<string, { key: ComparisonGroupKey; row: RunRecord }>()
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

function checkSameData(x: RunRecord, y: RunRecord, labelA: string, labelB: string): void {
  const ha = x.datasetSha256
  const hb = y.datasetSha256
  if (!ha || !hb || (ha.dirty === hb.dirty && ha.clean === hb.clean)) return
  throw new InputError(
    `refusing to compare: dataset "${x.dataset}" differs (case "${x.caseId}", trial ${x.trial}): ` +
      `${labelA} dirty ${ha.dirty} clean ${ha.clean}, ${labelB} dirty ${hb.dirty} clean ${hb.clean}`,
  )
}

function compareKeys(x: ComparisonGroupKey, y: ComparisonGroupKey): number {
  for (const f of ['suite', 'dataset', 'category', 'agent', 'model'] as const) {
    const u = x[f] ?? ''
    const v = y[f] ?? ''
    if (u !== v) return u < v ? -1 : 1
  }
  return 0
}

/** The leaderboard's group names; where two groups would share one, the dataset is added to tell them apart. */
function groupLabels(keys: readonly ComparisonGroupKey[]): string[] {
  const base = keys.map((k) =>
    k.agent === null
      ? [k.suite, k.category].filter((x) => x !== null && x !== '').join(' · ')
      : groupName({ agent: k.agent, agentKind: '', model: k.model, dataset: k.dataset, suite: k.suite, category: k.category }),
  )
  const counts = new Map<string, number>()
  for (const label of base) counts.set(label, (counts.get(label) ?? 0) + 1)
  return base.map((label, i) => ((counts.get(label) ?? 0) > 1 ? `${label} · ${keys[i]!.dataset}` : label))
}

/** Markdown: one row per group and an overall row, the verdict, and how the numbers were computed. */
export function renderComparisonMarkdown(cmp: Comparison): string {
  const header = ['group', 'pairs', 'b (A✓ B✗)', 'c (A✗ B✓)', 'Score A', 'Score B', 'Δ Score', 'p', '', 'test', 'F1 A', 'F1 B', 'Δ F1 [95% CI]', 'F1 p']
  const row = (g: PairedGroupComparison): string[] => [
    g.key === null ? '**overall**' : g.group,
    String(g.n),
    String(g.b),
    String(g.c),
    formatNumber(g.scoreA),
    formatNumber(g.scoreB),
    formatSigned(g.delta),
    formatP(g.p),
    g.stars,
    g.mcnemar.method === 'exact' ? 'exact' : 'χ²',
    g.f1 ? formatNumber(g.f1.meanA) : '—',
    g.f1 ? formatNumber(g.f1.meanB) : '—',
    g.f1 ? `${formatSigned(g.f1.meanDelta)} [${formatSigned(g.f1.low)}, ${formatSigned(g.f1.high)}]` : '—',
    g.f1 ? `${formatP(g.f1.p)}${g.f1.stars ? ` ${g.f1.stars}` : ''}` : '—',
  ]
  const pairing =
    cmp.mode === 'same-arm'
      ? 'rows paired on (case, turn, trial) within agent/model × suite × dataset × category'
      : 'two arms: rows paired on (dataset, case, turn, trial) across agents'
  const failing = [cmp.overall, ...cmp.groups].filter((g) => g.significantWorse || g.belowFloor)
  const verdict = failing.length
    ? [
        `**B is worse than A** (α = ${cmp.alpha}${cmp.floor === null ? '' : `, floor ${cmp.floor}`}):`,
        '',
        ...failing.map(
          (g) =>
            `- ${g.key === null ? 'overall' : g.group}: ${g.significantWorse ? `b=${g.b} c=${g.c} p=${formatP(g.p)} Δ=${formatSigned(g.delta)}` : ''}${g.significantWorse && g.belowFloor ? '; ' : ''}${g.belowFloor ? `Score ${formatNumber(g.current.score)} below the floor ${cmp.floor}` : ''}`,
        ),
      ].join('\n')
    : `**No significant regression** of B vs A (α = ${cmp.alpha}${cmp.floor === null ? '' : `, floor ${cmp.floor}`}).`
  const unpaired =
    cmp.overall.onlyA || cmp.overall.onlyB
      ? `\nUnpaired rows (left out of the tests): ${cmp.overall.onlyA} only in A, ${cmp.overall.onlyB} only in B.\n`
      : ''
  return [
    `## Paired comparison`,
    '',
    `A: \`${cmp.labelA}\` · B: \`${cmp.labelB}\` · ${pairing}.`,
    '',
    table(header, [...cmp.groups.map(row), row(cmp.overall)]),
    '',
    verdict,
    unpaired,
    `b = pairs A got right and B did not; c = the reverse; Δ = Score B − Score A = (c − b)/pairs. ` +
      `McNemar: exact two-sided binomial when b + c ≤ 25, else χ² with continuity correction (1 df). ` +
      `F1: paired sign-flip permutation test (exact up to 16 pairs), percentile-bootstrap 95% interval, seed ${cmp.seed}. ` +
      `Stars: * p < 0.05, ** p < 0.01, *** p < 0.001.`,
    '',
  ].join('\n')
}

/** Stable JSON (two-space indent, trailing newline). */
export function comparisonToJson(cmp: Comparison): string {
  return `${JSON.stringify(cmp, (_, v) => (typeof v === 'number' && !Number.isFinite(v) ? null : v), 2)}\n`
}
