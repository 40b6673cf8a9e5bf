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
  const imported = [...text.matchAll(/from\s+["'](\.[^"']+)["']|import\s+["'](\.[^"']+)["']/g)].map((m) => resolve(dirname(file), (m[1] ?? m[2])!.replace(/\.js$/, '.d.ts')))
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

const userEval = `import { expect } from 'vitest'
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
`

it('lets a user project type-check the matchers on expect() through the package declarations', async () => {
  const pkg = await packageDir()
  const user = temp.make('dataforge-types-user-')
  mkdirSync(join(user, 'node_modules'))
  symlinkSync(pkg, join(user, 'node_modules', 'dataforge-evals'), 'dir')
  symlinkSync(resolve(repoRoot, 'node_modules/vitest'), join(user, 'node_modules', 'vitest'), 'dir')
  writeFileSync(join(user, 'package.json'), JSON.stringify({ type: 'module' }))
  writeFileSync(
    join(user, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true, types: [] },
      files: ['repair.eval.ts'],
    }),
  )
  writeFileSync(join(user, 'repair.eval.ts'), userEval)
  const result = await run(process.execPath, [tsc, '-p', user]).then(
    () => ({ code: 0, output: '' }),
    (error: { code?: number; stdout?: string }) => ({ code: error.code ?? -1, output: error.stdout ?? '' }),
  )
  expect(result.output).toBe('')
  expect(result.code).toBe(0)
  // The setup entry carries the augmentation too, for projects that only list it in setupFiles.
  expect(declarationsReached(join(pkg, 'dist/vitest/setup.d.ts'))).toContain("declare module 'vitest'")
}, 60_000)
