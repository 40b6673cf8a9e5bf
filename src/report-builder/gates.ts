import type { ThresholdSpec, Thresholds } from './thresholds.js'
import { type Aggregate, armName } from './aggregate.js'
import type { EvalReport } from './build.js'
import { repeatGate } from '../stats/case-trials.js'
import { formatNumber } from '../stats/number-format.js'
import type { GroupDelta } from './baseline.js'
import { sortedEntries } from '../core/order.js'
import { caseLabel } from '../core/case-label.js'

export interface GateFailure {
  group: string
  metric: string
  value: number | null
  threshold: number
  message: string
}

function globToRegExp(pattern: string): RegExp {
  const escaped = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')
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

/** Every group below a matching threshold. A metric that cannot be computed (no run completed) fails too. */
export function checkThresholds(aggregates: readonly Aggregate[], thresholds: Thresholds): GateFailure[] {
  const failures: GateFailure[] = []
  for (const a of aggregates) {
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
          message: `${a.group}: ${metric} ${value === null ? 'n/a (no completed run)' : formatNumber(value)} is below the threshold ${threshold} (pattern "${pattern}")`,
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
  const groups = aggregates.map((a) => a.group)
  return Object.keys(thresholds)
    .filter((pattern) => !aggregates.some((a) => patternMatches(pattern, a)))
    .map(
      (pattern) =>
        `threshold pattern "${pattern}" matches no group, so its bar checks nothing; a pattern matches a group's name, suite, dataset, agent or category; groups: ${groups.join(', ') || '(none)'}`,
    )
}

export interface GateInput {
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
  const byKind = new Map<string, number>()
  for (const r of errored) byKind.set(r.failureKind ?? 'exception', (byKind.get(r.failureKind ?? 'exception') ?? 0) + 1)
  const kinds = sortedEntries(byKind).map(([k, n]) => `${k} ${n}`).join(', ')
  const first = errored[0]!
  return [
    `${errored.length} of ${executed.length} eval runs errored rather than scored (${kinds}); first: ${first.caseId} trial ${first.trial + 1}: ${first.failureMessage ?? first.failureKind}`,
  ]
}
