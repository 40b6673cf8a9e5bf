import type { PRF } from '../core/repair-score.js'
import type { RunRecord } from '../core/run-record.js'
import { prf } from '../grading/repair/prf.js'
import type { Usage } from '../core/schemas.js'
import type { MeanInterval } from '../stats/bootstrap.js'
import { type OutcomeSummary, summarizeOutcomes } from '../stats/outcomes.js'
import type { UnitSummary } from '../stats/units.js'
import { meanOrNull } from '../stats/quantile.js'
import { addUsageInPlace, costPerCorrectFix, emptyUsage, tokensSpentAndSaved } from '../core/usage.js'
import type { ProportionInterval } from '../stats/wilson.js'
import { compareText, sortedEntries, sortedRecord } from '../core/order.js'
import { groupBy } from '../core/group-by.js'
import { dataRecord } from '../core/data-record.js'

export interface GroupKey {
  agent: string
  agentKind: string
  model: string | null
  dataset: string
  suite: string
  category: string | null
}

export interface Aggregate extends GroupKey {
  /** `agent[@model] · suite[ · category]`: the name thresholds and baselines match against. */
  group: string
  trialsRequested: number
  trialsCompleted: number
  trialsSkipped: number
  /** Run failures by kind (timeouts, exceptions, parse failures…), kept apart from repair diagnostics. */
  failures: Record<string, number>
  correct: number
  validated: number
  /** Score = correct / attempted (skipped runs excluded), with its 95% Wilson interval. */
  passRate: number | null
  score: ProportionInterval
  /** correct / validated: runs without a usable judgment leave the denominator. */
  validatedAccuracy: ProportionInterval
  completionRate: ProportionInterval
  /** Mean F1 over completed repair runs with a 95% t interval over units (one unit: a seeded bootstrap of its trials). */
  f1Interval: MeanInterval | null
  /** The units the intervals follow (a case, a conversation, a generated dataset) and how many there are. */
  units: UnitSummary
  /** How each interval was computed: `wilson`/`t` over independent runs, `wilson-clustered`/`cluster-t` over units. */
  intervalMethods: OutcomeSummary['intervalMethods']
  /** Completed repair runs: the n of the F1 mean. */
  repairRuns: number
  /** Macro: mean (and sample std) over completed runs; null when no run completed. */
  precisionMean: number | null
  recallMean: number | null
  f1Mean: number | null
  f1Std: number | null
  /** Micro: pooled from the summed tp/fp/fn counts. Null for groups without repair runs. */
  pooled: PRF | null
  detectionPooled: PRF | null
  stepsMean: number | null
  usage: Usage
  quotaUnitsPerTrial: number
  costPerCorrectFixUsd: number | null
  /** Tokens paid for, and tokens the record/replay cache answered: apart. */
  tokens: { spent: number; saved: number }
  runtimeS: number
  perColumn: Record<string, PRF>
  perKind: Record<string, { total: number; tp: number; recall: number }>
  diagnostics: {
    wrongCell: number
    wrongValue: number
    overRepair: number
    missedRepair: number
    caseInsensitiveColumn: number
    duplicateCells: number
    noopFixes: number
    malformed: number
  } | null
  metrics: Record<string, number>
}

/** Who ran: `agent`, or `agent@model` where the model is not the agent's name; every report names arms so. */
export function armName(agent: string, model: string | null): string {
  return model && model !== agent ? `${agent}@${model}` : agent
}

export function groupName(key: GroupKey): string {
  return [armName(key.agent, key.model), key.suite, key.category].filter((x) => x !== null && x !== '').join(' · ')
}

function keyOf(r: RunRecord): GroupKey {
  return {
    agent: r.agent,
    agentKind: r.agentKind,
    model: r.model,
    dataset: r.dataset,
    suite: r.suite,
    category: r.category,
  }
}

/** Sample standard deviation (n − 1); 0 for a single run. */
function std(values: number[]): number | null {
  if (values.length === 0) return null
  if (values.length === 1) return 0
  const m = meanOrNull(values)!
  return Math.sqrt(values.reduce((a, v) => a + (v - m) ** 2, 0) / (values.length - 1))
}

/** The order of groups in every report and comparison: suite, dataset, category, agent, model. */
export function compareGroupKeys(a: OrderedKey, b: OrderedKey): number {
  for (const f of ['suite', 'dataset', 'category', 'agent', 'model'] as const) {
    const order = compareText(a[f] ?? '', b[f] ?? '')
    if (order !== 0) return order
  }
  return 0
}

/**
 * The leaderboard's order: blocks of one suite and dataset stay in report order; within a block, groups with an
 * F1 (repair) rank by mean F1, highest first, ahead of those without. Score is not the rank: it counts runs that
 * met a bar (`--pass-f1`, an eval's assertions), and agents held to different bars do not share one.
 */
export function leaderboardOrder<T extends Pick<Aggregate, 'suite' | 'dataset' | 'f1Mean'>>(
  aggregates: readonly T[],
): T[] {
  const blockOf = (a: T) => `${a.suite}\u0000${a.dataset}`
  const blockAt = new Map<string, number>()
  aggregates.forEach((a, i) => {
    if (!blockAt.has(blockOf(a))) blockAt.set(blockOf(a), i)
  })
  const rank = (a: T) => a.f1Mean ?? -1
  return aggregates
    .map((a, i) => ({ a, i }))
    .sort((x, y) => blockAt.get(blockOf(x.a))! - blockAt.get(blockOf(y.a))! || rank(y.a) - rank(x.a) || x.i - y.i)
    .map(({ a }) => a)
}

type OrderedKey = {
  suite: string
  dataset: string
  category: string | null
  agent: string | null
  model: string | null
}

/** Runs of the group that failed (timeouts, exceptions, …), whatever their kind. */
export function failedRuns(a: Pick<Aggregate, 'failures'>): number {
  let total = 0
  for (const n of Object.values(a.failures)) total += n
  return total
}

/** Display labels: each as given, with its dataset added where two would otherwise read the same. */
export function distinctLabels(labels: readonly string[], datasets: readonly string[]): string[] {
  const counts = new Map<string, number>()
  for (const label of labels) counts.set(label, (counts.get(label) ?? 0) + 1)
  return labels.map((label, i) => ((counts.get(label) ?? 0) > 1 ? `${label} · ${datasets[i]}` : label))
}

interface AggregateOptions {
  /** Seed of the bootstrap resamples, so intervals are reproducible. Default 0. */
  seed?: number
}

/** Groups records by agent/model × dataset/suite × category, in a stable order. */
export function aggregate(records: readonly RunRecord[], options: AggregateOptions = {}): Aggregate[] {
  const groups = [
    ...groupBy(records, (r) => JSON.stringify([r.agent, r.model, r.dataset, r.suite, r.category])).values(),
  ].map((rows) => ({ key: keyOf(rows[0]!), rows }))
  return groups
    .sort((a, b) => compareGroupKeys(a.key, b.key))
    .map(({ key, rows }) => summarize(key, rows, options.seed ?? 0))
}

function summarize(key: GroupKey, rows: RunRecord[], seed: number): Aggregate {
  // One pass sorts the rows into the sets the figures are taken over and adds up each sum in row order (the
  // order, and so the rounding, of one pass per figure).
  const completed: RunRecord[] = []
  const repair: RunRecord[] = []
  const executed: RunRecord[] = []
  const failures: Record<string, number> = {}
  const f1s: number[] = []
  const usage = emptyUsage()
  const sums = { runtimeS: 0, steps: 0, tp: 0, fp: 0, fn: 0, precision: 0, recall: 0 }
  const detection = { runs: 0, tp: 0, fp: 0, fn: 0 }
  let skipped = 0
  for (const r of rows) {
    sums.runtimeS += r.runtimeS
    addUsageInPlace(usage, r.usage)
    if (r.status === 'skipped') skipped++
    else executed.push(r)
    if (r.status === 'failed')
      failures[r.failureKind ?? 'exception'] = (failures[r.failureKind ?? 'exception'] ?? 0) + 1
    if (r.status !== 'ok') continue
    completed.push(r)
    sums.steps += r.steps
    if (r.tp === null) continue
    repair.push(r)
    sums.tp += r.tp
    sums.fp += r.fp!
    sums.fn += r.fn!
    sums.precision += r.precision!
    sums.recall += r.recall!
    f1s.push(r.f1!)
    if (r.detection) {
      detection.runs++
      detection.tp += r.detection.tp
      detection.fp += r.detection.fp
      detection.fn += r.detection.fn
    }
  }
  const pooled = repair.length ? prf(sums.tp, sums.fp, sums.fn) : null
  const detectionPooled = detection.runs ? prf(detection.tp, detection.fp, detection.fn) : null
  const outcomes = summarizeOutcomes(executed, { seed })
  // The key's fields written out, not spread: with the spread, V8 builds this forty-field literal field by field,
  // measured ~3× slower a group (a report has a group per agent × suite: 100 for 100 conversations).
  return {
    agent: key.agent,
    agentKind: key.agentKind,
    model: key.model,
    dataset: key.dataset,
    suite: key.suite,
    category: key.category,
    group: groupName(key),
    trialsRequested: rows.length,
    trialsCompleted: completed.length,
    trialsSkipped: skipped,
    failures: sortedRecord(failures),
    correct: outcomes.correct,
    validated: outcomes.validated,
    passRate: outcomes.score.point,
    score: outcomes.score,
    validatedAccuracy: outcomes.validatedAccuracy,
    completionRate: outcomes.completionRate,
    f1Interval: outcomes.f1,
    units: outcomes.units,
    intervalMethods: outcomes.intervalMethods,
    repairRuns: repair.length,
    precisionMean: repair.length ? sums.precision / repair.length : null,
    recallMean: repair.length ? sums.recall / repair.length : null,
    f1Mean: meanOrNull(f1s),
    f1Std: std(f1s),
    pooled,
    detectionPooled,
    stepsMean: completed.length ? sums.steps / completed.length : null,
    usage,
    quotaUnitsPerTrial: rows.length ? usage.quotaUnits / rows.length : 0,
    costPerCorrectFixUsd: pooled ? costPerCorrectFix(usage, pooled.tp) : null,
    tokens: tokensSpentAndSaved(usage),
    runtimeS: sums.runtimeS,
    perColumn: poolPerColumn(repair),
    perKind: poolPerKind(repair),
    diagnostics: repair.length ? poolDiagnostics(repair) : null,
    metrics: meanMetrics(completed),
  }
}

/** Per key of `pick(row)` (a column, a kind), the named counts summed over the rows in row order; sorted by key. */
function sumCountsByKey<F extends string>(
  rows: readonly RunRecord[],
  pick: (r: RunRecord) => Record<string, Record<F, number>> | null,
  fields: readonly F[],
): Array<[string, number[]]> {
  const acc = new Map<string, number[]>()
  for (const r of rows) {
    const byKey = pick(r)
    if (!byKey) continue
    // Own keys only: a record built elsewhere with a prototype must not add its inherited names as columns.
    for (const key of Object.keys(byKey)) {
      const counts = byKey[key]!
      let sums = acc.get(key)
      if (!sums) {
        sums = fields.map(() => 0)
        acc.set(key, sums)
      }
      for (let i = 0; i < fields.length; i++) sums[i]! += counts[fields[i]!]
    }
  }
  return sortedEntries(acc)
}

function poolPerColumn(rows: RunRecord[]): Record<string, PRF> {
  const sums = sumCountsByKey(rows, (r) => r.perColumn, ['tp', 'fp', 'fn'])
  return dataRecord(sums.map(([c, [tp, fp, fn]]) => [c, prf(tp!, fp!, fn!)]))
}

function poolPerKind(rows: RunRecord[]): Aggregate['perKind'] {
  const sums = sumCountsByKey(rows, (r) => r.perKind, ['total', 'tp'])
  return dataRecord(
    sums.map(([kind, [total, tp]]) => [kind, { total: total!, tp: tp!, recall: total ? tp! / total : 1 }]),
  )
}

function poolDiagnostics(rows: RunRecord[]): NonNullable<Aggregate['diagnostics']> {
  const out = {
    wrongCell: 0,
    wrongValue: 0,
    overRepair: 0,
    missedRepair: 0,
    caseInsensitiveColumn: 0,
    duplicateCells: 0,
    noopFixes: 0,
    malformed: 0,
  }
  for (const r of rows) {
    const d = r.diagnostics
    if (!d) continue
    out.wrongCell += d.wrongCell.length
    out.wrongValue += d.wrongValue.length
    out.overRepair += d.overRepair.length
    out.missedRepair += d.missedRepair.length
    out.caseInsensitiveColumn += d.caseInsensitiveColumn.length
    out.duplicateCells += d.duplicateCells
    out.noopFixes += d.noopFixes
    out.malformed += d.malformed.length
  }
  return out
}

function meanMetrics(rows: RunRecord[]): Record<string, number> {
  const acc = new Map<string, number[]>()
  for (const r of rows) {
    for (const [k, v] of Object.entries(r.metrics)) {
      const values = acc.get(k)
      if (values) values.push(v)
      else acc.set(k, [v])
    }
  }
  return dataRecord(sortedEntries(acc).map(([k, vs]) => [k, meanOrNull(vs)!]))
}
