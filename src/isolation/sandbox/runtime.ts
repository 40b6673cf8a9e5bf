import { execFileSync } from 'node:child_process'
import { closeSync, existsSync, openSync, readdirSync, readSync } from 'node:fs'
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path'
import { InputError } from '../../core/errors.js'
import { whichSync } from './probe.js'
import { isRealDir, safeRealpath } from '../fs-probe.js'
import { isDeniedEntry } from '../node-modules.js'

/** Host folders every sandbox mounts read-only (the system's programs and libraries). */
export const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/nix/store']

/** What of /etc a program needs to start, resolve names and check TLS certificates; nothing else of it. */
export const ETC_ENTRIES = [
  'ld.so.cache',
  'ld.so.conf',
  'ld.so.conf.d',
  'alternatives',
  'localtime',
  'timezone',
  'nsswitch.conf',
  'hosts',
  'host.conf',
  'resolv.conf',
  'gai.conf',
  'services',
  'protocols',
  'ssl',
  'ca-certificates',
  'ca-certificates.conf',
  'pki',
  'crypto-policies',
  'mime.types',
  'passwd',
  'group',
  'os-release',
  'python3',
  'python3.11',
  'pythonstartup',
]

/**
 * Where JavaScript packages are installed for the whole machine inside the system folders: npm's and corepack's
 * global folder (`<prefix>/lib/node_modules` for /usr, /usr/local, the running Node's prefix and npm's configured
 * one), Debian's (`/usr/share/nodejs`, `/usr/lib/nodejs`), yarn's and pnpm's global folders under /usr/local. The
 * sandbox hides each: a global install of this package holds the clean CSVs. These are fixed places, not a walk
 * of /usr (seconds on a cold disk); see docs/isolation.md for what that leaves.
 */
export function systemPackageFolders(env: NodeJS.ProcessEnv = process.env): string[] {
  if (systemPackages && env === process.env) return systemPackages
  const prefixes = [
    '/usr',
    '/usr/local',
    dirname(dirname(process.execPath)),
    env.npm_config_prefix,
    env.NPM_CONFIG_PREFIX,
  ]
  const candidates = [
    ...prefixes.filter((p): p is string => !!p).map((p) => join(p, 'lib', 'node_modules')),
    '/usr/share/nodejs',
    '/usr/lib/nodejs',
    '/usr/share/node_modules',
    '/usr/local/share/.config/yarn',
    '/usr/local/share/pnpm',
  ]
  const found = new Set<string>()
  for (const candidate of candidates) {
    const real = safeRealpath(candidate)
    if (real && isSystemPath(real) && isRealDir(real)) found.add(real)
  }
  const out = [...found]
  if (env === process.env) systemPackages = out
  return out
}

let systemPackages: string[] | undefined

/** The package folder of a file inside a global package folder (`…/node_modules/npm`, `…/@scope/x`), never this package. */
function globalPackageOf(file: string, env: NodeJS.ProcessEnv): string | null {
  for (const dir of systemPackageFolders(env)) {
    if (!isWithin(file, dir) || file === dir) continue
    const parts = relative(dir, file).split(sep)
    const depth = parts[0]!.startsWith('@') ? 2 : 1
    if (parts.length <= depth) return null
    const pkg = join(dir, ...parts.slice(0, depth))
    return isDeniedEntry(parts[depth - 1]!, pkg) ? null : pkg
  }
  return null
}

/** A resolved interpreter: the binary to run and the folders it needs mounted. */
interface Runtime {
  /** The binary to exec inside the sandbox (an absolute host path, mounted at the same place). */
  command: string
  /** Folders (or single files) to mount read-only for it. */
  mounts: string[]
  /** Global packages the program itself lives in (`/usr/bin/npm` → `/usr/lib/node_modules/npm`): shown through the hidden global folders. */
  systemPackages: string[]
}

const within = (path: string, dir: string) => path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep)
const isSystemPath = (path: string) => SYSTEM_DIRS.some((d) => within(path, d))

/**
 * Resolves a command's program for the sandbox: its real binary (through version-manager shims such as pyenv's
 * and `#!` lines) and the install prefix it needs (`…/versions/3.11.7` for `…/versions/3.11.7/bin/python3`, a
 * virtualenv's folder for its `bin/python`). A prefix that would expose the project (`/`, the home folder, a folder
 * above the working directory) is not mounted: only the binary is. Throws an `InputError` when the program is not found.
 */
export function resolveRuntime(program: string, cwd: string, env: NodeJS.ProcessEnv = process.env): Runtime {
  // Asking a version manager (pyenv which) costs a shell script's start: once per program and folder.
  const key = JSON.stringify([program, cwd, env.PATH ?? ''])
  const known = runtimes.get(key)
  if (known && env === process.env) return known
  const runtime = resolveUncached(program, cwd, env)
  if (env === process.env) runtimes.set(key, runtime)
  return runtime
}

const runtimes = new Map<string, Runtime>()

function resolveUncached(program: string, cwd: string, env: NodeJS.ProcessEnv): Runtime {
  const found = program.includes('/') ? whichSync(resolve(cwd, program)) : whichSync(program, env.PATH)
  if (!found)
    throw new InputError(`the sandbox cannot mount the agent's interpreter: "${program}" is not an executable on PATH`)
  const mounts = new Set<string>()
  const systemPackages = new Set<string>()
  let command = shimTarget(found, cwd, env) ?? found
  const add = (file: string, alsoUnresolved?: string) => {
    for (const p of [alsoUnresolved, file]) {
      if (!p) continue
      const real = safeRealpath(p)
      for (const candidate of [p, real])
        if (candidate && !isSystemPath(candidate)) mounts.add(prefixOf(candidate, cwd, env))
      const pkg = real ? globalPackageOf(real, env) : null
      if (pkg) systemPackages.add(pkg)
    }
  }
  add(command, found === command ? undefined : found)
  // A script's interpreter (#!/usr/bin/env python3, #!/opt/x/bin/node): mount it too, a few levels deep.
  let script = safeRealpath(command) ?? command
  for (let depth = 0; depth < 3; depth++) {
    const interpreter = shebangOf(script)
    if (!interpreter) break
    const resolved = interpreter.includes('/') ? whichSync(interpreter) : whichSync(interpreter, env.PATH)
    if (!resolved) break
    const target = shimTarget(resolved, cwd, env) ?? resolved
    add(target)
    script = safeRealpath(target) ?? target
  }
  if (!isAbsolute(command)) command = resolve(cwd, command)
  return { command, mounts: [...mounts], systemPackages: [...systemPackages] }
}

/**
 * The install prefix of an interpreter (`…/versions/3.11.7` for its `bin/python3`, a virtualenv's folder), or the
 * file alone. A prefix is mounted only when it is a runtime's install (a virtualenv's `pyvenv.cfg`, or a language's
 * library folder under `lib/`), never merely the folder above a program's `bin/`: `cmd:/p/bin/agent` mounts
 * `/p/bin/agent`, not `/p`. A prefix that would expose the project (`/`, the home folder, a folder above the
 * working directory) is never mounted either.
 */
function prefixOf(file: string, cwd: string, env: NodeJS.ProcessEnv): string {
  const dir = dirname(file)
  if (!['bin', 'sbin'].includes(basename(dir))) return file
  const prefix = dirname(dir)
  const home = env.HOME ? resolve(env.HOME) : null
  const exposes = prefix === '/' || prefix === home || within(resolve(cwd), prefix) || isSystemPath(prefix)
  return exposes || !isRuntimeInstall(prefix) ? file : prefix
}

/** Folders under an install's `lib/` that make it a language runtime's (Node needs its binary alone). */
const RUNTIME_LIBS = /^(python\d|pypy|ruby|perl|lua)/

function isRuntimeInstall(prefix: string): boolean {
  if (existsSync(join(prefix, 'pyvenv.cfg'))) return true
  try {
    return readdirSync(join(prefix, 'lib')).some((entry) => RUNTIME_LIBS.test(entry))
  } catch {
    return false
  }
}

/** pyenv/rbenv/nodenv/asdf shims: ask the manager which binary the shim runs here. */
function shimTarget(path: string, cwd: string, env: NodeJS.ProcessEnv): string | null {
  if (basename(dirname(path)) !== 'shims') return null
  const root = dirname(dirname(path))
  for (const tool of ['pyenv', 'rbenv', 'nodenv', 'asdf']) {
    const bin =
      [join(root, 'libexec', tool), join(root, 'bin', tool)].map((p) => whichSync(p)).find(Boolean) ??
      (basename(root) === `.${tool}` ? whichSync(tool, env.PATH) : null)
    if (!bin) continue
    try {
      const out = execFileSync(bin, ['which', basename(path)], {
        cwd,
        env,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
        timeout: 10_000,
      }).trim()
      if (out && isAbsolute(out)) return out
    } catch {
      // not this manager's shim
    }
  }
  return null
}

function shebangOf(file: string): string | null {
  let fd: number | null = null
  try {
    fd = openSync(file, 'r')
    const buf = Buffer.alloc(256)
    const n = readSync(fd, buf, 0, 256, 0)
    const head = buf.subarray(0, n).toString('latin1')
    if (!head.startsWith('#!')) return null
    const parts = head.slice(2).split('\n')[0]!.trim().split(/\s+/)
    if (!parts[0]) return null
    // #!/usr/bin/env [-S] python3
    if (basename(parts[0]) === 'env') return parts.slice(1).find((p) => !p.startsWith('-') && !p.includes('=')) ?? null
    return parts[0]
  } catch {
    return null
  } finally {
    if (fd !== null) closeSync(fd)
  }
}

/** Whether `path` lies inside `dir` (or is it). */
export function isWithin(path: string, dir: string): boolean {
  const rel = relative(dir, path)
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))
}
