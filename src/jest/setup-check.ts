import { missingSetupMessage, setupLoaded } from './globals.js'

/**
 * A test file imports `dataforge-evals/jest` (for the matcher types, or the case helpers). If the setup entry is
 * not in setupFilesAfterEnv, the matchers do not exist and nothing is recorded: the file's tests fail with a
 * message saying what to add, instead of "toBeNumeric is not a function". Checked in a `beforeAll`, not at
 * import, because another setup file may import this entry before the dataforge setup runs.
 */
export function installSetupCheck(): void {
  const beforeAll = (globalThis as { beforeAll?: (fn: () => void) => void }).beforeAll
  const inJest = typeof (globalThis as Record<symbol, unknown>)[Symbol.for('EVENT_HANDLERS')] !== 'undefined'
  if (!inJest || typeof beforeAll !== 'function' || setupLoaded()) return
  beforeAll(() => {
    if (!setupLoaded()) throw new Error(missingSetupMessage('dataforge-evals/jest'))
  })
}
