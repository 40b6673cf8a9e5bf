import { execFile } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, expect, it } from 'vitest'
import { repoRoot, TempDirs } from '../helpers/vitest-run.js'

// The published declarations in a user's project: `expect(x).toRepairCells(...)` must type-check once the
// eval file imports dataforge-evals/vitest, and wrong uses must not. Uses dist/ when it is newer than the
// sources (`npm test` builds first); otherwise builds it.

const run = promisify(execFile)
const tsc = resolve(repoRoot, 'node_modules/typescript/bin/tsc')
const temp = new TempDirs()
afterAll(() => temp.removeAll())

function newestSource(dir: string): number {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs)
  }
  return newest
}

/** The text of a declaration file and of every declaration file it imports, transitively. */
function declarationsReached(file: string, seen = new Set<string>()): string {
  if (seen.has(file)) return ''
  seen.add(file)
  const text = readFileSync(file, 'utf8')
  const imported = [...text.matchAll(/from\s+["'](\.[^"']+)["']|import\s+["'](\.[^"']+)["']/g)].map((m) =>
    resolve(dirname(file), (m[1] ?? m[2])!.replace(/\.js$/, '.d.ts')),
  )
  return [text, ...imported.map((f) => declarationsReached(f, seen))].join('\n')
}

function distIsFresh(): boolean {
  try {
    return statSync(resolve(repoRoot, 'dist/vitest/setup.d.ts')).mtimeMs >= newestSource(resolve(repoRoot, 'src'))
  } catch {
    return false
  }
}

/** The package folder, its declarations built from the current sources (`npm test` builds first). */
async function packageDir(): Promise<string> {
  if (!distIsFresh()) await run(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build'], { cwd: repoRoot })
  return repoRoot
}

const userEval = `import { expect, test } from 'vitest'
import { conversation, createMockQaAgent, evalCase } from 'dataforge-evals/vitest'
import { allOf, contains, numeric } from 'dataforge-evals'

evalCase('repair', { dataset: 'synthetic', agent: 'baseline', trials: 2 }, async ({ task, agent, record }) => {
  const output = await agent.run(task)
  expect(output).toRepairCells(task, { minF1: 0.5, minPrecision: 0.8 })
  expect(output).not.toRepairCells(task)
  record('fixes', Array.isArray(output) ? output.length : output.fixes.length)
  // @ts-expect-error thresholds are numbers
  expect(output).toRepairCells(task, { minF1: 'high' })
  // @ts-expect-error the task is required
  expect(output).toRepairCells()
})

conversation('qa', { data: [{ a: 1 }], agent: createMockQaAgent({ 'q?': 1 }) }, [
  ['q?', async (a) => {
    expect(a).toBeNumeric(1, { tol: 0.01 })
    expect(a).toContainAnswer(['1'])
    expect(a).toExactlyEqual(1)
    expect(a).toEqualTable([{ a: 1 }])
    expect(a).not.toRefuse()
    expect(a).not.toProduceChart({ mark: 'bar' })
    await expect(a).toPass(allOf(numeric(1), contains('1')))
    // @ts-expect-error not a dataforge (or Vitest) matcher
    expect(a).toRepairRows()
  }],
])

// What a test carries to the reporter, typed through Vitest's TaskMeta.
test('meta', ({ task }) => {
  const caseId: string | undefined = task.meta.dataforge?.caseId
  // @ts-expect-error the meta's fields are typed
  const wrong: number | undefined = task.meta.dataforge?.caseId
  return void [caseId, wrong]
})
`

/** A user project in a new folder: this package and Vitest linked in, a strict NodeNext tsconfig over its files. */
function userProject(files: Record<string, string>): string {
  const user = temp.make('dataforge-types-user-')
  mkdirSync(join(user, 'node_modules'))
  symlinkSync(repoRoot, join(user, 'node_modules', 'dataforge-evals'), 'dir')
  symlinkSync(resolve(repoRoot, 'node_modules/vitest'), join(user, 'node_modules', 'vitest'), 'dir')
  writeFileSync(join(user, 'package.json'), JSON.stringify({ type: 'module' }))
  writeFileSync(
    join(user, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: [],
      },
      files: Object.keys(files),
    }),
  )
  for (const [name, text] of Object.entries(files)) writeFileSync(join(user, name), text)
  return user
}

async function typecheck(dir: string): Promise<{ code: number; output: string }> {
  return run(process.execPath, [tsc, '-p', dir]).then(
    () => ({ code: 0, output: '' }),
    (error: { code?: number; stdout?: string }) => ({ code: error.code ?? -1, output: error.stdout ?? '' }),
  )
}

it('lets a user project type-check the matchers on expect() and the task meta through the package declarations', async () => {
  const pkg = await packageDir()
  const result = await typecheck(userProject({ 'repair.eval.ts': userEval }))
  expect(result.output).toBe('')
  expect(result.code).toBe(0)
  // The setup entry carries the augmentation too, for projects that only list it in setupFiles.
  expect(declarationsReached(join(pkg, 'dist/vitest/setup.d.ts'))).toContain("declare module 'vitest'")
}, 60_000)

it('gives the matcher types to an eval that imports only vitest and the package root, through the documented vitest.config.ts', async () => {
  await packageDir()
  const config = `import { defineConfig } from 'vitest/config'
import DataforgeReporter from 'dataforge-evals/reporter'

export default defineConfig({ test: { setupFiles: ['dataforge-evals/vitest/setup'], reporters: ['default', new DataforgeReporter()] } })
`
  const plainEval = `import { expect, test } from 'vitest'
import { createRepairTask } from 'dataforge-evals'

test('repair', () => {
  const { task } = createRepairTask({ name: 't', dirty: { columns: ['id', 'a'], rows: [['1', 'x']] }, clean: { columns: ['id', 'a'], rows: [['1', 'y']] } })
  expect([{ row: 0, column: 'a', newValue: 'y' }]).toRepairCells(task, { minF1: 1 })
  expect(42).toBeNumeric(42)
})
`
  // The config first, as TypeScript reads a project's root folder before its subfolders.
  const withConfig = await typecheck(userProject({ 'vitest.config.ts': config, 'plain.eval.ts': plainEval }))
  expect(withConfig.output).toBe('')
  expect(withConfig.code).toBe(0)
  // Without the config in the project, the eval gets them from an import of dataforge-evals/vitest, or from the
  // setup entry in tsconfig's `types` (docs/matchers.md).
  expect((await typecheck(userProject({ 'plain.eval.ts': plainEval }))).output).toMatch(
    /Property 'toRepairCells' does not exist/,
  )
  const viaTypes = userProject({ 'plain.eval.ts': plainEval })
  const tsconfig = JSON.parse(readFileSync(join(viaTypes, 'tsconfig.json'), 'utf8'))
  tsconfig.compilerOptions.types = ['dataforge-evals/vitest/setup']
  writeFileSync(join(viaTypes, 'tsconfig.json'), JSON.stringify(tsconfig))
  expect(await typecheck(viaTypes)).toEqual({ code: 0, output: '' })
}, 60_000)

it('publishes declarations that import only Node, the dependencies and the peers (no devDependency such as @vitest/runner)', async () => {
  const pkg = await packageDir()
  const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as Record<
    string,
    Record<string, string> | undefined
  >
  // `expect` is Jest's, installed with the jest peer (the Jest entries augment its matchers).
  const allowed = new Set([
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
    'expect',
  ])
  const imported = new Map<string, string>()
  for (const file of readdirSync(join(pkg, 'dist'), { recursive: true, encoding: 'utf8' }).filter((f) =>
    /\.d\.c?ts$/.test(f),
  )) {
    const text = readFileSync(join(pkg, 'dist', file), 'utf8')
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*["']([^"'.][^"']*)["']|declare module ["']([^"']+)["']/g)) {
      const spec = (m[1] ?? m[2])!
      if (spec.startsWith('node:')) continue
      imported.set(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!, file)
    }
  }
  expect(imported.has('vitest')).toBe(true)
  for (const [name, file] of imported) expect(allowed.has(name), `${file} imports ${name}`).toBe(true)
})
