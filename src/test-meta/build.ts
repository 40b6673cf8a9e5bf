import { type TrialIdentity, type TrialIdentityInput, trialIdentity } from '../core/trial-identity.js'
import type { DataforgeMeta } from './schema.js'

// Type-only import: the schema (and zod) stays out of the test workers' module graph.
export type { DataforgeMeta, MatcherRecord } from './schema.js'

/**
 * A fresh meta: the trial's identity (`trialIdentity`; trial and seed 0 unless given), then what the door adds
 * (tags, the number of trials, a case's own metrics), nothing recorded yet. Written out, not spread: one is made
 * for every trial of every case, and a spread into a larger literal costs V8 several times the plain object.
 */
export function newMeta(
  identity: Omit<TrialIdentityInput, 'trial' | 'seed'> & { trial?: number; seed?: number },
  extra: { tags?: string[]; trials?: number; metrics?: Record<string, number> } = {},
): DataforgeMeta {
  const given =
    identity.trial !== undefined && identity.seed !== undefined
      ? (identity as TrialIdentityInput)
      : { ...identity, trial: identity.trial ?? 0, seed: identity.seed ?? 0 }
  const meta = trialIdentity(given) as TrialIdentity & Partial<DataforgeMeta>
  meta.tags = extra.tags ?? []
  meta.trials = extra.trials ?? 1
  meta.matchers = []
  meta.metrics = extra.metrics ?? {}
  meta.usage = null
  meta.steps = null
  meta.failure = null
  return meta as DataforgeMeta
}

const digestPairs = new Map<string, Readonly<{ dirty: string; clean: string }>>()

/**
 * The `datasetSha256` of a meta: one frozen object per pair of digests, shared by every test that names it.
 * Metas cross to Vitest's main process in batches, serialized with V8's structured clone, which writes an
 * object met again in the same batch as a back-reference: a thousand tests on one dataset send its two
 * 64-character digests once per batch, not once per test.
 */
export function datasetDigests(dirty: string, clean: string): Readonly<{ dirty: string; clean: string }> {
  const key = `${dirty}\u0000${clean}`
  let pair = digestPairs.get(key)
  if (!pair) {
    pair = Object.freeze({ dirty, clean })
    digestPairs.set(key, pair)
  }
  return pair
}

/** The agent of a plain test that used a matcher: it names no agent, and the leaderboard says so. */
const PLAIN_TEST_AGENT = 'plain test'

/**
 * The meta of a plain test that used a matcher: the test's full name is the case, its file's stem the suite, and
 * its file the dataset, so the leaderboard groups it as `plain test · conformance.test.ts`, not as a data set.
 */
export function plainTestMeta(fullName: string, fileName: string | undefined): DataforgeMeta {
  const file = fileName ?? 'tests'
  const suite = file.replace(/\.(eval|test|spec)\.[cm]?[jt]sx?$/, '')
  return newMeta({ caseId: fullName, suite, dataset: file, agent: PLAIN_TEST_AGENT })
}
