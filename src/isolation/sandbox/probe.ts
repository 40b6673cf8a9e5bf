import { execFileSync, spawnSync } from 'node:child_process'
import { accessSync, constants } from 'node:fs'
import { delimiter, isAbsolute, join } from 'node:path'

/** What the OS sandbox needs and whether it works here: bwrap on PATH, and a namespace it can start. */
type SandboxProbe = { ok: true; path: string; version: string } | { ok: false; missing: string }

let cached: SandboxProbe | undefined

/** Finds an executable on PATH (or checks an absolute path); null when there is none. */
export function whichSync(name: string, path = process.env.PATH ?? ''): string | null {
  const candidates =
    isAbsolute(name) || name.includes('/')
      ? [name]
      : path
          .split(delimiter)
          .filter(Boolean)
          .map((d) => join(d, name))
  for (const c of candidates) {
    try {
      accessSync(c, constants.X_OK)
      return c
    } catch {
      // not here
    }
  }
  return null
}

/**
 * Probes bubblewrap once per process: present on PATH, its version, and a real start with the namespaces the
 * agents get (a container without user namespaces fails here, not at the first trial). `DATAFORGE_BWRAP` names
 * another binary (tests use it to stand in a missing one).
 */
export function probeSandbox(env: NodeJS.ProcessEnv = process.env): SandboxProbe {
  if (cached && env === process.env) return cached
  const result = probe(env)
  if (env === process.env) cached = result
  return result
}

function probe(env: NodeJS.ProcessEnv): SandboxProbe {
  if (process.platform !== 'linux')
    return { ok: false, missing: `the OS sandbox (bubblewrap) runs on Linux only, not ${process.platform}` }
  const name = env.DATAFORGE_BWRAP || 'bwrap'
  const path = whichSync(name, env.PATH)
  if (!path)
    return { ok: false, missing: `bubblewrap (${name}) is not on PATH (Debian/Ubuntu: apt-get install bubblewrap)` }
  let version: string
  try {
    version = execFileSync(path, ['--version'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 10_000,
    })
      .trim()
      .replace(/^bubblewrap\s+/i, '')
  } catch (error) {
    return { ok: false, missing: `${path} --version failed (${firstLine(error)})` }
  }
  const truePath = whichSync('true', '/usr/bin:/bin') ?? '/bin/true'
  const run = spawnSync(
    path,
    [
      '--ro-bind',
      '/',
      '/',
      '--dev',
      '/dev',
      '--proc',
      '/proc',
      '--tmpfs',
      '/tmp',
      '--unshare-pid',
      '--unshare-ipc',
      '--die-with-parent',
      '--new-session',
      '--cap-drop',
      'ALL',
      '--',
      truePath,
    ],
    { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'], timeout: 10_000, env: {} },
  )
  if (run.error || run.status !== 0) {
    const why = run.error ? run.error.message : (run.stderr.trim().split('\n')[0] ?? `exit ${run.status}`)
    return {
      ok: false,
      missing: `bubblewrap ${version} cannot start a sandbox here (${why}; user namespaces may be disabled)`,
    }
  }
  return { ok: true, path, version }
}

function firstLine(error: unknown): string {
  const e = error as { stderr?: string; message?: string }
  return (e.stderr?.trim() || e.message || String(error)).split('\n')[0]!
}
