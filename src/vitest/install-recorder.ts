import type { Test } from '@vitest/runner'
import { installMatcherRecorder } from '../matchers/recorder.js'
import { recordMatcher } from './current.js'

function isTest(x: unknown): x is Test {
  return typeof x === 'object' && x !== null && (x as Test).type === 'test'
}

/** Vitest's door: matcher verdicts go on the task meta of the assertion's test (or the current one). */
installMatcherRecorder((record, assertionTest) => recordMatcher(record, isTest(assertionTest) ? assertionTest : undefined))
