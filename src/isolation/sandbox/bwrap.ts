import { existsSync, lstatSync, readlinkSync } from 'node:fs'
import { join } from 'node:path'
import { ETC_ENTRIES, isWithin, SYSTEM_DIRS, systemPackageFolders } from './runtime.js'
import { isRealDir, isRealFile } from '../fs-probe.js'

/** What one sandboxed agent process sees: everything not named here does not exist inside. */
interface SandboxPlan {
  /** The bwrap binary. */
  bwrap: string
  /** Host paths mounted read-only at the same place (the runtime, the agent's folder, its node_modules). */
  readOnly: string[]
  /** Paths inside those mounts hidden under an empty folder (this package, in every node_modules layout). */
  hide: string[]
  /** Mounted read-only after hiding (the TypeScript loader, which may live inside this package's own node_modules). */
  readOnlyAfter: string[]
  /** Global packages shown through the hidden global package folders (the program's own, e.g. npm). */
  systemPackages?: string[]
  /** Size of the private /tmp in bytes. */
  tmpBytes?: number
  /** Working directory inside. */
  cwd: string
  /** `none`: a network namespace of its own (loopback only, nothing outside, the host's 127.0.0.1 included). */
  network: 'open' | 'none'
}

/**
 * The bwrap command line: a fresh mount namespace holding the system's programs and libraries, the few /etc files
 * a program needs, /dev, a /proc of its own PID namespace, a private /tmp, and the plan's read-only mounts; no
 * capabilities, its own session (no terminal injection), gone when the harness goes (`--die-with-parent`).
 */
export function bwrapArgs(plan: SandboxPlan, command: string, args: readonly string[]): string[] {
  const out: string[] = []
  for (const dir of SYSTEM_DIRS) {
    if (!existsSync(dir)) continue
    const st = lstatSync(dir)
    if (st.isSymbolicLink()) out.push('--symlink', readlinkSync(dir), dir)
    else out.push('--ro-bind', dir, dir)
  }
  // Global JavaScript packages (npm -g, Debian's) inside /usr: an empty folder each.
  for (const dir of systemPackageFolders()) {
    out.push('--tmpfs', dir)
    for (const pkg of plan.systemPackages ?? []) if (isWithin(pkg, dir)) out.push('--ro-bind', pkg, pkg)
    out.push('--remount-ro', dir)
  }
  for (const entry of ETC_ENTRIES) {
    const path = join('/etc', entry)
    if (existsSync(path)) out.push('--ro-bind', path, path)
  }
  out.push(
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    ...(plan.tmpBytes ? ['--size', String(plan.tmpBytes)] : []),
    '--tmpfs',
    '/tmp',
  )
  for (const path of outermost(plan.readOnly)) out.push('--ro-bind', path, path)
  // A link (pnpm's node_modules/dataforge-evals) is hidden where it leads: the plan lists both.
  // Outermost first and only: a hidden folder's insides are gone already. What must show through one (the
  // TypeScript loader inside this package's own node_modules) is mounted before it turns read-only.
  const after = outermost(plan.readOnlyAfter)
  const placed = new Set<string>()
  const mounted = outermost(plan.readOnly)
  for (const path of outermost(plan.hide, false).filter((h) => mounted.some((m) => isWithin(h, m)))) {
    if (isRealDir(path)) {
      out.push('--tmpfs', path)
      for (const a of after.filter((x) => isWithin(x, path) && x !== path)) {
        out.push('--ro-bind', a, a)
        placed.add(a)
      }
      out.push('--remount-ro', path)
    } else if (isRealFile(path)) out.push('--ro-bind', '/dev/null', path)
  }
  for (const path of after) if (!placed.has(path)) out.push('--ro-bind', path, path)
  out.push(
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    ...(plan.network === 'none' ? ['--unshare-net'] : []),
    '--hostname',
    'sandbox',
    '--die-with-parent',
    '--new-session',
    '--cap-drop',
    'ALL',
    '--chdir',
    plan.cwd,
    '--',
    command,
    ...args,
  )
  return out
}

/** Paths without those inside another (mounting a folder mounts what is in it), system folders left out, parents first. */
function outermost(paths: readonly string[], skipSystem = true): string[] {
  const unique = [...new Set(paths)].filter(
    (p) => existsSync(p) && !(skipSystem && SYSTEM_DIRS.some((d) => isWithin(p, d))),
  )
  unique.sort((a, b) => a.length - b.length || (a < b ? -1 : 1))
  const kept: string[] = []
  for (const p of unique) if (!kept.some((k) => isWithin(p, k))) kept.push(p)
  return kept
}
