import { execFile } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, expect, it } from 'vitest'
import { repoRoot, TempDirs } from './fixtures/vitest/run-fixture.js'

// The published declarations in a user's project: `expect(x).toRepairCells(...)` must type-check once the
// eval file imports dataforge-evals/vitest, and wrong uses must not. Uses dist/ when it is newer than the
// sources (`npm test` builds first); otherwise emits the declarations into a temp package.

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

function distIsFresh(): boolean {
  try {
    return statSync(resolve(repoRoot, 'dist/vitest/augment.d.ts')).mtimeMs >= newestSource(resolve(repoRoot, 'src'))
  } catch {
    return false
  }
}

/** A package folder whose exports resolve to declarations of the current sources. */
async function packageDir(): Promise<string> {
  if (distIsFresh()) return repoRoot
  const pkg = temp.make('dataforge-types-pkg-')
  // Type errors elsewhere in the tree must not stop the emit; the user project's check below is the test.
  await run(process.execPath, [tsc, '-p', resolve(repoRoot, 'tsconfig.build.json'), '--emitDeclarationOnly', '--outDir', join(pkg, 'dist')]).catch(() => undefined)
  const manifest = JSON.parse(readFileSync(resolve(repoRoot, 'package.json'), 'utf8')) as Record<string, unknown>
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: manifest.name, type: manifest.type, exports: manifest.exports }))
  symlinkSync(resolve(repoRoot, 'node_modules'), join(pkg, 'node_modules'), 'dir')
  return pkg
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
  expect(readFileSync(join(pkg, 'dist/vitest/setup.d.ts'), 'utf8')).toContain("import './augment.js'")
}, 60_000)
