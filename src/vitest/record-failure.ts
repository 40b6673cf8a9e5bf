import type { Test } from '@vitest/runner'
import { classifyFailure } from '../run/run-repair-trial.js'
import { metaOf, recordCountersOn, recordUsageOn } from './current.js'

/**
 * Records an agent's failure on the test the moment it happens, classified as the CLI classifies it (from the
 * error's structure), with what the agent spent. The first failure wins; a body that catches the error still
 * leaves a failed run.
 */
export function recordAgentFailure(test: Test, error: unknown): void {
  const failure = classifyFailure(error)
  const meta = metaOf(test)
  meta.failure ??= { kind: failure.failureKind, message: failure.failureMessage }
  recordUsageOn(test, failure.usage, failure.steps, undefined)
  recordCountersOn(test, failure.metrics)
}
