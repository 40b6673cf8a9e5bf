import { readFileSync, realpathSync, statSync } from 'node:fs'
import { sha256Hex } from '../core/hash.js'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { isRealDir as isDir, safeReaddir } from './fs-probe.js'

/** Packages an agent may not read even where its node_modules are readable: ours ships the canonical clean CSVs. */
const DENIED_PACKAGES = new Set(['dataforge-evals'])

/** This package's own root folder (the nearest package.json named dataforge-evals above this file), through links. */
let ownRootCache: string | null | undefined
export function ownPackageRoot(): string | null {
  if (ownRootCache !== undefined) return ownRootCache
  ownRootCache = null
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    try {
      const name = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown }).name
      if (typeof name === 'string' && DENIED_PACKAGES.has(name)) {
        ownRootCache = realpathSync(dir)
        break
      }
    } catch {
      // no package.json here
    }
    if (dirname(dir) === dir) break
  }
  return ownRootCache
}

/**
 * A package entry of a `node_modules` folder that is this package: by folder name in any layout, by where it
 * resolves, or by content under any other name (an npm alias `"foo": "npm:dataforge-evals@…"` installs a real copy
 * at `node_modules/foo`): its package.json names this package, or it holds our label files (same bytes).
 */
export function isDeniedEntry(entry: string, path: string): boolean {
  if (DENIED_PACKAGES.has(entry)) return true
  for (const name of DENIED_PACKAGES) if (entry.startsWith(`${name}@`)) return true // pnpm: .pnpm/dataforge-evals@1.2.3…
  const own = ownPackageRoot()
  try {
    if (own !== null && realpathSync(path) === own) return true
  } catch {
    return false
  }
  return isCopyOfThisPackage(path)
}

function isCopyOfThisPackage(path: string): boolean {
  try {
    const name = (JSON.parse(readFileSync(join(path, 'package.json'), 'utf8')) as { name?: unknown }).name
    if (typeof name === 'string' && DENIED_PACKAGES.has(name)) return true
  } catch {
    // no package.json, or not JSON: look at what it holds
  }
  if (!isDir(join(path, 'datasets'))) return false
  for (const label of ownLabelFiles()) {
    const candidate = join(path, label.relative)
    try {
      if (statSync(candidate).size === label.bytes && sha256Hex(readFileSync(candidate)) === label.sha256) return true
    } catch {
      // not there
    }
  }
  return false
}

type LabelFile = { relative: string; bytes: number; sha256: string }
let ownLabels: LabelFile[] | undefined

/** This package's bundled clean CSVs (`datasets/<id>/clean.csv`): what a copy under another name would hold. */
function ownLabelFiles(): LabelFile[] {
  if (ownLabels) return ownLabels
  ownLabels = []
  const own = ownPackageRoot()
  if (own === null) return ownLabels
  for (const id of safeReaddir(join(own, 'datasets'))) {
    const relative = join('datasets', id, 'clean.csv')
    try {
      const bytes = readFileSync(join(own, relative))
      ownLabels.push({ relative, bytes: bytes.length, sha256: sha256Hex(bytes) })
    } catch {
      // not a dataset with a clean table
    }
  }
  return ownLabels
}

/**
 * What an agent may read of the `node_modules` folders it resolves from (every ancestor's), this package denied in
 * every layout: hoisted (`node_modules/dataforge-evals`), scoped, nested (`node_modules/x/node_modules/dataforge-evals`),
 * pnpm (`node_modules/.pnpm/dataforge-evals@…/…` and the links inside other packages' `.pnpm/*\/node_modules`).
 *
 * - `folders`: the whole `node_modules` folders (the OS sandbox mounts these, then hides `denied`);
 * - `allowed`: the finest folders that hold no denied entry below them (the permission model allows each: it has no deny);
 * - `denied`: every denied entry's path and, when it is a link, where it resolves.
 */
export interface ModuleLayout {
  folders: string[]
  allowed: string[]
  denied: string[]
}

export function nodeModulesLayout(agentDir: string): ModuleLayout {
  const folders: string[] = []
  const allowed: string[] = []
  const denied = new Set<string>()
  for (let dir = resolve(agentDir); ; dir = dirname(dir)) {
    const modules = join(dir, 'node_modules')
    if (isDir(modules)) {
      folders.push(modules)
      walkModules(modules, allowed, denied, 0)
    }
    if (dirname(dir) === dir) break
  }
  return { folders, allowed, denied: [...denied] }
}

const MAX_DEPTH = 12

/** Splits one `node_modules` folder into allowed package folders, descending only where something is denied. */
function walkModules(modules: string, allowed: string[], denied: Set<string>, depth: number): void {
  for (const entry of safeReaddir(modules)) {
    if (entry === '.bin' || entry === '.cache') continue
    const path = join(modules, entry)
    if (isDeniedEntry(entry, path)) {
      denied.add(path)
      try {
        denied.add(realpathSync(path))
      } catch {
        // a dangling link hides nothing
      }
      continue
    }
    if (entry.startsWith('@') || entry === '.pnpm') {
      if (isDir(path)) walkContainer(path, allowed, denied, depth + 1, entry === '.pnpm')
      continue
    }
    allowPackage(path, allowed, denied, depth + 1)
  }
}

/** A scope folder (`@types`) or `.pnpm`: its entries are packages (or, in `.pnpm`, `name@version` folders). */
function walkContainer(dir: string, allowed: string[], denied: Set<string>, depth: number, pnpm: boolean): void {
  for (const entry of safeReaddir(dir)) {
    const path = join(dir, entry)
    if (
      isDeniedEntry(entry, path) ||
      (pnpm && entry.startsWith('@') && [...DENIED_PACKAGES].some((n) => entry.startsWith(`${n}@`)))
    ) {
      denied.add(path)
      continue
    }
    if (pnpm && entry === 'node_modules') {
      // .pnpm/node_modules: pnpm's hoisted links to every package, this one included
      if (depth < MAX_DEPTH) walkModules(path, allowed, denied, depth + 1)
      continue
    }
    allowPackage(path, allowed, denied, depth + 1)
  }
}

/** A package folder: allowed whole unless a `node_modules` inside it holds a denied entry (then split). */
function allowPackage(path: string, allowed: string[], denied: Set<string>, depth: number): void {
  const nested = join(path, 'node_modules')
  if (depth >= MAX_DEPTH || !isDir(nested) || !holdsDenied(nested, depth)) {
    allowed.push(path)
    return
  }
  for (const entry of safeReaddir(path)) {
    if (entry === 'node_modules') walkModules(nested, allowed, denied, depth + 1)
    else allowed.push(join(path, entry))
  }
}

/** Whether a `node_modules` folder holds this package at any depth of nested `node_modules`. */
function holdsDenied(modules: string, depth: number): boolean {
  if (depth >= MAX_DEPTH) return false
  for (const entry of safeReaddir(modules)) {
    const path = join(modules, entry)
    if (isDeniedEntry(entry, path)) return true
    if (entry.startsWith('@') || entry === '.pnpm') {
      for (const inner of safeReaddir(path)) {
        const p = join(path, inner)
        if (
          isDeniedEntry(inner, p) ||
          (isDir(join(p, 'node_modules')) && holdsDenied(join(p, 'node_modules'), depth + 1))
        )
          return true
      }
      continue
    }
    const nested = join(path, 'node_modules')
    if (isDir(nested) && holdsDenied(nested, depth + 1)) return true
  }
  return false
}
