import { readFileSync } from 'node:fs'
import { chmod } from 'node:fs/promises'
import { resolve, sep } from 'node:path'
import type { ChunkingContext, CodeSplittingOptions } from 'rolldown'
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

const sourceIds = (entries: Record<string, string>) => Object.values(entries).map((path) => resolve(path))
const workerIds = sourceIds(workerEntries)
const vitestReporterId = resolve(requirableEntries['vitest/reporter/index'])
const reporterIds = [vitestReporterId, resolve(requirableEntries['jest/reporter'])]
const requirableIds = sourceIds(requirableEntries)
const sources = resolve('src') + sep

/** The modules reachable from `from` by static imports, and by dynamic ones too when `dynamic`. */
function reachable(ctx: ChunkingContext, from: readonly string[], dynamic: boolean): Set<string> {
  const seen = new Set<string>()
  const next = [...from]
  for (let id = next.pop(); id !== undefined; id = next.pop()) {
    if (seen.has(id)) continue
    seen.add(id)
    const info = ctx.getModuleInfo(id)
    if (info) next.push(...info.importedIds, ...(dynamic ? info.dynamicallyImportedIds : []))
  }
  return seen
}

/** What a reporter loads while the tests run (the run's end), and the HTML report it loads at the end. */
const runEndId = resolve('src/report-builder/run-end.ts')
const htmlReportId = resolve('src/report-builder/html/index.ts')

/**
 * Fewer, larger chunks where a run loads many modules at once: import time grows with the number of modules more
 * than with their size. Split automatically, a Vitest worker loaded 43 files before its first test, and the main
 * process 51 in the README's run. A worker's graph (the setup and vitest entries, static imports) goes into four
 * chunks:
 * - `vitest-worker`: the modules only those entries use (some import `vitest`, so nothing else may load them);
 * - `worker-shared`: the ones other entries use too (the CLI and Jest's entries load it whole for a part of it);
 * - `worker-common`: the ones a reporter loads at a run's end, with its report builder;
 * - `reporter-shared`: the ones the Vitest reporter loads with the config (it loads no more than before).
 * Of the rest, the run end's graph goes into `run-end` (a reporter loads it while the tests run; the CLI and Jest's
 * entries load it whole) and the HTML report's into `html-report`. A chunk imports only chunks after it in these
 * lists (`run-end` and `html-report` neither of the first two), so they form no cycle.
 */
function chunkPlan(ctx: ChunkingContext): Map<string, string> {
  for (const id of [runEndId, htmlReportId])
    if (!ctx.getModuleInfo(id)) throw new Error(`tsdown.config.ts: no module ${id}; update the chunk plan`)
  const worker = reachable(ctx, workerIds, false)
  const byOthers = reachable(ctx, requirableIds, true)
  const byReporters = reachable(ctx, reporterIds, true)
  const withConfig = reachable(ctx, [vitestReporterId], false)
  const runEnd = reachable(ctx, [runEndId], false)
  const entries = new Set([...workerIds, ...requirableIds])
  const ours = (id: string) => id.startsWith(sources) && !entries.has(id)
  const chunks = new Map<string, string>()
  for (const id of [...worker].filter(ours)) {
    const chunk = withConfig.has(id)
      ? 'reporter-shared'
      : byReporters.has(id)
        ? 'worker-common'
        : byOthers.has(id)
          ? 'worker-shared'
          : 'vitest-worker'
    chunks.set(id, chunk)
  }
  for (const id of [...runEnd].filter(ours)) if (!chunks.has(id) && !withConfig.has(id)) chunks.set(id, 'run-end')
  for (const id of [...reachable(ctx, [htmlReportId], false)].filter(ours))
    if (!chunks.has(id) && !withConfig.has(id)) chunks.set(id, 'html-report')
  return chunks
}

/** The current build's plan, made at its first chunking call; forgotten when a build starts (watch mode). */
let plan: Map<string, string> | null = null
const forgetPlan = { name: 'forget-chunk-plan', buildStart: () => void (plan = null) }
const chunkGroups: CodeSplittingOptions = {
  // Dependencies stay where the plan puts them: pulled in, the reporter's modules would follow a worker's.
  includeDependenciesRecursively: false,
  groups: [{ name: (id, ctx) => (plan ??= chunkPlan(ctx)).get(id) ?? null }],
}

// The bin is made executable here, after the ESM build has written it, whatever tsdown's own shebang detection
// did: the mode npm packs is then the same on every build.
const bin = (JSON.parse(readFileSync('package.json', 'utf8')) as { bin: Record<string, string> }).bin['dataforge-evals']!
const binExecutable = { 'build:done': () => chmod(bin, 0o755) }

export default defineConfig([
  {
    ...common,
    entry: { ...workerEntries, ...requirableEntries },
    format: 'esm',
    outputOptions: { ...output('js'), codeSplitting: chunkGroups },
    plugins: [forgetPlan],
    // What `includeDependenciesRecursively: false` needs: an entry may export more, for a chunk that imports it.
    inputOptions: { preserveEntrySignatures: 'allow-extension' },
    hooks: binExecutable,
  },
  { ...common, entry: requirableEntries, format: 'cjs', outputOptions: output('cjs') },
])
