import type { RunnerTestCase as Test } from 'vitest'
import { installCurrentTestAccess } from '../matchers/recorder.js'
import { currentTest, metaOf, recordMatcher } from './current.js'

function isTest(x: unknown): x is Test {
  return typeof x === 'object' && x !== null && (x as Test).type === 'test'
}

/** Vitest's door: matchers reach the task meta of the assertion's test (or the current one). */
installCurrentTestAccess({
  recordVerdict: (record, assertionTest) => recordMatcher(record, isTest(assertionTest) ? assertionTest : undefined),
  meta: (assertionTest) => {
    const test = currentTest(isTest(assertionTest) ? assertionTest : undefined)
    return test ? metaOf(test) : undefined
  },
})
