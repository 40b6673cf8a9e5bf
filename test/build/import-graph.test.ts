import { readFileSync } from 'node:fs'
import { dirname, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cycles, folderGraph, importGraph, sourceFiles } from '../helpers/source-graph.js'
import { repoRoot } from '../helpers/dataset-paths.js'

// What each entry loads at import. Every Vitest worker imports the setup entry (and eval files the vitest
// entry) before its first test, and the config loads the reporter before any worker starts, so packages in
// their static graph are paid on every run, whether it needs them or not (see BENCHMARKS.md: zod alone is
// ~40 ms of a ~500 ms plain run).

const IMPORT = /^\s*(?:import|export)\s(?!type\b)[^'";]*?from\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]/gm

/** Bare packages reached through static (non-type) imports from `entry`, each with the chain that reaches it. */
function packagesReached(entry: string): Map<string, string[]> {
  const reached = new Map<string, string[]>()
  const seen = new Set<string>()
  const visit = (file: string, chain: string[]) => {
    if (seen.has(file)) return
    seen.add(file)
    const here = [...chain, relative(repoRoot, file)]
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const spec = (match[1] ?? match[2])!
      if (spec.startsWith('.')) visit(resolve(dirname(file), spec.replace(/\.js$/, '.ts')), here)
      else if (!spec.startsWith('node:') && !reached.has(spec)) reached.set(spec, here)
    }
  }
  visit(resolve(repoRoot, entry), [])
  return reached
}

// Kept lean on purpose (BENCHMARKS.md, Vitest integration overhead): zod, csv-parse and entities load on first
// use (conformance specs, CSV files, HTML references), the run end's graph while the tests run.
const WORKER_LEAN = ['zod', 'csv-parse/sync', 'entities/decode']

describe('import graphs', () => {
  it('the setup and vitest entries (in every worker) and createRepairTask load no zod, csv-parse or entities', () => {
    for (const entry of ['src/vitest/setup.ts', 'src/vitest/index.ts', 'src/datasets/create-repair-task.ts']) {
      const reached = packagesReached(entry)
      for (const pkg of WORKER_LEAN)
        expect(reached.get(pkg), `${entry} reaches ${pkg} through ${reached.get(pkg)?.join(' → ')}`).toBeUndefined()
    }
  })

  it('the Vitest reporter (loaded with the config) leaves the run end, the test-meta schema and zod to the run', () => {
    const reached = packagesReached('src/reporter/vitest/index.ts')
    expect(reached.get('zod'), `the reporter reaches zod through ${reached.get('zod')?.join(' → ')}`).toBeUndefined()
  })

  it('the run end (imported while the tests run) reaches no zod: the baseline, its schemas and its statistics load only with a baseline file', () => {
    const reached = packagesReached('src/report-builder/run-end.ts')
    expect(reached.get('zod'), `the run end reaches zod through ${reached.get('zod')?.join(' → ')}`).toBeUndefined()
    expect([...reached.keys()]).toEqual(['picocolors'])
  })

  it("the reporter's run state (loaded while the tests run) checks test metas without zod", () => {
    const reached = packagesReached('src/reporter/vitest/run-state.ts')
    expect(reached.get('zod'), `run-state reaches zod through ${reached.get('zod')?.join(' → ')}`).toBeUndefined()
  })

  it('the setup entry (the matchers, in every worker) loads no model SDK, HTTP client or database', () => {
    const reached = packagesReached('src/vitest/setup.ts')
    for (const heavy of ['openai', 'undici', 'jiti', 'hyparquet-writer', '@duckdb/node-api']) {
      expect(
        reached.get(heavy),
        `src/vitest/setup.ts reaches ${heavy} through ${reached.get(heavy)?.join(' → ')}`,
      ).toBeUndefined()
    }
  })

  it('the vitest entry (evalCase, conversation) loads no model SDK, HTTP client or database', () => {
    const reached = packagesReached('src/vitest/index.ts')
    for (const heavy of ['openai', 'undici', 'jiti', 'hyparquet-writer', '@duckdb/node-api']) {
      expect(
        reached.get(heavy),
        `src/vitest/index.ts reaches ${heavy} through ${reached.get(heavy)?.join(' → ')}`,
      ).toBeUndefined()
    }
  })

  it('the package root loads the model SDK, the HTTP client and the database only when they are used', () => {
    const reached = packagesReached('src/index.ts')
    for (const heavy of ['openai', 'undici', '@duckdb/node-api']) {
      expect(
        reached.get(heavy),
        `src/index.ts reaches ${heavy} through ${reached.get(heavy)?.join(' → ')}`,
      ).toBeUndefined()
    }
  })

  it('the matchers and the Jest entries load no Vitest (each runner injects how to reach its current test)', () => {
    for (const entry of [
      'src/matchers/index.ts',
      'src/jest/setup.ts',
      'src/reporter/jest/index.ts',
      'src/jest/index.ts',
    ]) {
      const reached = packagesReached(entry)
      for (const runner of ['vitest', 'vitest/node', '@vitest/runner']) {
        expect(
          reached.get(runner),
          `${entry} reaches ${runner} through ${reached.get(runner)?.join(' → ')}`,
        ).toBeUndefined()
      }
    }
  })
})

/** Any import of a bare package in TypeScript source: static, type-only, dynamic `import('x')` and `typeof import('x')`. */
const ANY_BARE_IMPORT =
  /^\s*(?:import|export)\s[^'";]*?from\s+['"]([^'".][^'"]*)['"]|^\s*import\s+['"]([^'".][^'"]*)['"]|\bimport\(\s*['"]([^'".][^'"]*)['"]\s*\)/gm

describe('the declared dependencies', () => {
  it('cover every package a source file imports: a dependency, or a peer the user installs (optional ones loaded on first use)', () => {
    const manifest = JSON.parse(readFileSync(resolve(repoRoot, 'package.json'), 'utf8')) as Record<
      string,
      Record<string, string> | undefined
    >
    // `expect` is Jest's, installed with the jest peer (the Jest entries augment its matchers).
    const declared = new Set([
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.peerDependencies ?? {}),
      'expect',
    ])
    const used = new Map<string, string>()
    for (const file of sourceFiles(resolve(repoRoot, 'src'))) {
      for (const m of readFileSync(file, 'utf8').matchAll(ANY_BARE_IMPORT)) {
        const spec = (m[1] ?? m[2] ?? m[3])!
        if (spec.startsWith('node:')) continue
        used.set(
          spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!,
          relative(repoRoot, file),
        )
      }
    }
    expect(used.get('@duckdb/node-api')).toBe('src/adapters/data-agent/engine.ts')
    for (const [name, file] of used)
      expect(declared.has(name), `${file} imports ${name}, which package.json does not declare`).toBe(true)
    // The model SDK is the user's choice: no source file imports it, so it is only a devDependency (for the tests).
    expect(used.has('openai')).toBe(false)
    expect(Object.keys(manifest.dependencies ?? {})).not.toContain('openai')
  })
})

describe('the source layout', () => {
  const files = importGraph(resolve(repoRoot, 'src'))

  it('has no import cycle between files (type-only imports count: they couple two files all the same)', () => {
    expect(cycles(files)).toEqual([])
  })

  it('has no import cycle between the folders of src/ (docs/architecture.md: arrows point inward)', () => {
    expect(cycles(folderGraph(files))).toEqual([])
  })

  it('imports only along the layers of docs/architecture.md: a folder reaches its own layer or an inner one', () => {
    const layers = [
      ['core'],
      ['stats', 'grading'],
      ['files', 'datasets'],
      ['gateway', 'isolation', 'testing', 'run', 'adapters'],
      ['test-meta', 'cases', 'matchers'],
      ['report-builder', 'viewer'],
      ['vitest', 'jest', 'reporter', 'cli', 'index.ts'],
    ]
    const layerOf = new Map(layers.flatMap((folders, i) => folders.map((f) => [f, i] as const)))
    const against: string[] = []
    for (const [from, targets] of folderGraph(files)) {
      expect(layerOf.has(from), `src/${from} is in no layer of docs/architecture.md`).toBe(true)
      for (const to of targets) if (layerOf.get(to)! > layerOf.get(from)!) against.push(`${from} → ${to}`)
    }
    expect(against).toEqual([])
  })
})
