import { currentMeta } from '../matchers/recorder.js'
import type { DataforgeMeta } from '../test-meta/build.js'

/** The parts of Jest's injected globals that `evalCase`, `conversation` and `qaSuite` register with. */
type TestFn = (name: string, fn: () => Promise<void>, timeout?: number) => void
export interface JestGlobals {
  test: TestFn & { only: TestFn; skip: TestFn; concurrent: TestFn; failing: TestFn }
  describe(name: string, fn: () => void): void
  beforeAll(fn: () => Promise<void>, timeoutMs?: number): void
  afterAll(fn: () => Promise<void>): void
  expect(value: unknown): { toPass(grader: unknown): void }
}

// A registered symbol: the setup file and the test file may hold different copies of this module.
const SETUP_LOADED = Symbol.for('dataforge-evals.jestSetupLoaded')

export function markSetupLoaded(): void {
  ;(globalThis as Record<symbol, unknown>)[SETUP_LOADED] = true
}

export function setupLoaded(): boolean {
  return (globalThis as Record<symbol, unknown>)[SETUP_LOADED] === true
}

export function missingSetupMessage(what: string): string {
  return `${what} needs dataforge-evals' Jest setup: add 'dataforge-evals/jest/setup' to setupFilesAfterEnv in your Jest config (it registers the matchers and records each test's run)`
}

/**
 * Jest's globals, read when a case registers (they exist only inside a test file), after checking that the
 * setup entry runs: without it the tests would run and record nothing.
 */
export function jestGlobals(helper: string): JestGlobals {
  const g = globalThis as Partial<JestGlobals>
  if (
    typeof g.test !== 'function' ||
    typeof g.beforeAll !== 'function' ||
    typeof g.afterAll !== 'function' ||
    typeof g.describe !== 'function'
  ) {
    throw new Error(
      `${helper} must be called in a Jest test file with Jest's globals injected (injectGlobals: true, the default)`,
    )
  }
  if (!setupLoaded()) throw new Error(missingSetupMessage(helper))
  return g as JestGlobals
}

// The meta each helper-registered test starts with, by its function (a registered symbol, as above): the setup
// records a skipped one from it, as Vitest records a skipped test from the meta it was registered with.
const CASE_METAS = Symbol.for('dataforge-evals.jestCaseMetas')
function caseMetas(): WeakMap<object, DataforgeMeta> {
  const g = globalThis as Record<symbol, WeakMap<object, DataforgeMeta> | undefined>
  g[CASE_METAS] ??= new WeakMap()
  return g[CASE_METAS]
}

/** `fn`, remembered as the body of a test registered with `meta`. */
export function caseTest<F extends object>(fn: F, meta: DataforgeMeta): F {
  caseMetas().set(fn, meta)
  return fn
}

export function registeredMeta(fn: unknown): DataforgeMeta | undefined {
  return typeof fn === 'function' ? caseMetas().get(fn) : undefined
}

/**
 * The running test's meta, filled with the case's identity: the setup entry keeps it and writes it as the
 * test's RunRecord when the test is done.
 */
export function startMeta(helper: string, meta: DataforgeMeta): DataforgeMeta {
  const live = currentMeta(undefined)
  if (!live) throw new Error(missingSetupMessage(helper))
  return Object.assign(live, structuredClone(meta))
}
