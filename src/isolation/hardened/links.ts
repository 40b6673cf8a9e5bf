import { type Dirent, readdirSync, type Stats, statSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { InputError } from '../../core/errors.js'
import { isDeniedEntry } from '../node-modules.js'
import { isWithin } from '../sandbox/runtime.js'
import { safeLstat, safeReaddir, safeRealpath } from '../fs-probe.js'

/** At most this many entries are looked at per check (a folder bigger than this is refused, not half checked). */
const MAX_ENTRIES = 1_000_000

interface LinkCheck {
  /** Folders the agent can read, walked at every depth, their `node_modules` included. */
  scan: string[]
  /** Paths not walked (hidden from the agent anyway: the run's data inside its folder, this package's copies). */
  skip?: readonly string[]
  /** Ancestors' `node_modules` folders the agent resolves from, walked at every depth too when links there matter. */
  moduleFolders: string[]
  /** The run's data files (and folders of them): a file in `scan` that is one of them under another name is refused. */
  protectedPaths: string[]
  /** What to call the agent in the error. */
  label: string
  /** Whether symbolic links inside `node_modules` matter (the permission model follows them; the sandbox does not). */
  linksInModules: boolean
}

/** What a walk of the agent's folders found: its symbolic links (checked once the readable roots are known) and key files. */
interface FolderScan {
  links: string[]
  /** `.env` and `.env.*` files: keys the agent must not read (hidden at both levels). */
  keyFiles: string[]
  /** Copies of this package in any `node_modules` at any depth, under any name (hidden at both levels). */
  packageCopies: string[]
  label: string
}

/** A file that holds keys: `.env`, `.env.local`, `.env.production`… */
const isKeyFileName = (name: string): boolean => name === '.env' || name.startsWith('.env.')

const refusal = (label: string, what: string) =>
  new InputError(`refusing to start agent ${label}: ${what}; remove it, or move the agent to a folder without it`)

/**
 * Walks the agent's readable folders at every depth, `node_modules` included: refuses a hard link to one of the
 * run's data files (the error names the link and the file), and collects the symbolic links (for
 * `refuseLinksOutside`), the key files and the copies of this package to hide. Cost: one `readdir` per folder; a file is `lstat`ed only when
 * some data file has another name somewhere (a link count above 1: pnpm's store does that), else no hard link to
 * it can exist.
 */
export function scanAgentFolders(check: LinkCheck): FolderScan {
  const linked = hardLinkedInodes(check.protectedPaths)
  const skip = new Set(check.skip ?? [])
  const links: string[] = []
  const keyFiles: string[] = []
  const packageCopies: string[] = []
  const walked = new Set<string>()
  // Inside node_modules only the package structure is walked (to find copies of this package), unless a link
  // there could matter: a symbolic one under the permission model, a hard one when a data file has another name.
  const wholeModules = check.linksInModules || linked.size > 0
  // Otherwise the module folders' package structure is the layout's (nodeModulesLayout): not walked twice.
  const covered = new Set(wholeModules ? [] : check.moduleFolders)
  let seen = 0
  // Key files are collected outside node_modules only: a package's `.env.example` holds none of the harness's keys.
  const walk = (dir: string, inModules: boolean) => {
    if (walked.has(dir)) return
    walked.add(dir)
    let entries: Dirent[]
    try {
      entries = readdirSync(dir, { withFileTypes: true })
    } catch {
      return
    }
    for (const entry of entries) {
      if (++seen > MAX_ENTRIES)
        throw refusal(check.label, `its folders hold more than ${MAX_ENTRIES} entries to check for links`)
      const path = join(dir, entry.name)
      if (skip.has(path)) continue
      if (
        inModules &&
        (entry.isDirectory() || entry.isSymbolicLink()) &&
        isPackageSlot(dir) &&
        isDeniedEntry(entry.name, path)
      ) {
        packageCopies.push(path)
        continue
      }
      if (entry.isDirectory()) {
        if (covered.has(path)) continue
        if (wholeModules || !inModules || entry.name === 'node_modules' || isPackageSlot(dir))
          walk(path, inModules || entry.name === 'node_modules')
        continue
      }
      if (!inModules && isKeyFileName(entry.name)) keyFiles.push(path)
      if (entry.isSymbolicLink()) links.push(path)
      else if (entry.isFile() && linked.size) {
        const st = safeLstat(path)
        const data = st && st.nlink > 1 ? linked.get(`${st.dev}:${st.ino}`) : undefined
        if (data !== undefined) throw refusal(check.label, `${path} is a hard link to the run's data file ${data}`)
      }
    }
  }
  for (const dir of check.scan) walk(dir, false)
  if (wholeModules) for (const dir of check.moduleFolders) walk(dir, true)
  return { links, keyFiles, packageCopies, label: check.label }
}

/** A folder whose entries are packages: `node_modules`, a scope in one (`@types`), pnpm's `.pnpm`. */
function isPackageSlot(dir: string): boolean {
  const name = basename(dir)
  return (
    name === 'node_modules' || name === '.pnpm' || (name.startsWith('@') && basename(dirname(dir)) === 'node_modules')
  )
}

/**
 * Under the permission model a symbolic link is followed wherever it leads: refuses one that resolves outside
 * what the agent may read (`root -> /`, `abs.csv -> /data/clean.csv`, `up -> ../../..`), naming the link and where.
 * (Under the OS sandbox a link leads only to what is mounted.)
 */
export function refuseLinksOutside(scan: FolderScan, readable: readonly string[]): void {
  const roots = readable.map((r) => safeRealpath(r) ?? r)
  for (const path of scan.links) {
    const target = safeRealpath(path)
    if (target !== null && !roots.some((r) => isWithin(target, r)))
      throw refusal(scan.label, `${path} is a symbolic link to ${target}, outside what the agent may read`)
  }
}

/** `dev:ino` → path of every regular file named or inside a named folder (a few levels deep) that has another name. */
function hardLinkedInodes(paths: readonly string[]): Map<string, string> {
  const out = new Map<string, string>()
  let budget = 50_000
  const visit = (path: string, depth: number) => {
    if (budget-- <= 0) return
    let st: Stats
    try {
      st = statSync(path)
    } catch {
      return
    }
    if (st.isFile()) {
      if (st.nlink > 1) out.set(`${st.dev}:${st.ino}`, path)
    } else if (st.isDirectory() && depth < 4)
      for (const entry of safeReaddir(path))
        if (entry !== 'node_modules' && entry !== '.git') visit(join(path, entry), depth + 1)
  }
  for (const p of paths) visit(p, 0)
  return out
}
