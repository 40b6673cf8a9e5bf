import { putClassified, putFailure, putUsage } from './put.js'
import { classifyFailure } from '../run/classify-failure.js'
import type { DataforgeMeta } from './build.js'

export { putUsage as putUsageOf }

/**
 * Records an agent's failure on the run the moment it happens, classified as the CLI classifies it (from the
 * error's structure), with what the agent spent. The first failure wins; a body that catches the error still
 * leaves a failed run.
 */
export function putAgentFailure(meta: DataforgeMeta, error: unknown): void {
  putClassified(meta, classifyFailure(error), 'first')
}

/** A known agent failure thrown out of a body, unless the bound agent already recorded the first one. */
export function putFailureOnce(meta: DataforgeMeta, error: unknown): void {
  if (!meta.failure) putFailure(meta, error)
}
