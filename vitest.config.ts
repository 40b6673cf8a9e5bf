import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'
import DataforgeReporter from './src/reporter/vitest/index.js'

const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url))

// One config for the project's own tests (`npm test` = `vitest run test/`) and the example evals
// (`npm run evals` = `vitest run evals/`). The eval reporter stays silent in runs without eval files.
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
    include: ['test/**/*.test.ts', 'evals/**/*.eval.ts'],
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
