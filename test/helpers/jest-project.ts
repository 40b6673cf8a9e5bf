import { execFile } from 'node:child_process'
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { docExample } from './doc-examples.js'
import { installPacked } from './packed-project.js'
import { repoRoot } from './vitest-run.js'

const run = promisify(execFile)
/** What a Jest user installs beside this package (versions pinned in this repository's devDependencies). */
const JEST_SIDE = [
  'jest',
  'ts-jest',
  'typescript',
  'babel-jest',
  '@babel/core',
  '@babel/preset-env',
  '@babel/preset-typescript',
]

/**
 * One packed tarball of this repository installed with Jest, ts-jest and Babel into `<work>/node_modules`, as a
 * user installs it; the CommonJS, ESM and Babel projects are folders below it and share that install. The
 * dependencies come from npm's cache (filled by this repo's `npm ci`).
 */
export async function installPackedWithJest(work: string): Promise<void> {
  await installPacked(work, work, { beside: JEST_SIDE, manifest: { name: 'jest-users' } })
}

const PARITY_EVALS = join(repoRoot, 'test/fixtures/vitest/jest-parity/evals')

export type JestProjectKind = 'cjs' | 'esm' | 'babel'

/** The tsconfig of a Jest project: ts-jest transpiles file by file under Node16; `tsc --noEmit` type-checks it. */
export async function writeJestTsconfig(dir: string): Promise<void> {
  await writeFile(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'Node16',
        moduleResolution: 'Node16',
        strict: true,
        types: [],
        isolatedModules: true,
        noEmit: true,
        skipLibCheck: true,
      },
    }),
  )
}

/**
 * A Jest project holding the parity evals: `cjs`, ts-jest's default CommonJS; `esm`, native ESM through
 * ts-jest; `babel`, babel-jest (Jest's default transform) with @babel/preset-env and @babel/preset-typescript,
 * as Jest's docs set it up, on the CommonJS runtime.
 */
export async function makeJestProject(dir: string, kind: JestProjectKind): Promise<void> {
  await mkdir(join(dir, 'evals'), { recursive: true })
  await writeFile(
    join(dir, 'package.json'),
    JSON.stringify({ name: `${kind}-project`, private: true, ...(kind === 'esm' ? { type: 'module' } : {}) }),
  )
  await writeJestTsconfig(dir)
  const transform =
    kind === 'babel'
      ? '' // babel-jest is Jest's default transform when a Babel config exists
      : `transform: { '^.+\\\\.ts$': ['ts-jest', { useESM: ${kind === 'esm'} }] },\n  `
  const config = `{
  testMatch: ['**/evals/**/*.eval.ts'],
  ${kind === 'esm' ? "extensionsToTreatAsEsm: ['.ts'],\n  " : ''}${transform}setupFilesAfterEnv: ['dataforge-evals/jest/setup'],
  reporters: ['default', ['dataforge-evals/jest-reporter', JSON.parse(process.env.DF_REPORTER_OPTIONS ?? '{}')]],
}\n`
  await writeFile(
    join(dir, 'jest.config.js'),
    kind === 'esm' ? `export default ${config}` : `module.exports = ${config}`,
  )
  if (kind === 'babel') {
    await writeFile(
      join(dir, 'babel.config.js'),
      "module.exports = { presets: [['@babel/preset-env', { targets: { node: 'current' } }], '@babel/preset-typescript'] }\n",
    )
  }
  for (const name of await readdir(PARITY_EVALS)) {
    const source = await readFile(join(PARITY_EVALS, name), 'utf8')
    await writeFile(join(dir, 'evals', name), toJest(source))
  }
}

export type DocumentedJestKind = 'ts-jest' | 'ts-jest-tsconfig' | 'babel' | 'ts-jest-esm'

/**
 * The documented Jest setup (docs/jest.md) as a user copies it into an `npm init -y` project ("type":
 * "commonjs"): `ts-jest` with no tsconfig.json, `ts-jest-tsconfig` with a usual CommonJS one, `babel` with the
 * page's Babel config and without the `transform` line; or into a `"type": "module"` project, `ts-jest-esm` with
 * the page's native-ESM config and tsconfig.json. Beside the page's eval: one shared with Vitest (a named
 * import of the package, a `./shared.js` import of a TypeScript file) and, under ts-jest's CommonJS, one that
 * must not type-check.
 */
export async function makeDocumentedJestProject(dir: string, kind: DocumentedJestKind): Promise<void> {
  const block = (lang: string, marker: string) => docExample('docs/jest.md', lang, marker)
  await mkdir(join(dir, 'evals'), { recursive: true })
  const esm = kind === 'ts-jest-esm'
  await writeFile(
    join(dir, 'package.json'),
    JSON.stringify({ name: `${kind}-project`, version: '1.0.0', main: 'index.js', type: esm ? 'module' : 'commonjs' }),
  )
  const config = await block('js', esm ? 'useESM: true' : '// jest.config.js')
  if (esm) await writeFile(join(dir, 'tsconfig.json'), await block('jsonc', '// tsconfig.json'))
  if (kind === 'babel') {
    const withoutTransform = config.replace(/^ *transform: .*\n/m, '')
    if (withoutTransform === config) throw new Error('docs/jest.md: the Jest config has no transform line to leave out')
    await writeFile(join(dir, 'jest.config.js'), withoutTransform)
    await writeFile(join(dir, 'babel.config.js'), await block('js', '// babel.config.js'))
  } else {
    await writeFile(join(dir, 'jest.config.js'), config)
  }
  if (kind === 'ts-jest-tsconfig') {
    const compilerOptions = {
      target: 'ES2022',
      module: 'commonjs',
      strict: true,
      esModuleInterop: true,
      skipLibCheck: true,
    }
    await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions }, null, 2))
  }
  await writeFile(join(dir, 'evals/answers.eval.ts'), await block('ts', '// evals/answers.eval.ts'))
  await writeFile(join(dir, 'evals/shared.ts'), 'export const minF1: number = 0.1\n')
  await writeFile(join(dir, 'evals/shared.eval.ts'), SHARED_EVAL)
  if (kind === 'ts-jest' || kind === 'ts-jest-tsconfig')
    await writeFile(join(dir, 'evals/mistyped.eval.ts'), MISTYPED_EVAL)
}

/** An eval shared with Vitest: a named import of the package and a `.js`-suffixed import of a TypeScript file. */
const SHARED_EVAL = `import { expect } from '@jest/globals'
import { evalCase } from 'dataforge-evals/jest'
import { minF1 } from './shared.js'

evalCase('shared bar', { dataset: 'synthetic', agent: 'baseline', seed: 1 }, async ({ task, agent }) => {
  expect(await agent.run()).toRepairCells(task, { minF1 })
})
`

/** A matcher given a wrong argument: ts-jest must refuse to run the file. */
const MISTYPED_EVAL = `import { expect, test } from '@jest/globals'
import 'dataforge-evals/jest'

test('mistyped', () => expect(1).toBeNumeric('one'))
`

/** The Vitest eval source as a Jest user writes it: Jest's globals module, and the matchers' typings. */
export function toJest(source: string): string {
  return source
    .replace(/from 'vitest'/, "from '@jest/globals'")
    .replace(/'(\.\.\/)+src\/vitest\/index\.js'/, "'dataforge-evals/jest'")
    .replace(/^/, "import 'dataforge-evals/jest'\n")
}

export interface JestRun {
  code: number | null
  output: string
}

/** Runs Jest's CLI in `dir`; never throws on a non-zero exit. */
export async function runJest(
  work: string,
  dir: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<JestRun> {
  // A clean environment: the parent is itself a Vitest worker.
  const base = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^(VITEST|TEST$|NODE_ENV$|FORCE_COLOR$|DATAFORGE_|GITHUB_)/.test(k)),
  )
  const cleanEnv: NodeJS.ProcessEnv = { ...base, NO_COLOR: '1', ...env }
  try {
    const r = await run(process.execPath, [join(work, 'node_modules/jest/bin/jest.js'), '--ci', ...args], {
      cwd: dir,
      env: cleanEnv,
      maxBuffer: 64 * 1024 * 1024,
    })
    return { code: 0, output: `${r.stdout}${r.stderr}` }
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string }
    return { code: typeof e.code === 'number' ? e.code : null, output: `${e.stdout ?? ''}${e.stderr ?? ''}` }
  }
}

/** A test file that scores once and then kills its worker process. */
export const CRASHING_EVAL = `import { expect, test } from '@jest/globals'
import 'dataforge-evals/jest'

test('before the crash', () => {
  expect(5).toBeNumeric(5)
})

test('the worker dies', () => {
  process.kill(process.pid, 'SIGKILL')
})
`

/** Runs the project's TypeScript compiler over it (`tsc --noEmit`); never throws on a non-zero exit. */
export async function typecheck(work: string, dir: string): Promise<JestRun> {
  try {
    const r = await run(process.execPath, [join(work, 'node_modules/typescript/bin/tsc'), '-p', dir], { cwd: dir })
    return { code: 0, output: `${r.stdout}${r.stderr}` }
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string }
    return { code: typeof e.code === 'number' ? e.code : null, output: `${e.stdout ?? ''}${e.stderr ?? ''}` }
  }
}

/** Runs the installed package's CLI (`dataforge-evals …`) in `dir`; never throws on a non-zero exit. */
export async function runInstalledCli(work: string, dir: string, args: string[]): Promise<JestRun> {
  try {
    const r = await run(process.execPath, [join(work, 'node_modules/dataforge-evals/dist/cli/bin.js'), ...args], {
      cwd: dir,
      env: { ...process.env, NO_COLOR: '1' },
    })
    return { code: 0, output: `${r.stdout}${r.stderr}` }
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string }
    return { code: typeof e.code === 'number' ? e.code : null, output: `${e.stdout ?? ''}${e.stderr ?? ''}` }
  }
}

/** Agents by name (in the test's process), module path and command (each in its own process), as `--agent` takes them. */
export const AGENT_SPECS = ['baseline', './agents/example-agent.ts', 'cmd:python3 agents/example_agent.py']

/** An eval of the agents above on the synthetic set, named as the CLI names its cases (the dataset). */
export const AGENTS_EVAL = `import { expect } from '@jest/globals'
import { evalCase } from 'dataforge-evals/jest'

for (const agent of ${JSON.stringify(AGENT_SPECS)}) {
  evalCase('synthetic', { dataset: 'synthetic', agent, trials: 2, seed: 5 }, async ({ task, agent }) => {
    expect(await agent.run()).toRepairCells(task, { minF1: 0 })
  })
}
`

/** A Jest config without the dataforge setup, over test files that use the helpers and the matchers. */
export const NO_SETUP = {
  config: "module.exports = { testMatch: ['**/no-setup/*.eval.ts'] }\n",
  helper: `import { evalCase } from 'dataforge-evals/jest'

evalCase('no setup', { dataset: 'synthetic', agent: 'baseline' }, async () => {})
`,
  plain: `import { expect, test } from '@jest/globals'
import 'dataforge-evals/jest'

test('numeric', () => {
  expect('5').toBeNumeric(5)
})
`,
}

/**
 * Plain `test.concurrent` tests using the global `expect`, asserting in the reverse of their start order (the
 * second holds the first back until it has asserted): each verdict must land on its own test.
 */
export const CONCURRENT_EVAL = `import { describe, expect, test } from '@jest/globals'
import 'dataforge-evals/jest'

describe('concurrent', () => {
  let release: () => void = () => {}
  const secondAsserted = new Promise<void>((resolve) => {
    release = resolve
  })
  test.concurrent('first started, asserts last', async () => {
    await secondAsserted
    expect('12').toBeNumeric(12)
  })
  test.concurrent('second started, asserts first', async () => {
    try {
      expect({ text: 'Bob' }).toContainAnswer('Cara')
    } finally {
      release()
    }
  })
})
`
