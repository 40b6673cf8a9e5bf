import type { ThresholdSpec, Thresholds } from './thresholds.js'
import { type Aggregate, armName } from './aggregate.js'
import type { EvalReport } from './build.js'
import { repeatGate } from '../stats/case-trials.js'
import { counted, formatNumber } from '../stats/number-format.js'
import type { GroupDelta } from './baseline.js'
import { sortedEntries } from '../core/order.js'
import { caseLabel } from '../core/case-label.js'
import type { RunRecord } from '../core/run-record.js'
import { scored } from '../core/scored.js'

export interface GateFailure {
  group: string
  metric: string
  value: number | null
  threshold: number
  message: string
}

function globToRegExp(pattern: string): RegExp {
  const escaped = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.')
  return new RegExp(`^${escaped}$`, 'i')
}

export function patternMatches(pattern: string, a: Aggregate): boolean {
  const re = globToRegExp(pattern)
  return [a.group, a.suite, a.dataset, a.agent, a.category ?? ''].some((field) => re.test(field))
}

function metricValue(a: Aggregate, metric: keyof ThresholdSpec): number | null {
  switch (metric) {
    case 'f1':
      return a.f1Mean
    case 'pooledF1':
      return a.pooled?.f1 ?? null
    case 'precision':
      return a.precisionMean
    case 'recall':
      return a.recallMean
    case 'passRate':
      return a.passRate
    case 'completionRate': {
      const attempted = a.trialsRequested - a.trialsSkipped
      return attempted ? a.trialsCompleted / attempted : null
    }
  }
}

/** Whether any run of the group was attempted (not every one skipped by a filter, a shard, `.skip` or `.todo`). */
function groupRan(a: Pick<Aggregate, 'trialsRequested' | 'trialsSkipped'>): boolean {
  return a.trialsRequested > a.trialsSkipped
}

/**
 * Every group that ran and is below a matching threshold. A metric that cannot be computed although runs were
 * attempted (every one errored) fails too; a group without attempted runs is not run, never below a bar.
 */
export function checkThresholds(aggregates: readonly Aggregate[], thresholds: Thresholds): GateFailure[] {
  const failures: GateFailure[] = []
  for (const a of aggregates) {
    if (!groupRan(a)) continue
    for (const [pattern, spec] of Object.entries(thresholds)) {
      if (!patternMatches(pattern, a)) continue
      for (const [metric, threshold] of Object.entries(spec) as [keyof ThresholdSpec, number][]) {
        const value = metricValue(a, metric)
        if (value !== null && value >= threshold) continue
        failures.push({
          group: a.group,
          metric,
          value,
          threshold,
          message: `${a.group}: ${metric} ${value === null ? `n/a (${a.trialsCompleted ? `no completed run has ${metric}` : 'no completed run'})` : formatNumber(value)} is below the threshold ${threshold} (pattern "${pattern}")`,
        })
      }
    }
  }
  return failures
}

/**
 * Threshold patterns that match no group of the run. A typo (`synthetci`) would otherwise disable its gate
 * silently; the message names the pattern and the groups that exist.
 */
export function unmatchedThresholds(aggregates: readonly Aggregate[], thresholds: Thresholds): string[] {
  const groups = aggregates.filter(groupRan).map((a) => a.group)
  // A pattern that matches only groups left without runs is covered by the one "not run" note.
  return Object.keys(thresholds)
    .filter((pattern) => !aggregates.some((a) => patternMatches(pattern, a)))
    .map(
      (pattern) =>
        `threshold pattern "${pattern}" matches no group, so its bar checks nothing; a pattern matches a group's name, suite, dataset, agent or category; groups: ${groups.join(', ') || '(none)'}`,
    )
}

interface GateInput {
  report: EvalReport
  thresholds?: Thresholds
  /** Repeat gate: every case correct in at least this many of its trials. */
  minPassesPerCase?: number
  /** Per-group comparison with the baseline, or why the baseline cannot be used. */
  baseline?: { deltas: readonly GroupDelta[]; problem: string | null }
  /**
   * The run did not execute every eval (file or name filters): a threshold pattern matching no group may
   * match a group that was not run, so it is noted instead of failed.
   */
  filtered?: boolean
}

export interface GateResult {
  /** Each failure in one line: the run fails when there is any. */
  failures: string[]
  /** What the reader should know that does not fail the run. */
  notes: string[]
  /** The fail-closed part of the failures (no eval executed, evals errored): such a run updates no baseline. */
  closed: string[]
}

/** Every gate of a run: fail-closed, thresholds (and patterns that match nothing), the repeat gate, the baseline. */
export function evaluateGates(input: GateInput): GateResult {
  const { report } = input
  const thresholds = input.thresholds ?? {}
  const closed = failClosed(report)
  const failures = [...closed]
  const notes: string[] = []
  const unmatched = unmatchedThresholds(report.aggregates, thresholds)
  if (input.filtered) notes.push(...unmatched.map((m) => `${m} (not checked: this run was filtered)`))
  else failures.push(...unmatched)
  const notRun = notRunNote(report.aggregates)
  if (notRun && closed.length === 0) notes.push(notRun)
  for (const f of checkThresholds(report.aggregates, thresholds)) failures.push(f.message)
  if (input.minPassesPerCase !== undefined) failures.push(...repeatGateFailures(report, input.minPassesPerCase))
  if (input.baseline?.problem) failures.push(input.baseline.problem)
  for (const d of input.baseline?.deltas ?? []) if (d.failed) failures.push(d.message)
  return { failures, notes, closed }
}

/**
 * The repeat gate (`--min-passes`, `minPassesPerCase`): one line per case that passed fewer than `atLeast` of
 * its trials, as the reporter and the CLI print it; empty when every case met the bar.
 */
export function repeatGateFailures(report: Pick<EvalReport, 'cases'>, atLeast: number): string[] {
  return repeatGate(report.cases, { atLeast }).failing.map((c) => {
    const who = `${armName(c.agent, c.model)} · ${c.dataset} · ${caseLabel(c)}`
    return `${who}: passed ${c.passes} of ${c.n} trials, the repeat gate needs ${atLeast}`
  })
}

/**
 * One line naming the groups a filter (`-t`, a file filter, `--shard`) or `.skip`/`.todo` left without runs:
 * they are not run, so no threshold and no baseline is checked for them. Null when every group ran.
 */
function notRunNote(aggregates: readonly Aggregate[]): string | null {
  const idle = aggregates.filter((a) => !groupRan(a)).map((a) => a.group)
  if (!idle.length) return null
  return `not run: ${counted(idle.length, 'group')} had no attempted run (a -t or file filter, a shard, .skip or .todo left them out), so their thresholds and baseline are not checked: ${idle.join(', ')}`
}

/**
 * The fail-closed rule every door shares (`run`, `qa`, `conformance`, the Vitest and Jest reporters): when no
 * run scored, the run fails with one line that says so: `no question scored: all 40 errored (timeout 40; first:
 * q1 trial 1: timed out after 120 s)`. Null when at least one run scored (`scored`). Skipped runs do not count.
 */
export function nothingScored(records: readonly RunRecord[], noun: { one: string; many: string }): string | null {
  const attempted = records.filter((r) => r.status !== 'skipped')
  if (attempted.some(scored)) return null
  if (attempted.length === 0) return `no ${noun.one} scored: none ran`
  const first = attempted[0]!
  const kinds = failureKinds(attempted)
  const which = attempted.length === 1 ? `the one ${noun.one} errored` : `all ${attempted.length} ${noun.many} errored`
  return `no ${noun.one} scored: ${which} (${kinds}; first: ${caseLabel(first)} trial ${first.trial + 1}: ${first.failureMessage ?? first.failureKind})`
}

/**
 * Fail closed: a run in which no eval executed, or in which evals errored instead of scoring, cannot pass a gate.
 */
export function failClosed(report: EvalReport): string[] {
  const executed = report.records.filter((r) => r.status !== 'skipped')
  if (executed.length === 0) {
    return [
      report.records.length === 0
        ? 'no eval executed: no test used evalCase(), conversation() or a dataforge matcher; the gate fails closed'
        : `no eval executed: all ${report.records.length} eval runs were skipped; the gate fails closed`,
    ]
  }
  const errored = executed.filter((r) => r.status === 'failed')
  if (errored.length === 0) return []
  if (errored.length === executed.length)
    return [`${nothingScored(executed, { one: 'eval run', many: 'eval runs' })}; the gate fails closed`]
  const kinds = failureKinds(errored)
  const first = errored[0]!
  return [
    `${errored.length} of ${executed.length} eval runs errored rather than scored (${kinds}); first: ${first.caseId} trial ${first.trial + 1}: ${first.failureMessage ?? first.failureKind}`,
  ]
}

/** `exception 1, timeout 2`: errored runs counted by failure kind, in a stable order. */
function failureKinds(errored: readonly RunRecord[]): string {
  const byKind = new Map<string, number>()
  for (const r of errored) byKind.set(r.failureKind ?? 'exception', (byKind.get(r.failureKind ?? 'exception') ?? 0) + 1)
  return sortedEntries(byKind)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ')
}
