import { existsSync, readdirSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'

/** The permission-model flag this Node understands: stable `--permission` (Node ≥ 22.13/23.5) or the experimental one. */
export function permissionFlag(): '--permission' | '--experimental-permission' {
  return process.allowedNodeEnvironmentFlags.has('--permission') ? '--permission' : '--experimental-permission'
}

/** Packages an agent may not read even where its node_modules are readable: ours ships the canonical clean CSVs. */
const DENIED_PACKAGES = new Set(['dataforge-evals'])

/**
 * What an isolated module agent may read: its own folder, the node_modules folders it resolves from (every
 * ancestor's), minus this package, plus `extra` (jiti for TypeScript agents). Everything else (clean CSVs,
 * reports, baselines, the harness) is denied by the permission model.
 */
export function readableRoots(agentDir: string, extra: string[] = []): string[] {
  const roots = new Set<string>([withSlash(agentDir), ...extra])
  for (let dir = resolve(agentDir); ; dir = dirname(dir)) {
    const modules = join(dir, 'node_modules')
    if (existsSync(modules)) {
      for (const entry of readdirSync(modules)) {
        if (DENIED_PACKAGES.has(entry) || entry === '.bin' || entry === '.cache') continue
        roots.add(withSlash(join(modules, entry)))
      }
    }
    if (dirname(dir) === dir) break
  }
  return [...roots]
}

/** One `--allow-fs-read` per path: Node 20.20 rejects comma lists. */
export function permissionArgs(readable: string[], opts: { allowChildProcess?: boolean; allowWorker?: boolean; allowAddons?: boolean }): string[] {
  return [
    permissionFlag(),
    ...readable.map((p) => `--allow-fs-read=${p}`),
    ...(opts.allowChildProcess ? ['--allow-child-process'] : []),
    ...(opts.allowWorker ? ['--allow-worker'] : []),
    ...(opts.allowAddons ? [] : ['--no-addons']),
    '--disable-warning=ExperimentalWarning',
  ]
}

function withSlash(path: string): string {
  return path.endsWith('/') ? path : `${path}/`
}
