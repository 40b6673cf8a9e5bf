import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { repoRoot } from './vitest-run.js'

const run = promisify(execFile)
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'

/**
 * The versions a consumer installs beside the package: the ones this repository pins in its devDependencies, but
 * for Vitest when `DATAFORGE_TEST_VITEST` names another version (the cross-stack run, test/cross-stack/run.sh). There
 * `@types/node` follows the running Node's major, as a user on that Node has it (Vitest 5 asks for ^22 or >=24).
 */
export async function pinnedDevVersions(): Promise<Record<string, string>> {
  const pinned = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')).devDependencies as Record<
    string,
    string
  >
  const vitest = process.env.DATAFORGE_TEST_VITEST
  const nodeMajor = process.versions.node.split('.')[0]
  return vitest ? { ...pinned, vitest, '@types/node': `^${nodeMajor}` } : pinned
}

export interface PackedInstall {
  /** The tarball `npm pack` wrote into the work folder. */
  tarball: string
  /** The paths the tarball holds, as `npm pack --json` lists them. */
  files: string[]
  /** The same entries with their file modes. */
  entries: Array<{ path: string; mode: number }>
  /** What `npm install` printed. */
  install: { stdout: string; stderr: string }
}

export interface PackedInstallOptions {
  /** Packages installed beside the tarball, by name; their versions are the ones this repository pins. */
  beside?: string[]
  /** Packages this repository does not pin, each with its exact version (`ai@6.0.325`), in the same install. */
  extra?: string[]
  /** The consumer's package.json, `private` added (default `{ name: 'new-project', type: 'module' }`). */
  manifest?: Record<string, unknown>
  /** npm's log level during the install (default `error`). */
  loglevel?: string
}

/**
 * This repository as a user gets it: built if need be, `npm pack` into `work`, then `npm install ./x.tgz` (and the
 * pinned versions of `beside`) into the new project `dir`. The dependencies come from npm's cache (filled by this
 * repo's `npm ci`); the registry is asked only for what the cache lacks.
 */
export async function installPacked(
  work: string,
  dir: string,
  opts: PackedInstallOptions = {},
): Promise<PackedInstall> {
  if (!existsSync(join(repoRoot, 'dist/index.js')) || !existsSync(join(repoRoot, 'dist/jest/setup.cjs')))
    await run(npm, ['run', 'build'], { cwd: repoRoot })
  const packed = await run(npm, ['pack', '--json', '--pack-destination', work], { cwd: repoRoot })
  const info = JSON.parse(packed.stdout)[0] as { filename: string; files: Array<{ path: string; mode: number }> }
  const tarball = join(work, info.filename)
  const dev = await pinnedDevVersions()
  const beside = (opts.beside ?? []).map((name) => {
    if (!dev[name]) throw new Error(`package.json pins no devDependency ${name}`)
    return `${name}@${dev[name]}`
  })
  await writeFile(
    join(dir, 'package.json'),
    JSON.stringify({ ...(opts.manifest ?? { name: 'new-project', type: 'module' }), private: true }),
  )
  const install = await run(
    npm,
    ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball, ...beside, ...(opts.extra ?? [])],
    {
      cwd: dir,
      env: { ...process.env, npm_config_loglevel: opts.loglevel ?? 'error' },
    },
  )
  return { tarball, files: info.files.map((f) => f.path), entries: info.files, install }
}

/**
 * The environment of a consumer's command run from a test: the parent is a Vitest worker, so its VITEST_*
 * variables, NODE_OPTIONS and NODE_ENV go, and so do the harness's own settings, CI's and any provider key
 * (a consumer's run in a test is keyless).
 */
export function consumerEnv(): NodeJS.ProcessEnv {
  const kept = Object.entries(process.env).filter(
    ([k]) => !/^(VITEST|DATAFORGE_|GITHUB_)|^(TEST|NODE_OPTIONS|NODE_ENV|FORCE_COLOR)$|_API_KEY$/.test(k),
  )
  return { ...Object.fromEntries(kept), NO_COLOR: '1' }
}
