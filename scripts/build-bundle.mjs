// The published ESM JavaScript: one rolldown build of every package entry straight from src/, with code
// splitting. Node's ESM loader pays per module (resolve, stat, read, compile, link), and every Vitest worker
// loads the setup entry, so a few chunks load faster than ~80 small files. One build for all entries keeps each
// module once: state such as the recorder shared by `dataforge-evals/vitest` and `dataforge-evals/vitest/setup`
// lives in one shared chunk. Dynamic `import()`s stay lazy chunks; dependencies stay external. tsc still writes
// the declarations (and checks the types) beside these files.
import { rmSync } from 'node:fs'
import { isAbsolute, resolve } from 'node:path'
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

/*
 * The run's end (report builder, renderers, report folder) loads in Vitest's main process while the tests run,
 * a lazy import. With rolldown's automatic splitting alone it came in 15 files, and Node's ESM loader pays about
 * a millisecond per file. The modules only it reaches (not the test workers' entries nor the reporter's static
 * graph, nor Jest's setup) go into one chunk; what they share with those keeps its automatic chunk, so a test
 * worker or the reporter loads what it did before, and the main process no module only a worker needs.
 */
const RUN_END_ROOTS = ['src/report/run-end.ts']
const OTHER_HOT_ROOTS = ['src/vitest/setup.ts', 'src/vitest/index.ts', 'src/vitest/reporter/index.ts', 'src/jest/setup.ts']

/** Ids of the modules the run end's roots reach through static imports and no other hot root does. */
const runEndOnly = new Set()

/** The own modules `roots` reach through static imports (themselves included). */
function staticReach(context, roots) {
  const seen = new Set()
  const stack = roots.map((root) => resolve(root))
  while (stack.length) {
    const id = stack.pop()
    if (seen.has(id)) continue
    const info = context.getModuleInfo(id)
    if (!info) throw new Error(`build-bundle: ${id} is not in the module graph`)
    seen.add(id)
    for (const next of info.importedIds) if (!context.getModuleInfo(next)?.isExternal) stack.push(next)
  }
  return seen
}

const runEndChunk = {
  name: 'dataforge-run-end-chunk',
  buildEnd() {
    const others = staticReach(this, OTHER_HOT_ROOTS)
    for (const id of staticReach(this, RUN_END_ROOTS)) if (!others.has(id)) runEndOnly.add(id)
  },
}

rmSync('dist/chunks', { recursive: true, force: true })
await build({
  input: ENTRIES,
  plugins: [runEndChunk],
  // Entries may export more than their source (shared code a group moved into them): nobody imports those names.
  preserveEntrySignatures: 'allow-extension',
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
    // Without the modules they import: those shared with a worker or the reporter stay in their automatic chunks.
    codeSplitting: { groups: [{ name: 'run-end', test: (id) => runEndOnly.has(id), includeDependenciesRecursively: false }] },
    // Users' failing stack traces point into our code: maps carry the TypeScript sources (sourcesContent).
    sourcemap: true,
    sourcemapExcludeSources: false,
    // Readable output: a user stepping into our code sees our code.
    minify: false,
  },
})
