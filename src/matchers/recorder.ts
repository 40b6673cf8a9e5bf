import type { MatcherRecord } from '../vitest/meta.js'

/**
 * Where a matcher's verdict goes. The matchers know no test runner: each runner's setup installs the recorder
 * that finds its current test (Vitest: the task meta; Jest: the running test and the per-worker side file).
 * `assertionTest` is whatever the runner bound the assertion to (`this.task` in Vitest), passed through as is.
 */
export type MatcherRecorder = (record: MatcherRecord, assertionTest: unknown) => void

// A registered symbol, so a second copy of this module (ESM beside CJS, dist beside src) shares the recorder.
const RECORDER = Symbol.for('dataforge-evals.matcherRecorder')
type RecorderHolder = { [RECORDER]?: MatcherRecorder }

export function installMatcherRecorder(recorder: MatcherRecorder): void {
  ;(globalThis as RecorderHolder)[RECORDER] = recorder
}

/** Hands the verdict to the installed recorder; without one (no runner setup) the assertion still works. */
export function recordVerdict(record: MatcherRecord, assertionTest: unknown): void {
  ;(globalThis as RecorderHolder)[RECORDER]?.(record, assertionTest)
}
