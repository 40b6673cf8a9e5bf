import { execFile } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'
import { builtClosure, DYNAMIC_IMPORT } from '../helpers/built-imports.js'
import { repoRoot } from '../helpers/vitest-run.js'

// The published JavaScript as tsdown builds it (tsdown.config.ts): every entry in ESM and CommonJS, shared chunks
// split automatically. What matters to users: every entry loads in the format it is published for, no test
// runner loads where none runs, the two formats share one recorder, and stack traces reach our sources.

const dist = resolve(repoRoot, 'dist')
const run = promisify(execFile)

beforeAll(async () => {
  if (!existsSync(join(dist, 'vitest/setup.js')))
    await run(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build'], { cwd: repoRoot })
}, 240_000)

type Condition = string | { types: string; default: string }
type ExportTarget = string | { types?: string; import?: Condition; require?: Condition }
const pkg = JSON.parse(readFileSync(resolve(repoRoot, 'package.json'), 'utf8')) as {
  exports: Record<string, ExportTarget>
  bin: Record<string, string>
}
const target = (c: Condition | undefined) => (c === undefined ? undefined : typeof c === 'string' ? c : c.default)
const entries = Object.entries(pkg.exports).filter(([name]) => name !== './package.json') as Array<
  [string, Exclude<ExportTarget, string>]
>

/** Relative to dist/, the files an entry loads at once, and the packages. */
function closure(entry: string): { files: string[]; packages: Set<string> } {
  const { files, packages } = builtClosure(resolve(dist, entry))
  return { files: files.map((f) => relative(dist, f)), packages }
}

/** The built JavaScript files of one format. */
const builtFiles = (ext: '.js' | '.cjs') =>
  readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith(ext))

/** Source modules (`//#region src/…` markers) in a built file. */
const sourcesIn = (file: string) =>
  [...readFileSync(resolve(dist, file), 'utf8').matchAll(/^\/\/#region (src\/\S+\.ts)$/gm)].map((m) => m[1]!)

describe('the built package', () => {
  it('has a file for every export condition and the bin, with declarations for each format', () => {
    for (const [name, t] of entries) {
      for (const file of [target(t.import), target(t.require)].filter(Boolean) as string[])
        expect(existsSync(resolve(repoRoot, file)), `${name}: ${file}`).toBe(true)
      const types = [
        t.types,
        typeof t.import === 'object' ? t.import.types : undefined,
        typeof t.require === 'object' ? t.require.types : undefined,
      ].filter(Boolean) as string[]
      expect(types.length, `${name} has declarations`).toBeGreaterThan(0)
      for (const file of types) expect(existsSync(resolve(repoRoot, file)), `${name}: ${file}`).toBe(true)
    }
    expect(existsSync(resolve(repoRoot, pkg.bin['dataforge-evals']!))).toBe(true)
  })

  it('loads every entry that runs outside a test runner under ESM import and under CommonJS require', async () => {
    // The setup entries run only inside their runner (test/jest and test/vitest load them there).
    const outside = entries.filter(([name]) => !name.startsWith('./vitest') && name !== './jest/setup')
    const imports = outside.map(([, t]) => target(t.import)!)
    const requires = outside.map(([, t]) => target(t.require)).filter(Boolean) as string[]
    expect(requires.length).toBe(outside.length)
    const esm = `for (const f of ${JSON.stringify(imports)}) { const m = await import(new URL(f, 'file://${repoRoot}/').href); if (!Object.keys(m).length) throw new Error(f + ' exports nothing') }`
    await run(process.execPath, ['--input-type=module', '-e', esm], { cwd: repoRoot })
    const cjs = `for (const f of ${JSON.stringify(requires)}) { const m = require(require('node:path').resolve(f)); if (!Object.keys(m).length) throw new Error(f + ' exports nothing') }`
    await run(process.execPath, ['-e', cjs], { cwd: repoRoot })
  })

  it('loads no test runner where none runs: the CLI, the library and the Jest entries reach neither vitest nor vitest/node', () => {
    for (const [name, t] of entries.filter(([n]) => !n.startsWith('./vitest') && n !== './reporter')) {
      for (const file of [target(t.import), target(t.require)].filter(Boolean) as string[]) {
        const { packages } = closure(relative(dist, resolve(repoRoot, file)))
        expect(packages.has('vitest'), `${name}: ${file}`).toBe(false)
        expect(packages.has('vitest/node'), `${name}: ${file}`).toBe(false)
      }
    }
    for (const bin of ['cli/bin.js', 'cli/bin.cjs']) expect(closure(bin).packages.has('vitest'), bin).toBe(false)
  })

  it("loads no worker code in Vitest's main process: the reporter, with all it may import lazily, reaches no vitest", () => {
    for (const entry of ['vitest/reporter/index.js', 'vitest/reporter/index.cjs']) {
      const seen = new Set<string>()
      const visit = (file: string) => {
        if (seen.has(file)) return
        seen.add(file)
        const { files, packages } = closure(file)
        expect(packages.has('vitest'), `${entry} → ${file}`).toBe(false)
        for (const f of files) {
          seen.add(f)
          const lazy = f.endsWith('.cjs') ? /\brequire\(\s*['"](\.[^'"]+)['"]\s*\)/g : DYNAMIC_IMPORT
          for (const m of readFileSync(resolve(dist, f), 'utf8').matchAll(lazy))
            visit(relative(dist, resolve(dist, dirname(f), m[1]!)))
        }
      }
      visit(entry)
      expect(seen.size, entry).toBeGreaterThan(3)
    }
  })

  it('loads the worker entries from a handful of files, and none of their chunks with the reporter', () => {
    // A worker's import time grows with the number of modules (tsdown.config.ts, `chunkPlan`).
    for (const entry of ['vitest/setup.js', 'vitest/index.js'])
      expect(closure(entry).files.length, entry).toBeLessThanOrEqual(6)
    const withConfig = closure('vitest/reporter/index.js').files
    expect(withConfig.filter((f) => /\/(vitest-worker|worker-shared|worker-common)-/.test(f))).toEqual([])
    // The run's end, which the reporter loads while the tests run, is a handful of files too.
    const runEnd = builtFiles('.js').filter((f) => /^chunks\/run-end-[\w-]+\.js$/.test(f))
    expect(runEnd).toHaveLength(1)
    expect(closure(runEnd[0]!).files.length).toBeLessThanOrEqual(8)
  })

  it('holds each source module once per format, so module state (the recorder, the label wall) has one copy per format', () => {
    for (const ext of ['.js', '.cjs'] as const) {
      const seen = new Map<string, string>()
      for (const file of builtFiles(ext)) {
        for (const source of sourcesIn(file)) {
          expect(seen.get(source), `${source} is in ${seen.get(source)} and ${file}`).toBeUndefined()
          seen.set(source, file)
        }
      }
      expect(seen.has('src/matchers/recorder.ts'), ext).toBe(true)
    }
  })

  it('lets the CommonJS and ESM copies share one label wall and one recorder in one process (Jest loads both)', async () => {
    const script = `
      (async () => {
        const esm = await import(${JSON.stringify(join(dist, 'index.js'))});
        const cjs = require(${JSON.stringify(join(dist, 'index.cjs'))});
        const { task } = esm.createRepairTask({ name: 't', dirty: { columns: ['id', 'a'], rows: [['1', 'x'], ['2', 'z']] }, clean: { columns: ['id', 'a'], rows: [['1', 'y'], ['2', 'z']] } });
        const fix = [{ row: 0, column: 'a', newValue: 'y' }];
        process.stdout.write(JSON.stringify({ esm: esm.gradeRepair(task, fix).f1, cjs: cjs.gradeRepair(task, fix).f1 }));
      })().catch((e) => { console.error(e); process.exit(1) });`
    const { stdout } = await run(process.execPath, ['-e', script], { cwd: repoRoot })
    // A task made by the ESM copy is graded by the CommonJS copy: both read one label wall (a Symbol.for global).
    expect(JSON.parse(stdout)).toEqual({ esm: 1, cjs: 1 })
    // The matchers' recorder is reached the same way in every copy that holds it.
    const holders = [...builtFiles('.js'), ...builtFiles('.cjs')].filter((f) =>
      sourcesIn(f).includes('src/matchers/recorder.ts'),
    )
    expect(holders.map((f) => f.split('.').pop()).sort()).toEqual(['cjs', 'js'])
    for (const file of holders)
      expect(readFileSync(resolve(dist, file), 'utf8'), file).toContain(
        'Symbol.for("dataforge-evals.currentTestAccess")',
      )
  })

  it('keeps source maps with their TypeScript sources for every built file that holds code', () => {
    const withCode = [...builtFiles('.js'), ...builtFiles('.cjs')].filter((f) => sourcesIn(f).length > 0)
    expect(withCode.length).toBeGreaterThan(30)
    for (const file of withCode) {
      const js = readFileSync(join(dist, file), 'utf8')
      expect(js, file).toContain(`//# sourceMappingURL=${file.split('/').pop()}.map`)
      const map = JSON.parse(readFileSync(join(dist, `${file}.map`), 'utf8')) as {
        sources: string[]
        sourcesContent?: string[]
      }
      expect(map.sourcesContent?.length, file).toBe(map.sources.length)
      for (const source of map.sources)
        expect(existsSync(resolve(dist, dirname(file), source)), `${file}.map: ${source}`).toBe(true)
    }
  })

  it('finds the bundled datasets and its own version from either format', async () => {
    const datasets = resolve(repoRoot, 'datasets')
    const esm = (await import(resolve(dist, 'index.js'))) as { BUNDLED_WTQ_DIR: string }
    expect(esm.BUNDLED_WTQ_DIR).toBe(join(datasets, 'wtq'))
    const { stdout } = await run(process.execPath, [
      '-p',
      `require(${JSON.stringify(join(dist, 'index.cjs'))}).BUNDLED_WTQ_DIR`,
    ])
    expect(stdout.trim()).toBe(join(datasets, 'wtq'))
  })

  it('keeps the bin executable after a rebuild', () => {
    // tsdown grants the execute bit on every build (a second `npm run build` used to drop it).
    expect(statSync(resolve(repoRoot, pkg.bin['dataforge-evals']!)).mode & 0o111).not.toBe(0)
  })
})
