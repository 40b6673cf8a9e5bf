import { execFile } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { docExample } from '../helpers/doc-examples.js'
import { installPacked, pinnedDevVersions } from '../helpers/packed-project.js'

// The published package, as a user gets it: `npm pack`, then `npm install ./x.tgz` into a new project.

const run = promisify(execFile)
const repoRoot = fileURLToPath(new URL('../..', import.meta.url))
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'

let work: string
let project: string
let files: Array<{ path: string; mode: number }>
let install: { stdout: string; stderr: string }

/** The README's eval and vitest.config.ts, written into `dir`. */
async function writeReadmeProject(dir: string): Promise<void> {
  await mkdir(join(dir, 'evals'))
  await writeFile(
    join(dir, 'evals/repair.eval.ts'),
    await docExample('README.md', 'ts', "from 'dataforge-evals/vitest'"),
  )
  await writeFile(join(dir, 'vitest.config.ts'), await docExample('README.md', 'ts', 'new DataforgeReporter'))
}

/** A clean environment: the parent is itself a Vitest worker. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', DATAFORGE_AGENT: '', DATAFORGE_DATA_DIR: '' }
  delete env.VITEST
  delete env.VITEST_WORKER_ID
  delete env.NODE_ENV
  return env
}

/** `vitest run` of the installed Vitest in `dir`. */
function runVitest(dir: string) {
  return run(process.execPath, [join(project, 'node_modules/vitest/vitest.mjs'), 'run'], { cwd: dir, env: cleanEnv() })
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'dataforge-pack-'))
  project = join(work, 'project')
  await mkdir(project)
  ;({ entries: files, install } = await installPacked(work, project, { beside: ['vitest'], loglevel: 'warn' }))
}, 240_000)

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true })
})

describe('the packed package', () => {
  it('carries its license, the bundled datasets and every file the README links to, its bin executable; no lifecycle script', async () => {
    const paths = files.map((f) => f.path)
    expect(paths).toContain('LICENSE')
    expect(paths).toContain('datasets/NOTICE')
    expect(paths).toContain('datasets/hospital/dirty.csv')
    // The complete command agent docs/agent-protocol.md points to.
    expect(paths).toContain('fixtures/agents/example_agent.py')
    expect(paths.filter((p) => p.startsWith('fixtures/'))).toEqual(['fixtures/agents/example_agent.py'])
    const readme = await readFile(join(repoRoot, 'README.md'), 'utf8')
    const links = [...readme.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)]
      .map((m) => m[1]!)
      .filter((l) => !/^[a-z]+:/.test(l))
    expect(links).toContain('docs/run-record.md')
    for (const link of links) expect(paths, link).toContain(link)
    const manifest = JSON.parse(await readFile(join(project, 'node_modules/dataforge-evals/package.json'), 'utf8'))
    expect(manifest.repository.url).toMatch(/^git\+https:\/\/github\.com\/.+\.git$/)
    expect(manifest.homepage).toMatch(/^https:\/\//)
    expect(manifest.bugs.url).toMatch(/^https:\/\/.+\/issues$/)
    // The tarball's entry itself: npm install makes a bin executable anyway, other unpackers keep the packed mode.
    const bin = files.find((f) => f.path === manifest.bin['dataforge-evals'])
    expect(bin?.mode.toString(8)).toBe('755')
    for (const script of ['preinstall', 'install', 'postinstall', 'prepare', 'prepack', 'postpack'])
      expect(manifest.scripts?.[script], script).toBeUndefined()
  })

  it('installs without warnings beside the Vitest asked for, and its source maps carry their sources', async () => {
    expect(`${install.stdout}${install.stderr}`).not.toMatch(/warn|script/i)
    // The pinned Vitest, or the one a cross-stack run names (DATAFORGE_TEST_VITEST).
    const vitest = JSON.parse(await readFile(join(project, 'node_modules/vitest/package.json'), 'utf8')).version
    expect(vitest).toBe((await pinnedDevVersions()).vitest)
    // The built file that holds evalCase (an entry or a shared chunk).
    const dist = join(project, 'node_modules/dataforge-evals/dist')
    const built = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.js'))
    const file = built.find((name) =>
      readFileSync(join(dist, name), 'utf8').includes('//#region src/vitest/eval-case.ts'),
    )
    expect(file).toBeDefined()
    const map = JSON.parse(await readFile(join(dist, `${file}.map`), 'utf8'))
    expect(map.sourcesContent?.length).toBe(map.sources.length)
    expect(map.sourcesContent.every((s: unknown) => typeof s === 'string' && s.length > 0)).toBe(true)
  })

  it('leaves DuckDB and the openai SDK out of the install; the data agent names the install command when DuckDB is missing', async () => {
    expect(existsSync(join(project, 'node_modules/@duckdb/node-api'))).toBe(false)
    expect(existsSync(join(project, 'node_modules/openai'))).toBe(false)
    const range = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')).peerDependencies[
      '@duckdb/node-api'
    ]
    const open =
      "DataEngine.open({ t: { columns: ['a'], rows: [['1']] } }).then(() => console.log('opened'), (e) => console.log(e.name + ': ' + e.message))"
    const esm = await run(
      process.execPath,
      ['--input-type=module', '-e', `import { DataEngine } from 'dataforge-evals'; ${open}`],
      { cwd: project, env: cleanEnv() },
    )
    expect(esm.stdout).toBe(
      `InputError: data agent: DuckDB is not installed; install it with npm i -D @duckdb/node-api@${range}\n`,
    )
    const cjs = await run(process.execPath, ['-e', `const { DataEngine } = require('dataforge-evals'); ${open}`], {
      cwd: project,
      env: cleanEnv(),
    })
    expect(cjs.stdout).toBe(esm.stdout)
  })

  it('runs the README’s Vitest example and the README’s CLI command offline', async () => {
    await writeReadmeProject(project)
    const vitest = await runVitest(project)
    const out = `${vitest.stdout}${vitest.stderr}`
    expect(out).toMatch(/3 passed/)
    expect(out).toMatch(/baseline · hospital\s+1 case\s+0\.917 ± 0\.000/)
    expect(out).not.toMatch(/missing source files|warn/i)
    expect(existsSync(join(project, 'evals/__reports__/report.json'))).toBe(true)

    const cli = await run(
      npm,
      ['exec', '--offline', '--', 'dataforge-evals', 'run', '--dataset', 'hospital', '--agent', 'baseline'],
      { cwd: project, env: cleanEnv() },
    )
    expect(cli.stdout).toMatch(
      /wrote reports\/run\/report\.md, reports\/run\/report\.html, reports\/run\/report\.json, reports\/run\/runs\.jsonl, reports\/run\/manifest\.json/,
    )
    const report = JSON.parse(await readFile(join(project, 'reports/run/report.json'), 'utf8'))
    expect(report.records[0]).toMatchObject({ dataset: 'hospital', status: 'ok', tp: 448, fp: 20, fn: 61 })
  }, 120_000)

  it('runs the shipped example command agent from the installed package', async () => {
    const agent = 'cmd:python3 node_modules/dataforge-evals/fixtures/agents/example_agent.py'
    const bin = join(project, 'node_modules/.bin/dataforge-evals')
    const cli = await run(
      bin,
      ['run', '--dataset', 'synthetic', '--agent', agent, '--output', 'reports/example/report.md'],
      { cwd: project, env: cleanEnv() },
    )
    expect(cli.stdout).toMatch(/wrote reports\/example\/report\.md/)
    const report = JSON.parse(await readFile(join(project, 'reports/example/report.json'), 'utf8'))
    expect(report.records[0]).toMatchObject({ agentSource: agent, status: 'ok', isolated: true })
  }, 120_000)

  it('runs the README’s example in a "type": "commonjs" project (as npm init writes it), vitest.config.ts as the README names it', async () => {
    // A folder of the same install: Node and Vite resolve the packages from the parent's node_modules.
    const cjs = join(project, 'commonjs')
    await mkdir(cjs)
    await writeFile(
      join(cjs, 'package.json'),
      JSON.stringify({ name: 'cjs-project', version: '1.0.0', main: 'index.js', type: 'commonjs' }),
    )
    await writeReadmeProject(cjs)
    // Vite bundles a .ts config of a CommonJS package as CommonJS: it requires the reporter (its .cjs build).
    const vitest = await runVitest(cjs)
    const out = `${vitest.stdout}${vitest.stderr}`
    expect(out).toMatch(/3 passed/)
    expect(out).toMatch(/baseline · hospital\s+1 case\s+0\.917 ± 0\.000/)
    expect(out).not.toMatch(/ESM only|load by require|error/i)
    const report = JSON.parse(await readFile(join(cjs, 'evals/__reports__/report.json'), 'utf8'))
    expect(report.records.map((r: { status: string; correct: boolean }) => [r.status, r.correct])).toEqual([
      ['ok', true],
      ['ok', true],
      ['ok', true],
    ])
    // Vite's warning about ESM syntax in a config it loads as CommonJS, which docs/known-limits.md names; a .mts
    // config is loaded as ESM, without it.
    expect(out).toMatch(/ESM syntax in a file loaded as CommonJS \(vitest\.config\.ts/)
    await rename(join(cjs, 'vitest.config.ts'), join(cjs, 'vitest.config.mts'))
    const mts = await runVitest(cjs)
    expect(`${mts.stdout}${mts.stderr}`).toMatch(/3 passed/)
    expect(`${mts.stdout}${mts.stderr}`).not.toMatch(/warn/i)
  }, 120_000)
})
