import { execFile } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'
import { builtClosure, DYNAMIC_IMPORT } from './fixtures/built-imports.js'
import { repoRoot } from './fixtures/vitest/run-fixture.js'

// The published JavaScript as built (scripts/build-bundle.mjs): one rolldown build of every entry, shared chunks
// under dist/chunks/, lazy chunks for dynamic imports. test/import-graph.test.ts checks these properties on the
// sources; here they are checked on what Node loads. Reads files only (and builds once if dist/ is missing).

const dist = resolve(repoRoot, 'dist')

beforeAll(async () => {
  if (!existsSync(join(dist, 'vitest/setup.js'))) await promisify(execFile)(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build'], { cwd: repoRoot })
}, 240_000)

/** The built files `entry` loads through static imports (itself included, relative to dist/), and the packages. */
function closure(entry: string): { files: string[]; packages: Set<string> } {
  const { files, packages } = builtClosure(resolve(dist, entry))
  return { files: files.map((f) => relative(dist, f)), packages }
}

/** Source modules (`// src/…` region markers) in a built file. */
const sourcesIn = (file: string) => [...readFileSync(resolve(dist, file), 'utf8').matchAll(/^\/\/ (src\/\S+\.ts)$/gm)].map((m) => m[1]!)

/** The built ESM files (everything under dist/ but the CommonJS build). */
const builtFiles = () => readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js') && !f.startsWith('cjs'))

const HEAVY = ['zod', 'csv-parse', 'csv-parse/sync', 'entities', 'entities/decode', 'openai', 'undici', 'jiti', 'hyparquet-writer', '@duckdb/node-api', 'vega', 'vega-lite']

describe('the bundled build', () => {
  it('emits one file per package entry and bin, shared chunks, and no per-module files beside them', () => {
    const pkg = JSON.parse(readFileSync(resolve(repoRoot, 'package.json'), 'utf8'))
    const esmTargets = Object.values(pkg.exports as Record<string, string | Record<string, unknown>>)
      .filter((v): v is Record<string, unknown> => typeof v === 'object')
      .map((v) => (typeof v.import === 'string' ? v.import : (v.import as { default: string }).default))
    const entries = [...esmTargets, `./${pkg.bin['dataforge-evals']}`].map((p) => p.replace(/^\.\//, ''))
    expect(entries).toHaveLength(9)
    for (const entry of entries) expect(existsSync(resolve(repoRoot, entry)), entry).toBe(true)
    const outside = builtFiles().filter((f) => !f.startsWith('chunks/') && !entries.includes(`dist/${f}`))
    expect(outside, 'stale per-module .js files in dist/').toEqual([])
    // Declarations still come one per module from tsc.
    expect(existsSync(join(dist, 'core/ground-truth.d.ts'))).toBe(true)
  })

  it('holds each source module once (module state such as the recorder is never duplicated) and no dependency', () => {
    const seen = new Map<string, string>()
    for (const file of builtFiles()) {
      for (const source of sourcesIn(file)) {
        expect(seen.get(source), `${source} is in ${seen.get(source)} and ${file}`).toBeUndefined()
        seen.set(source, file)
      }
      expect(readFileSync(join(dist, file), 'utf8'), `${file} bundles a dependency`).not.toMatch(/^\/\/ (node_modules|\.\.)\//m)
    }
    expect(seen.has('src/vitest/current.ts')).toBe(true)
    expect(seen.has('src/vitest/install-recorder.ts')).toBe(true)
  })

  it('loads in a worker (setup and vitest entries) only vitest, from a few files', () => {
    const setup = closure('vitest/setup.js')
    const vitest = closure('vitest/index.js')
    expect([...setup.packages]).toEqual(['vitest'])
    expect([...vitest.packages]).toEqual(['vitest'])
    // 4 each today: the entry, the chunks of what only Vitest's entries use, of what the library, CLI and Jest
    // share, and of what the main process loads too (12 and 17 files with rolldown's automatic splitting alone,
    // 63 and 83 modules before bundling).
    expect(setup.files.length).toBeLessThanOrEqual(4)
    expect(vitest.files.length).toBeLessThanOrEqual(4)
    // The recorder the matchers write through is the one evalCase reads: the same file in both graphs.
    const recorder = builtFiles().find((f) => sourcesIn(f).includes('src/vitest/current.ts'))!
    expect(setup.files).toContain(recorder)
    expect(vitest.files).toContain(recorder)
    for (const { packages } of [setup, vitest]) for (const heavy of HEAVY) expect(packages.has(heavy), heavy).toBe(false)
  })

  it('loads with the reporter no zod and no run end; the run end is a lazy chunk the reporter imports on demand', () => {
    const reporter = closure('vitest/reporter/index.js')
    expect([...reporter.packages].sort()).toEqual(['picocolors', 'vitest/node'])
    expect(reporter.files.length).toBeLessThanOrEqual(4)
    const runEnd = builtFiles().find((f) => sourcesIn(f).includes('src/report/run-end.ts'))!
    expect(reporter.files).not.toContain(runEnd)
    const lazy = reporter.files.flatMap((f) => [...readFileSync(resolve(dist, f), 'utf8').matchAll(DYNAMIC_IMPORT)].map((m) => relative(dist, resolve(dist, dirname(f), m[1]!))))
    expect(lazy).toContain(runEnd)
    // Loaded while the tests run: one chunk of its own and a few small ones (15 files with automatic splitting).
    expect(closure(runEnd).files.filter((f) => !reporter.files.includes(f)).length).toBeLessThanOrEqual(4)
    // The run end itself reaches no zod: the baseline's reading and its schemas are lazy chunks of their own.
    expect([...closure(runEnd).packages]).toEqual(['picocolors'])
  })

  it('loads no worker code in the Vitest main process: the reporter, with all it may import lazily, reaches no vitest', () => {
    const seen = new Set<string>()
    const visit = (file: string) => {
      if (seen.has(file)) return
      seen.add(file)
      const { files, packages } = closure(file)
      expect(packages.has('vitest'), file).toBe(false)
      for (const f of files) {
        seen.add(f)
        for (const m of readFileSync(resolve(dist, f), 'utf8').matchAll(DYNAMIC_IMPORT)) visit(relative(dist, resolve(dist, dirname(f), m[1]!)))
      }
    }
    visit('vitest/reporter/index.js')
    expect(seen.size).toBeGreaterThan(10)
  })

  it('exports from each entry only its own names, none of the short ones chunks share code under', () => {
    for (const entry of ['index.js', 'vitest/index.js', 'vitest/setup.js', 'vitest/reporter/index.js', 'jest/index.js', 'jest/setup.js', 'jest/reporter.js', 'testing/index.js', 'cli/bin.js']) {
      const js = readFileSync(resolve(dist, entry), 'utf8')
      const names = [...js.matchAll(/^export \{([^}]*)\}/gm)].flatMap((m) => m[1]!.split(',').map((part) => part.trim().split(/\s+as\s+/).pop()!).filter(Boolean))
      expect(names.filter((name) => name.length <= 2 && name !== 'as'), entry).toEqual([])
    }
  })

  it('loads no test runner where none runs: the CLI, the library and the Jest entries reach neither vitest nor vitest/node', () => {
    // Chunks may import names from an entry file (the build lets entries export shared code): a chunk that did so
    // from the Vitest reporter would load Vitest's node side into the CLI.
    for (const entry of ['cli/bin.js', 'index.js', 'testing/index.js', 'jest/index.js', 'jest/setup.js', 'jest/reporter.js']) {
      const { packages } = closure(entry)
      expect(packages.has('vitest'), entry).toBe(false)
      expect(packages.has('vitest/node'), entry).toBe(false)
    }
  })

  it('keeps source maps with their TypeScript sources for every built file that holds code', () => {
    // Entries that only re-export (dist/index.js) hold no code, so no frame of a stack trace points into them.
    const withCode = builtFiles().filter((f) => sourcesIn(f).length > 0)
    expect(withCode.length).toBeGreaterThan(30)
    for (const file of withCode) {
      const js = readFileSync(join(dist, file), 'utf8')
      expect(js, file).toContain(`//# sourceMappingURL=${file.split('/').pop()}.map`)
      const map = JSON.parse(readFileSync(join(dist, `${file}.map`), 'utf8')) as { sources: string[]; sourcesContent?: string[] }
      expect(map.sourcesContent?.length, file).toBe(map.sources.length)
      for (const source of map.sources) expect(existsSync(resolve(dist, dirname(file), source)), `${file}.map: ${source}`).toBe(true)
    }
  })

  it('finds the bundled datasets from a chunk and from the CommonJS build, whose ESM twin path no longer exists', async () => {
    const datasets = resolve(repoRoot, 'datasets')
    const esm = (await import(resolve(dist, 'index.js'))) as { BUNDLED_WTQ_DIR: string }
    expect(esm.BUNDLED_WTQ_DIR).toBe(join(datasets, 'wtq'))
    expect(existsSync(join(dist, 'datasets/raha.js'))).toBe(false)
    const { stdout } = await promisify(execFile)(process.execPath, ['-p', `require(${JSON.stringify(join(dist, 'cjs/datasets/raha.js'))}).BUNDLED_DATA_DIR`])
    expect(stdout.trim()).toBe(datasets)
  })
})
