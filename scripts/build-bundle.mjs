// The published ESM JavaScript: one rolldown build of every package entry straight from src/, with code
// splitting. Node's ESM loader pays per module (resolve, stat, read, compile, link), and every Vitest worker
// loads the setup entry, so a few chunks load faster than ~80 small files. One build for all entries keeps each
// module once: state such as the recorder shared by `dataforge-evals/vitest` and `dataforge-evals/vitest/setup`
// lives in one shared chunk. Dynamic `import()`s stay lazy chunks; dependencies stay external. tsc still writes
// the declarations (and checks the types) beside these files.
import { rmSync } from 'node:fs'
import { isAbsolute } from 'node:path'
import { build } from 'rolldown'

/** Output name (under dist/, without .js) → source entry: the ESM conditions of package.json "exports" and the bin. */
const ENTRIES = {
  index: 'src/index.ts',
  'vitest/index': 'src/vitest/index.ts',
  'vitest/setup': 'src/vitest/setup.ts',
  'vitest/reporter/index': 'src/vitest/reporter/index.ts',
  'jest/index': 'src/jest/index.ts',
  'jest/setup': 'src/jest/setup.ts',
  'jest/reporter': 'src/jest/reporter.ts',
  'testing/index': 'src/testing/index.ts',
  'cli/bin': 'src/cli/bin.ts',
}

rmSync('dist/chunks', { recursive: true, force: true })
await build({
  input: ENTRIES,
  platform: 'node',
  tsconfig: 'tsconfig.build.json',
  // Only our own sources are bundled: bare specifiers (dependencies, peer runners, node: builtins) stay imports.
  external: (id) => !id.startsWith('.') && !isAbsolute(id) && !id.startsWith('\0'),
  transform: { target: 'node20.12' },
  logLevel: 'warn',
  output: {
    dir: 'dist',
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: 'chunks/[name]-[hash].js',
    // Users' failing stack traces point into our code: maps carry the TypeScript sources (sourcesContent).
    sourcemap: true,
    sourcemapExcludeSources: false,
    // Readable output: a user stepping into our code sees our code.
    minify: false,
  },
})
