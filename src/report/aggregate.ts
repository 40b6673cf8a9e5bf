import type { PRF } from '../core/repair-score.js'
import type { RunRecord } from '../core/run-record.js'
import { prf } from '../grading/repair/prf.js'
import { addUsage, emptyUsage, type Usage } from '../core/schemas.js'
import type { MeanInterval } from '../stats/bootstrap.js'
import { summarizeOutcomes } from '../stats/outcomes.js'
import { meanOrNull } from '../stats/quantile.js'
import { costPerCorrectFix, tokensSpentAndSaved } from '../core/usage.js'
import type { ProportionInterval } from '../stats/wilson.js'

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
  /** Mean F1 over completed repair runs with a seeded bootstrap 95% interval. */
  f1Interval: MeanInterval | null
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

export function groupName(key: GroupKey): string {
  const who = key.model && key.model !== key.agent ? `${key.agent}@${key.model}` : key.agent
  return [who, key.suite, key.category].filter((x) => x !== null && x !== '').join(' · ')
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

function compareKeys(a: GroupKey, b: GroupKey): number {
  const fields: (keyof GroupKey)[] = ['suite', 'dataset', 'category', 'agent', 'model']
  for (const f of fields) {
    const x = a[f] ?? ''
    const y = b[f] ?? ''
    if (x !== y) return x < y ? -1 : 1
  }
  return 0
}

export interface AggregateOptions {
  /** Seed of the bootstrap resamples, so intervals are reproducible. Default 0. */
  seed?: number
}

/** Groups records by agent/model × dataset/suite × category, in a stable order. */
export function aggregate(records: readonly RunRecord[], options: AggregateOptions = {}): Aggregate[] {
  const groups = new Map<string, { key: GroupKey; rows: RunRecord[] }>()
  for (const r of records) {
    const key = keyOf(r)
    const id = JSON.stringify([key.agent, key.model, key.dataset, key.suite, key.category])
    const g = groups.get(id)
    if (g) g.rows.push(r)
    else groups.set(id, { key, rows: [r] })
  }
  return [...groups.values()].sort((a, b) => compareKeys(a.key, b.key)).map(({ key, rows }) => summarize(key, rows, options.seed ?? 0))
}

function summarize(key: GroupKey, rows: RunRecord[], seed: number): Aggregate {
  const completed = rows.filter((r) => r.status === 'ok')
  const repair = completed.filter((r) => r.tp !== null)
  const failures: Record<string, number> = {}
  for (const r of rows) {
    if (r.status === 'failed') failures[r.failureKind ?? 'exception'] = (failures[r.failureKind ?? 'exception'] ?? 0) + 1
  }
  const sum = (f: (r: RunRecord) => number) => repair.reduce((a, r) => a + f(r), 0)
  const pooled = repair.length ? prf(sum((r) => r.tp!), sum((r) => r.fp!), sum((r) => r.fn!)) : null
  const withDetection = repair.filter((r) => r.detection)
  const detectionPooled = withDetection.length
    ? prf(
        withDetection.reduce((a, r) => a + r.detection!.tp, 0),
        withDetection.reduce((a, r) => a + r.detection!.fp, 0),
        withDetection.reduce((a, r) => a + r.detection!.fn, 0),
      )
    : null
  const usage = rows.reduce((u, r) => addUsage(u, r.usage), emptyUsage())
  const outcomes = summarizeOutcomes(
    rows.filter((r) => r.status !== 'skipped'),
    { seed },
  )
  return {
    ...key,
    group: groupName(key),
    trialsRequested: rows.length,
    trialsCompleted: completed.length,
    trialsSkipped: rows.filter((r) => r.status === 'skipped').length,
    failures: sortRecord(failures),
    correct: outcomes.correct,
    validated: outcomes.validated,
    passRate: outcomes.score.point,
    score: outcomes.score,
    validatedAccuracy: outcomes.validatedAccuracy,
    completionRate: outcomes.completionRate,
    f1Interval: outcomes.f1,
    repairRuns: repair.length,
    precisionMean: meanOrNull(repair.map((r) => r.precision!)),
    recallMean: meanOrNull(repair.map((r) => r.recall!)),
    f1Mean: meanOrNull(repair.map((r) => r.f1!)),
    f1Std: std(repair.map((r) => r.f1!)),
    pooled,
    detectionPooled,
    stepsMean: meanOrNull(completed.map((r) => r.steps)),
    usage,
    quotaUnitsPerTrial: rows.length ? usage.quotaUnits / rows.length : 0,
    costPerCorrectFixUsd: pooled ? costPerCorrectFix(usage, pooled.tp) : null,
    tokens: tokensSpentAndSaved(usage),
    runtimeS: rows.reduce((a, r) => a + r.runtimeS, 0),
    perColumn: poolPerColumn(repair),
    perKind: poolPerKind(repair),
    diagnostics: repair.length ? poolDiagnostics(repair) : null,
    metrics: meanMetrics(completed),
  }
}

function poolPerColumn(rows: RunRecord[]): Record<string, PRF> {
  const acc = new Map<string, [number, number, number]>()
  for (const r of rows) {
    for (const [col, p] of Object.entries(r.perColumn ?? {})) {
      const a = acc.get(col) ?? [0, 0, 0]
      acc.set(col, [a[0] + p.tp, a[1] + p.fp, a[2] + p.fn])
    }
  }
  return Object.fromEntries([...acc].sort(([a], [b]) => (a < b ? -1 : 1)).map(([c, [tp, fp, fn]]) => [c, prf(tp, fp, fn)]))
}

function poolPerKind(rows: RunRecord[]): Aggregate['perKind'] {
  const acc = new Map<string, [number, number]>()
  for (const r of rows) {
    for (const [kind, k] of Object.entries(r.perKind ?? {})) {
      const a = acc.get(kind) ?? [0, 0]
      acc.set(kind, [a[0] + k.total, a[1] + k.tp])
    }
  }
  return Object.fromEntries(
    [...acc].sort(([a], [b]) => (a < b ? -1 : 1)).map(([kind, [total, tp]]) => [kind, { total, tp, recall: total ? tp / total : 1 }]),
  )
}

function poolDiagnostics(rows: RunRecord[]): NonNullable<Aggregate['diagnostics']> {
  const out = { wrongCell: 0, wrongValue: 0, overRepair: 0, missedRepair: 0, caseInsensitiveColumn: 0, duplicateCells: 0, noopFixes: 0, malformed: 0 }
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
  for (const r of rows) for (const [k, v] of Object.entries(r.metrics)) acc.set(k, [...(acc.get(k) ?? []), v])
  return Object.fromEntries([...acc].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, vs]) => [k, meanOrNull(vs)!]))
}

function sortRecord<T>(obj: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(obj).sort(([a], [b]) => (a < b ? -1 : 1)))
}
