// The published ESM JavaScript: one rolldown build of every package entry straight from src/, with code
// splitting. Node's ESM loader pays per module (resolve, stat, read, compile, link), and every Vitest worker
// loads the setup entry, so a few chunks load faster than ~80 small files. One build for all entries keeps each
// module once: state such as the recorder shared by `dataforge-evals/vitest` and `dataforge-evals/vitest/setup`
// lives in one shared chunk. Dynamic `import()`s stay lazy chunks; dependencies stay external. tsc still writes
// the declarations (and checks the types) beside these files.
import { rmSync } from 'node:fs'
import { isAbsolute, resolve, sep } from 'node:path'
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
 * Chunks for the hot path. Node's ESM loader pays about a millisecond per file, and rolldown's automatic splitting
 * makes one chunk per set of entries sharing modules: a Vitest worker loaded 12 files for the setup entry and 17
 * with `dataforge-evals/vitest`, and the main process 15 for the run's end, a lazy import while the tests run.
 * Groups by where a module loads:
 * - `worker`: what only Vitest's entries reach (it imports `vitest`);
 * - `worker-shared`: the rest of a worker's modules that the main process never loads (the library, the CLI and
 *   Jest use them too);
 * - `common`: a worker's modules the main process loads too (errors, hashes, the record builder: small);
 * - `reporter`: what only the Vitest reporter's static graph reaches (in a chunk, the run state, a lazy chunk,
 *   imports it from there, not from the entry, which then exports only its own names), and `reporter-shared`:
 *   the rest of that graph outside a worker's (the Jest reporter and the CLI use it too: small);
 * - `run-end`: what only the run's end reaches (not a worker, the reporter's static graph or Jest's setup).
 * "Reach" counts lazy imports where a chunk must never load elsewhere: the main process (the reporter with all it
 * may import) and the entries that are not Vitest's. Each module stays in one chunk; test/bundle.test.ts holds
 * the file counts and that no vitest reaches the main process, the CLI, the library or Jest.
 */
const WORKER_ROOTS = ['src/vitest/setup.ts', 'src/vitest/index.ts']
const REPORTER_ROOT = 'src/vitest/reporter/index.ts'
const NON_VITEST_ENTRIES = ['src/index.ts', 'src/cli/bin.ts', 'src/jest/index.ts', 'src/jest/setup.ts', 'src/jest/reporter.ts', 'src/testing/index.ts']
const RUN_END_ROOT = 'src/report/run-end.ts'

/** Module ids by group, filled once the module graph is known. */
const groups = { worker: new Set(), 'worker-shared': new Set(), common: new Set(), reporter: new Set(), 'reporter-shared': new Set(), 'run-end': new Set() }

/** A module of ours (a source file, not an external package). */
const SRC = resolve('src')
const isOwn = (id) => id.startsWith(SRC + sep)

/** The own modules `roots` reach through static imports, and through lazy ones too with `lazy`. */
function reach(context, roots, lazy = false) {
  const seen = new Set()
  const stack = roots.map((root) => resolve(root))
  while (stack.length) {
    const id = stack.pop()
    if (seen.has(id)) continue
    const info = context.getModuleInfo(id)
    if (!info) throw new Error(`build-bundle: ${id} is not in the module graph`)
    seen.add(id)
    for (const next of lazy ? [...info.importedIds, ...info.dynamicallyImportedIds] : info.importedIds) if (isOwn(next)) stack.push(next)
  }
  return seen
}

const hotChunks = {
  name: 'dataforge-hot-chunks',
  buildEnd() {
    const worker = reach(this, WORKER_ROOTS)
    const mainProcess = reach(this, [REPORTER_ROOT], true)
    const elsewhere = reach(this, NON_VITEST_ENTRIES, true)
    for (const id of worker) groups[mainProcess.has(id) ? 'common' : elsewhere.has(id) ? 'worker-shared' : 'worker'].add(id)
    for (const id of reach(this, [REPORTER_ROOT])) {
      if (!worker.has(id) && id !== resolve(REPORTER_ROOT)) groups[elsewhere.has(id) ? 'reporter-shared' : 'reporter'].add(id)
    }
    const notRunEnd = reach(this, [...WORKER_ROOTS, REPORTER_ROOT, 'src/jest/setup.ts'])
    for (const id of reach(this, [RUN_END_ROOT])) if (!notRunEnd.has(id)) groups['run-end'].add(id)
  },
}

rmSync('dist/chunks', { recursive: true, force: true })
await build({
  input: ENTRIES,
  plugins: [hotChunks],
  // What groups without their dependencies require. The groups keep shared code out of the entries, so each entry
  // still exports only its own names (test/bundle.test.ts).
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
    // Without the modules they import: those keep their own group or automatic chunk.
    codeSplitting: {
      groups: Object.entries(groups).map(([name, ids]) => ({ name, test: (id) => ids.has(id), includeDependenciesRecursively: false })),
    },
    // Users' failing stack traces point into our code: maps carry the TypeScript sources (sourcesContent).
    sourcemap: true,
    sourcemapExcludeSources: false,
    // Readable output: a user stepping into our code sees our code.
    minify: false,
  },
})
