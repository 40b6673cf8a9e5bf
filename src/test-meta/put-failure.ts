import { putCounters, putFailure, putUsage } from './put.js'
import { classifyFailure } from '../run/run-repair-trial.js'
import type { DataforgeMeta } from './build.js'
import { failureOf } from './cap.js'

export { putUsage as putUsageOf }

/**
 * Records an agent's failure on the run the moment it happens, classified as the CLI classifies it (from the
 * error's structure), with what the agent spent. The first failure wins; a body that catches the error still
 * leaves a failed run.
 */
export function putAgentFailure(meta: DataforgeMeta, error: unknown): void {
  const failure = classifyFailure(error)
  meta.failure ??= failureOf(meta, failure.failureKind, failure.failureMessage)
  putUsage(meta, failure.usage, failure.steps, undefined)
  putCounters(meta, failure.metrics)
}

/** A known agent failure thrown out of a body, unless the bound agent already recorded the first one. */
export function putFailureOnce(meta: DataforgeMeta, error: unknown): void {
  if (!meta.failure) putFailure(meta, error)
}
