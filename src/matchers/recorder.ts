import type { DataforgeMeta, MatcherRecord } from '../test-meta/build.js'

/**
 * How the matchers reach "the current test". They know no test runner: each runner's setup installs this
 * (Vitest: the task meta, with annotations; Jest: the running test, written to the per-worker side file).
 * `assertionTest` is whatever the runner bound the assertion to (`this.task` in Vitest), passed through as is.
 */
interface CurrentTestAccess {
  /** Stores a matcher's verdict on the running test. */
  recordVerdict(record: MatcherRecord, assertionTest: unknown): void
  /** The running test's meta (created on first use); undefined outside a test. */
  meta(assertionTest: unknown): DataforgeMeta | undefined
}

// A registered symbol, so a second copy of this module (ESM beside CJS, dist beside src) shares the access.
const ACCESS = Symbol.for('dataforge-evals.currentTestAccess')
type AccessHolder = { [ACCESS]?: CurrentTestAccess }

export function installCurrentTestAccess(access: CurrentTestAccess): void {
  ;(globalThis as AccessHolder)[ACCESS] = access
}

/** Hands the verdict to the runner; without a runner setup the assertion still works, unrecorded. */
export function recordVerdict(record: MatcherRecord, assertionTest: unknown): void {
  ;(globalThis as AccessHolder)[ACCESS]?.recordVerdict(record, assertionTest)
}

export function currentMeta(assertionTest: unknown): DataforgeMeta | undefined {
  return (globalThis as AccessHolder)[ACCESS]?.meta(assertionTest)
}
