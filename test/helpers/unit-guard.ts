import { createRequire, syncBuiltinESMExports } from 'node:module'
import { afterAll, afterEach, expect } from 'vitest'

// The unit project's setup file: a unit test starts no process (test/projects.ts). Every child_process function
// throws instead of starting one, and the test that called it fails after it ends, even where the code under test
// caught the error (reading the git commit does, and goes on without one).
const childProcess = createRequire(import.meta.url)('node:child_process') as Record<string, unknown>
const STARTERS = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']
const started: string[] = []

for (const name of STARTERS) {
  childProcess[name] = (command: unknown) => {
    started.push(`${name}(${String(command)})`)
    throw new Error(`${name}(${String(command)}): a unit test starts no process (test/projects.ts)`)
  }
}
// ESM imports of node:child_process read the builtin's exports: sync them with the replaced functions.
syncBuiltinESMExports()

function failIfStarted(): void {
  if (started.length === 0) return
  const calls = started.splice(0).join(', ')
  const file = expect.getState().testPath ?? 'this test file'
  throw new Error(
    `a unit test starts no process, and this one called ${calls}. Add ${file} to E2E_TESTS in test/projects.ts ` +
      '(it then runs with `npm run test:e2e`).',
  )
}

afterEach(failIfStarted)
// a process started in a beforeAll or afterAll hook
afterAll(failIfStarted)
