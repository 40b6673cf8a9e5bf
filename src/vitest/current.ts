import { AsyncLocalStorage } from 'node:async_hooks'
import { basename } from 'node:path'
import type { RunnerTestCase as Test } from 'vitest'
import { TestRunner } from 'vitest'
import { putMetric } from '../test-meta/put.js'
import { annotate, shouldAnnotate } from './annotate.js'
import { letResultsFlow } from './results-flow.js'
import { type DataforgeMeta, type MatcherRecord, plainTestMeta } from '../test-meta/build.js'

/**
 * The test an assertion belongs to. `evalCase` and `conversation` run the bodies of concurrent tests inside
 * this storage, so matchers find the right test even with the global `expect`. Elsewhere the matcher's own
 * test comes next (the test's local `expect` knows it, which is what concurrent plain tests need), then
 * Vitest's current test, which is right for every sequential test.
 */
const storage = new AsyncLocalStorage<Test>()

/**
 * Runs `fn` as `test`'s body, once earlier results could flow to the reporter (`results-flow.ts`). Only
 * concurrent tests enter the storage: sequential ones are Vitest's current test already, and an
 * AsyncLocalStorage in use slows every promise in the worker.
 */
export async function runInTest<T>(test: Test, fn: () => Promise<T>): Promise<T> {
  const turn = letResultsFlow()
  if (turn) await turn
  return test.concurrent ? storage.run(test, fn) : fn()
}

export function currentTest(assertionTest?: Test): Test | undefined {
  return storage.getStore() ?? assertionTest ?? (TestRunner.getCurrentTest() as Test | undefined)
}

/** The test's dataforge meta, created with neutral identity for plain `test()` cases that use our matchers. */
export function metaOf(test: Test): DataforgeMeta {
  if (!test.meta.dataforge)
    test.meta.dataforge = plainTestMeta(fullName(test), test.file?.name ? basename(test.file.name) : undefined)
  return test.meta.dataforge
}

function fullName(test: Test): string {
  const names: string[] = [test.name]
  let suite = test.suite
  while (suite?.name && suite !== (test.file as unknown)) {
    names.unshift(suite.name)
    suite = suite.suite
  }
  return names.join(' > ')
}

/**
 * Stores a matcher's verdict on the running test; a failed one (every one under `DATAFORGE_ANNOTATE=all`) also
 * annotates its one-line summary. `assertionTest` is the test Vitest bound the assertion to (`this.task`).
 */
export function recordMatcher(record: MatcherRecord, assertionTest?: Test): void {
  const test = currentTest(assertionTest)
  if (!test) return
  metaOf(test).matchers.push(record)
  if (shouldAnnotate(!record.passed)) annotate(test, record.summary, 'dataforge')
}

export function recordMetric(name: string, value: number): void {
  const test = currentTest()
  if (!test) throw new Error(`record("${name}") called outside a running test`)
  recordMetricOn(test, name, value)
}

/** Records a custom metric on this test's run (the `record` an evalCase body gets). */
function recordMetricOn(test: Test, name: string, value: number): void {
  putMetric(metaOf(test), name, value)
}
