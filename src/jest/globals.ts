import { currentMeta } from '../matchers/recorder.js'
import type { DataforgeMeta } from '../cases/new-meta.js'

/** The parts of Jest's injected globals that `evalCase` and `conversation` register with. */
type TestFn = (name: string, fn: () => Promise<void>, timeout?: number) => void
export interface JestGlobals {
  test: TestFn & { only: TestFn; skip: TestFn }
  afterAll(fn: () => Promise<void>): void
}

/** Jest's `test`/`afterAll`, read when a case registers (they exist only inside a test file). */
export function jestGlobals(helper: string): JestGlobals {
  const g = globalThis as Partial<JestGlobals>
  if (typeof g.test !== 'function' || typeof g.afterAll !== 'function') {
    throw new Error(`${helper} must be called in a Jest test file with Jest's globals injected (injectGlobals: true, the default)`)
  }
  return g as JestGlobals
}

/**
 * The running test's meta, filled with the case's identity: the setup entry keeps it and writes it as the
 * test's RunRecord when the test is done.
 */
export function startMeta(helper: string, meta: DataforgeMeta): DataforgeMeta {
  const live = currentMeta(undefined)
  if (!live) throw new Error(`${helper} needs 'dataforge-evals/jest/setup' in Jest's setupFilesAfterEnv`)
  return Object.assign(live, structuredClone(meta))
}
