import { lstatSync, readdirSync, type Stats, statSync } from 'node:fs'
import { join } from 'node:path'
import { InputError } from '../../core/errors.js'
import { isDeniedEntry } from '../node-modules.js'
import { isWithin } from '../sandbox/runtime.js'
import { safeLstat, safeReaddir, safeRealpath } from '../fs-probe.js'

/** At most this many entries are looked at per check (a folder bigger than this is refused, not half checked). */
const MAX_ENTRIES = 200_000

export interface LinkCheck {
  /** Folders the agent can read whose every entry is checked (its own folder; `node_modules` inside are skipped). */
  scan: string[]
  /** Paths in `scan` not walked (hidden from the agent anyway). */
  skip?: readonly string[]
  /** node_modules folders whose package entries (top level, scopes, `.pnpm`) are checked for links. */
  moduleFolders: string[]
  /** The run's data files (and folders of them): a file in `scan` that is one of them under another name is refused. */
  protectedPaths: string[]
  /** What to call the agent in the error. */
  label: string
}

/** What a walk of the agent's folders found: its symbolic links (checked once the readable roots are known) and key files. */
export interface FolderScan {
  links: string[]
  /** `.env` and `.env.*` files: keys the agent must not read (hidden at both levels). */
  keyFiles: string[]
  label: string
}

/** A file that holds keys: `.env`, `.env.local`, `.env.production`… */
export const isKeyFileName = (name: string): boolean => name === '.env' || name.startsWith('.env.')

const refusal = (label: string, what: string) => new InputError(`refusing to start agent ${label}: ${what}; remove it, or move the agent to a folder without it`)

/**
 * Walks the agent's readable folders: refuses a hard link to one of the run's data files (the error names the link
 * and the file), and collects the symbolic links (for `refuseLinksOutside`) and the key files to hide.
 */
export function scanAgentFolders(check: LinkCheck): FolderScan {
  const protectedInodes = inodesOf(check.protectedPaths)
  const links: string[] = []
  const keyFiles: string[] = []
  let seen = 0
  const inspect = (path: string, st: Stats) => {
    if (st.isSymbolicLink()) {
      links.push(path)
      return
    }
    if (st.isFile() && st.nlink > 1 && protectedInodes.size) {
      const data = protectedInodes.get(`${st.dev}:${st.ino}`)
      if (data !== undefined) throw refusal(check.label, `${path} is a hard link to the run's data file ${data}`)
    }
  }
  const walk = (dir: string) => {
    let entries: string[]
    try {
      entries = readdirSync(dir)
    } catch {
      return
    }
    for (const entry of entries) {
      if (++seen > MAX_ENTRIES) throw refusal(check.label, `its folder holds more than ${MAX_ENTRIES} entries to check for links`)
      const path = join(dir, entry)
      let st: Stats
      try {
        st = lstatSync(path)
      } catch {
        continue
      }
      if (check.skip?.includes(path)) continue
      if (isKeyFileName(entry) && !st.isDirectory()) keyFiles.push(path)
      inspect(path, st)
      if (st.isDirectory() && entry !== 'node_modules') walk(path)
    }
  }
  for (const dir of check.scan) walk(dir)
  // This package's own entries are denied (hidden), wherever they lead.
  for (const modules of check.moduleFolders) {
    for (const entry of safeReaddir(modules)) {
      const path = join(modules, entry)
      const st = safeLstat(path)
      if (!st || isDeniedEntry(entry, path)) continue
      if ((entry.startsWith('@') || entry === '.pnpm') && st.isDirectory()) {
        for (const inner of safeReaddir(path)) {
          const p = join(path, inner)
          const s = safeLstat(p)
          if (s && !isDeniedEntry(inner, p)) inspect(p, s)
        }
      } else inspect(path, st)
    }
  }
  return { links, keyFiles, label: check.label }
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
    if (target !== null && !roots.some((r) => isWithin(target, r))) throw refusal(scan.label, `${path} is a symbolic link to ${target}, outside what the agent may read`)
  }
}

/** `dev:ino` → path of every regular file named or inside a named folder (a few levels deep). */
function inodesOf(paths: readonly string[]): Map<string, string> {
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
    if (st.isFile()) out.set(`${st.dev}:${st.ino}`, path)
    else if (st.isDirectory() && depth < 4) for (const entry of safeReaddir(path)) if (entry !== 'node_modules' && entry !== '.git') visit(join(path, entry), depth + 1)
  }
  for (const p of paths) visit(p, 0)
  return out
}
