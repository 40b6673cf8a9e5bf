import { expect } from 'vitest'
import { dataforgeMatchers } from '../matchers/index.js'
import './install-recorder.js'

/** `setupFiles: ['dataforge-evals/vitest/setup']` registers every dataforge matcher. */
expect.extend(dataforgeMatchers)

export type { DataforgeAssertion, VitestAssertion } from './augment.js'
