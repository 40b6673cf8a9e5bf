import { execFile } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

// The published package, as a user gets it: `npm pack`, then `npm install ./x.tgz` into a new project.
// The dependencies come from npm's cache (filled by this repo's `npm ci`); the registry is asked only for
// what the cache lacks.

const run = promisify(execFile)
const repoRoot = fileURLToPath(new URL('../..', import.meta.url))
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
const vitestVersion = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')).devDependencies.vitest as string

let work: string
let project: string
let files: string[]
let install: { stdout: string; stderr: string }

async function readmeExample(lang: string, marker: string): Promise<string> {
  const readme = await readFile(join(repoRoot, 'README.md'), 'utf8')
  const blocks = [...readme.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!)
  const block = blocks.find((b) => b.includes(marker))
  if (!block) throw new Error(`README has no ${lang} block with ${marker}`)
  return block
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'dataforge-pack-'))
  if (!existsSync(join(repoRoot, 'dist/index.js'))) await run(npm, ['run', 'build'], { cwd: repoRoot })
  const packed = await run(npm, ['pack', '--json', '--pack-destination', work], { cwd: repoRoot })
  const info = JSON.parse(packed.stdout)[0] as { filename: string; files: Array<{ path: string }> }
  files = info.files.map((f) => f.path)
  project = join(work, 'project')
  await mkdir(project)
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'new-project', private: true, type: 'module' }))
  install = await run(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', join(work, info.filename), `vitest@${vitestVersion}`], {
    cwd: project,
    env: { ...process.env, npm_config_loglevel: 'warn' },
  })
}, 240_000)

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true })
})

describe('the packed package', () => {
  it('carries its license, the bundled datasets and every file the README links to; no lifecycle script', async () => {
    expect(files).toContain('LICENSE')
    expect(files).toContain('datasets/NOTICE')
    expect(files).toContain('datasets/hospital/dirty.csv')
    const readme = await readFile(join(repoRoot, 'README.md'), 'utf8')
    const links = [...readme.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1]!).filter((l) => !/^[a-z]+:/.test(l))
    expect(links).toContain('docs/run-record.md')
    for (const link of links) expect(files, link).toContain(link)
    const manifest = JSON.parse(await readFile(join(project, 'node_modules/dataforge-evals/package.json'), 'utf8'))
    for (const script of ['preinstall', 'install', 'postinstall', 'prepare', 'prepack', 'postpack']) expect(manifest.scripts?.[script], script).toBeUndefined()
  })

  it('installs without warnings, and its source maps carry their sources', async () => {
    expect(`${install.stdout}${install.stderr}`).not.toMatch(/warn|script/i)
    // The built file that holds evalCase (an entry or a shared chunk).
    const dist = join(project, 'node_modules/dataforge-evals/dist')
    const built = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.js'))
    const file = built.find((name) => readFileSync(join(dist, name), 'utf8').includes('//#region src/vitest/eval-case.ts'))
    expect(file).toBeDefined()
    const map = JSON.parse(await readFile(join(dist, `${file}.map`), 'utf8'))
    expect(map.sourcesContent?.length).toBe(map.sources.length)
    expect(map.sourcesContent.every((s: unknown) => typeof s === 'string' && s.length > 0)).toBe(true)
  })

  it('runs the README’s Vitest example and the README’s CLI command offline', async () => {
    await mkdir(join(project, 'evals'))
    await writeFile(join(project, 'evals/repair.eval.ts'), await readmeExample('ts', "from 'dataforge-evals/vitest'"))
    await writeFile(join(project, 'vitest.config.ts'), await readmeExample('ts', 'new DataforgeReporter'))
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', DATAFORGE_AGENT: '', DATAFORGE_DATA_DIR: '' }
    delete env.VITEST
    delete env.VITEST_WORKER_ID
    delete env.NODE_ENV
    const vitest = await run(process.execPath, [join(project, 'node_modules/vitest/vitest.mjs'), 'run'], { cwd: project, env })
    const out = `${vitest.stdout}${vitest.stderr}`
    expect(out).toMatch(/3 passed/)
    expect(out).toMatch(/baseline · hospital\s+0\.917 ± 0\.000/)
    expect(out).not.toMatch(/missing source files|warn/i)
    expect(existsSync(join(project, 'evals/__reports__/report.json'))).toBe(true)

    const cli = await run(npm, ['exec', '--offline', '--', 'dataforge-evals', 'run', '--dataset', 'hospital', '--agent', 'baseline'], { cwd: project, env })
    expect(cli.stdout).toMatch(/wrote reports\/run\/report\.md, reports\/run\/report\.html, reports\/run\/report\.json, reports\/run\/runs\.jsonl, reports\/run\/manifest\.json/)
    const report = JSON.parse(await readFile(join(project, 'reports/run/report.json'), 'utf8'))
    expect(report.records[0]).toMatchObject({ dataset: 'hospital', status: 'ok', tp: 448, fp: 20, fn: 61 })
  }, 120_000)
})
