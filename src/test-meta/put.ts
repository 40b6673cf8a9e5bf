import { AgentFailure } from '../core/errors.js'
import { type ClassifiedFailure, classifyFailure } from '../run/classify-failure.js'
import type { Usage } from '../core/schemas.js'
import { addUsage, emptyUsage, isZeroUsage } from '../core/usage.js'
import type { AgentIdentity } from '../core/trial-identity.js'
import type { DataforgeMeta } from './build.js'
import { failureOf } from './cap.js'

/** What a run records on its test's meta, whatever the runner that keeps the meta. */

/** The resolved agent replaces who the test was registered with (a module or command known by its name). */
export function putAgent(meta: DataforgeMeta, agent: AgentIdentity): void {
  Object.assign(meta, agent)
}

/** A custom metric on this run (the `record` an eval body gets, a matcher's per-property figures). */
export function putMetric(meta: DataforgeMeta, name: string, value: number): void {
  if (!Number.isFinite(value)) throw new TypeError(`record("${name}", ${value}): value must be a finite number`)
  meta.metrics[name] = value
}

/**
 * Adds an agent call's usage and steps to this run; the first model id reported sticks. A usage of all zeros
 * leaves a run with none recorded at `null` (its record reads zeros all the same): the meta crosses to Vitest's
 * main process with every test result, and most agents under test report no usage.
 */
export function putUsage(
  meta: DataforgeMeta,
  usage: Partial<Usage> | undefined,
  steps: number | undefined,
  model: string | undefined,
): void {
  if (usage && (meta.usage || !isZeroUsage(usage))) meta.usage = addUsage(meta.usage ?? emptyUsage(), usage)
  if (steps !== undefined) meta.steps = (meta.steps ?? 0) + steps
  if (model && !meta.model) meta.model = model
}

/** A known agent failure (timeout, rate limit…) goes on the run with what the run spent before it. */
export function putFailure(meta: DataforgeMeta, error: unknown): void {
  if (error instanceof AgentFailure) putClassified(meta, classifyFailure(error), 'replace')
}

/** A classified failure on the run (the first one only, or replacing it), and what the run spent before it. */
export function putClassified(meta: DataforgeMeta, failure: ClassifiedFailure, which: 'first' | 'replace'): void {
  if (which === 'replace' || !meta.failure) meta.failure = failureOf(meta, failure.failureKind, failure.failureMessage)
  putUsage(meta, failure.usage, failure.steps, undefined)
  putCounters(meta, failure.metrics)
}

/** Adds an agent's per-question counters (tool calls, tool errors…) to this run's metrics. */
export function putCounters(meta: DataforgeMeta, counters: Record<string, number> | undefined): void {
  if (!counters) return
  for (const [name, value] of Object.entries(counters)) {
    if (Number.isFinite(value)) meta.metrics[name] = (meta.metrics[name] ?? 0) + value
  }
}
