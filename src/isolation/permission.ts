import { join } from 'node:path'
import { type ModuleLayout, nodeModulesLayout } from './node-modules.js'
import { isDirOrLink as isDir, safeReaddir } from './fs-probe.js'

/** The permission-model flag this Node understands: stable `--permission` (Node ≥ 22.13/23.5) or the experimental one. */
function permissionFlag(): '--permission' | '--experimental-permission' {
  return process.allowedNodeEnvironmentFlags.has('--permission') ? '--permission' : '--experimental-permission'
}

/**
 * What an isolated module agent may read under the permission model: its own folder, the node_modules folders it
 * resolves from (every ancestor's) minus this package in every layout (the model has no deny: the allowed folders
 * are the finest ones holding nothing of it), plus `extra` (jiti for TypeScript agents). Everything else (clean
 * CSVs, reports, baselines, the harness) is denied.
 */
export function readableRoots(
  agentDir: string,
  extra: string[] = [],
  layout: ModuleLayout = nodeModulesLayout(agentDir),
  hidden: readonly string[] = [],
): string[] {
  const own =
    layout.folders.includes(join(agentDir, 'node_modules')) || hidden.length
      ? allowAround(agentDir, hidden)
      : [agentDir]
  return [...new Set<string>([...own, ...extra, ...layout.allowed].map((p) => (isDir(p) ? withSlash(p) : p)))]
}

/** A folder's entries, descending around the hidden paths (and its node_modules, which the layout splits). */
function allowAround(dir: string, hidden: readonly string[], top = true): string[] {
  const out: string[] = []
  for (const entry of safeReaddir(dir)) {
    const path = join(dir, entry)
    if ((top && entry === 'node_modules') || hidden.includes(path)) continue
    if (hidden.some((h) => h.startsWith(`${path}/`))) {
      if (isDir(path)) out.push(...allowAround(path, hidden, false))
      continue
    }
    out.push(path)
  }
  return out
}

/** One `--allow-fs-read` per path: Node 20.20 rejects comma lists. */
export function permissionArgs(
  readable: string[],
  opts: { allowChildProcess?: boolean; allowWorker?: boolean; allowAddons?: boolean },
): string[] {
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
