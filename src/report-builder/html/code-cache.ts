import { readFileSync, statSync } from 'node:fs'
import { basename, join, sep } from 'node:path'
import { Script } from 'node:vm'
import { writeFileAtomicSync } from '../../files/write-atomic.js'

/**
 * A CommonJS-style script (`exports`, `module`, `require`) compiled with V8's code cache: the bytecode of the
 * functions it ran, kept from an earlier process. Loading and first use of a large library then skip most of the
 * parsing and compiling (Vega's single-file build: about 75 → 35 ms to load, 118 → 60 ms for the first chart).
 * V8 checks the cache against its own version, its flags and the source, and refuses one that does not fit:
 * the script then compiles as without a cache, and `save` writes a fresh one.
 */
export interface CachedScript {
  /** The script's body as a function of `(exports, module, require)`. */
  run: (exports: object, module: { exports: object }, require: (id: string) => unknown) => void
  /** True when a cache was read and V8 took it. */
  readonly fromCache: boolean
  /**
   * Writes the cache for the next process, with every function compiled so far (call it after the script was
   * used), when none was taken now. Written through a temp file and a rename; a folder that cannot be written
   * is left alone (the cache only saves time).
   */
  save(): void
}

/** Compiles `path` with the cache kept in `cacheDir` (none when null). */
export function compileCached(path: string, cacheDir: string | null): CachedScript {
  const source = readFileSync(path, 'utf8')
  const cacheFile = cacheDir ? join(cacheDir, cacheName(path, source)) : null
  const cachedData = cacheFile ? readIfPresent(cacheFile) : undefined
  // One line with the source's first, so positions in stack traces stay the file's own (but for line 1's columns).
  const script = new Script(`(function (exports, module, require) {${source}\n})`, {
    filename: path,
    ...(cachedData ? { cachedData } : {}),
  })
  const fromCache = cachedData !== undefined && !script.cachedDataRejected
  let saved = fromCache
  return {
    run: script.runInThisContext(),
    fromCache,
    save() {
      if (saved || !cacheFile) return
      saved = true
      writeQuietly(cacheFile, script.createCachedData())
    },
  }
}

/**
 * The cache folder of the project that installed `packagePath`: `node_modules/.cache/dataforge-evals` in its
 * outermost `node_modules` (a pnpm store's path included), where tools keep their caches (Vite keeps
 * `node_modules/.vite`). Whoever can write there can change the packages themselves, so a cache there trusts
 * nobody new. Null when the package is not under a `node_modules` folder.
 */
export function packageCacheDir(packagePath: string): string | null {
  const parts = packagePath.split(sep)
  const at = parts.indexOf('node_modules')
  return at < 0 ? null : join(parts.slice(0, at + 1).join(sep) || sep, '.cache', 'dataforge-evals')
}

/** The file's name, size and modification time and V8's version: another build or another V8 gets another file. */
function cacheName(path: string, source: string): string {
  const { mtimeMs } = statSync(path)
  return `${basename(path)}.${source.length}.${Math.trunc(mtimeMs)}.v8-${process.versions.v8}-${process.arch}.cache`
}

function readIfPresent(file: string): Buffer | undefined {
  try {
    return readFileSync(file)
  } catch {
    return undefined
  }
}

function writeQuietly(file: string, data: Buffer): void {
  try {
    writeFileAtomicSync(file, data)
  } catch {}
}
