import { fileURLToPath } from 'node:url'
import { configDefaults, defineConfig } from 'vitest/config'
import DataforgeReporter from './src/reporter/vitest/index.js'
import { E2E_TESTS, EVAL_FILES, TEST_FILES } from './test/projects.js'

const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url))

// One config for the project's own tests and the example evals, as three projects (test/projects.ts says which test
// file runs where): `npm run test:unit` (in-process), `npm run test:e2e` (processes, browsers, sandboxes, the packed
// tarball), `npm run evals` (`vitest run evals/`). The eval reporter stays silent in runs without eval files.
export default defineConfig({
  resolve: {
    alias: [
      { find: /^dataforge-evals\/vitest\/setup$/, replacement: src('vitest/setup.ts') },
      { find: /^dataforge-evals\/vitest$/, replacement: src('vitest/index.ts') },
      { find: /^dataforge-evals\/reporter$/, replacement: src('reporter/vitest/index.ts') },
      { find: /^dataforge-evals$/, replacement: src('index.ts') },
    ],
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: [TEST_FILES],
          exclude: [...configDefaults.exclude, ...E2E_TESTS],
          // after the root's setup file: a unit test that starts a process fails and names the list to move it to
          setupFiles: ['test/helpers/unit-guard.ts'],
        },
      },
      { extends: true, test: { name: 'e2e', include: E2E_TESTS } },
      { extends: true, test: { name: 'evals', include: [EVAL_FILES] } },
    ],
    // Our own evals import the sources through the aliases above, so the matchers must come from there too.
    setupFiles: [src('vitest/setup.ts')],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: [
      'default',
      new DataforgeReporter({
        outputDir: 'evals/__reports__',
        formats: ['markdown', 'json', 'jsonl', 'html'],
        thresholds: {
          mock: { f1: 1, passRate: 1 },
          'mock-qa': { passRate: 1 },
          'baseline · synthetic': { f1: 0.3 },
          '*': { completionRate: 1 },
        },
      }),
    ],
  },
})
