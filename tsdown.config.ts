import { readFileSync } from 'node:fs'
import { chmod } from 'node:fs/promises'
import { defineConfig, type UserConfig } from 'tsdown'

// One build: the package's entries in ESM (`.js`, `.d.ts`) and CommonJS (`.cjs`, `.d.cts`), each format split
// automatically into shared chunks, so every module is in one copy per format. State that the two formats must
// share (the matcher recorder, the label wall, Jest's per-test metas) goes through `Symbol.for` globals.

/** Output name under dist/ (without extension) → source entry. */
const workerEntries = {
  'vitest/index': './src/vitest/index.ts',
  'vitest/setup': './src/vitest/setup.ts',
}
/** Entries a CommonJS consumer may `require` (none of them imports `vitest`, which is ESM only). */
const requirableEntries = {
  index: './src/index.ts',
  'vitest/reporter/index': './src/reporter/vitest/index.ts',
  'jest/index': './src/jest/index.ts',
  'jest/setup': './src/jest/setup.ts',
  'jest/reporter': './src/reporter/jest/index.ts',
  'testing/index': './src/testing/index.ts',
  'cli/bin': './src/cli/bin.ts',
}

const common: UserConfig = {
  platform: 'node',
  target: 'node20.12',
  tsconfig: 'tsconfig.build.json',
  // Only our own sources are bundled: dependencies, peer runners and node: builtins stay imports.
  deps: { neverBundle: [/^[^./\0]/] },
  // Users' failing stack traces point into our code: maps carry the TypeScript sources; output stays readable.
  sourcemap: true,
  minify: false,
  // Side effects kept: the matchers' type augmentation is a declaration-only import of the setup and vitest entries.
  dts: { sideEffects: true },
  // `import.meta.url` in the CommonJS output (datasets, package.json and jiti are found from it).
  shims: true,
  fixedExtension: false,
  clean: true,
  outDir: 'dist',
}

// Shared chunks under dist/chunks/, beside the entries' folders. Entries with a default export (the reporters)
// export their names too; CommonJS consumers read `default` through the `__esModule` marker.
const output = (ext: string) => ({ chunkFileNames: `chunks/[name]-[hash].${ext}`, exports: 'named' as const })

// The bin is made executable here, after the ESM build has written it, whatever tsdown's own shebang detection
// did: the mode npm packs is then the same on every build.
const bin = (JSON.parse(readFileSync('package.json', 'utf8')) as { bin: Record<string, string> }).bin['dataforge-evals']!
const binExecutable = { 'build:done': () => chmod(bin, 0o755) }

export default defineConfig([
  { ...common, entry: { ...workerEntries, ...requirableEntries }, format: 'esm', outputOptions: output('js'), hooks: binExecutable },
  { ...common, entry: requirableEntries, format: 'cjs', outputOptions: output('cjs') },
])
