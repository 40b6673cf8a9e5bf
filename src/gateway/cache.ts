import { readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { InputError } from '../core/errors.js'
import { canonicalJson, sha256Hex } from '../core/hash.js'
import { writeFileAtomic } from '../files/write-atomic.js'
import { redactSecrets } from './redact.js'

export type CacheMode = 'off' | 'record' | 'replay' | 'auto'
export const CACHE_MODES: readonly CacheMode[] = ['off', 'record', 'replay', 'auto']
export const DEFAULT_CACHE_DIR = '.dataforge-cache'

export interface CacheOptions {
  mode: CacheMode
  dir: string
}

/** What identifies one answer. `trial` and `seed` keep the trials of a case independent samples. */
export interface CacheKeyParts {
  baseUrl: string
  model: string
  body: unknown
  trial: number
  seed: number
}

export interface CacheEntry {
  version: 1
  key: string
  request: CacheKeyParts
  /** The provider's chat-completion JSON, as received. */
  response: Record<string, unknown>
}

export function cacheKey(parts: CacheKeyParts): string {
  return sha256Hex(canonicalJson(parts))
}

/**
 * Cache mode and folder: flags (`--cache`, `--cache-dir`) win over `DATAFORGE_CACHE` / `DATAFORGE_CACHE_DIR`.
 * Defaults: mode `off`, folder `.dataforge-cache` (resolved against `cwd` when given).
 */
export function resolveCacheOptions(
  env: Record<string, string | undefined>,
  flags: { cache?: string; cacheDir?: string } = {},
  cwd?: string,
): CacheOptions {
  const fromFlag = flags.cache !== undefined
  const raw = (fromFlag ? flags.cache : env['DATAFORGE_CACHE']) ?? 'off'
  const mode = raw.trim().toLowerCase()
  if (!(CACHE_MODES as readonly string[]).includes(mode)) {
    const where = fromFlag ? '--cache' : 'DATAFORGE_CACHE'
    throw new InputError(`${where}: "${raw}" is not a cache mode; use one of ${CACHE_MODES.join(', ')}`)
  }
  const dirRaw = flags.cacheDir ?? env['DATAFORGE_CACHE_DIR'] ?? DEFAULT_CACHE_DIR
  if (dirRaw.trim() === '') throw new InputError(`${flags.cacheDir !== undefined ? '--cache-dir' : 'DATAFORGE_CACHE_DIR'} is empty`)
  return { mode: mode as CacheMode, dir: cwd ? resolve(cwd, dirRaw) : dirRaw }
}

/**
 * One JSON file per entry, named by its key, so cassettes can be committed and reviewed.
 * Secrets handed to the constructor are redacted from anything written.
 */
export class ResponseCache {
  constructor(
    readonly dir: string,
    private readonly secrets: readonly string[] = [],
  ) {}

  fileOf(key: string): string {
    return join(this.dir, `${key}.json`)
  }

  /** The entry for `key`, undefined when absent; an InputError naming the file when it is corrupt. */
  async read(key: string): Promise<CacheEntry | undefined> {
    const file = this.fileOf(key)
    let text: string
    try {
      text = await readFile(file, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
      throw new InputError(`cache entry ${file} cannot be read: ${(error as Error).message}`)
    }
    let entry: unknown
    try {
      entry = JSON.parse(text)
    } catch (error) {
      throw new InputError(`cache entry ${file} is corrupt (not valid JSON: ${(error as Error).message}); delete it or record again`)
    }
    const problem = entryProblem(entry, key)
    if (problem) throw new InputError(`cache entry ${file} is corrupt (${problem}); delete it or record again`)
    return entry as CacheEntry
  }

  /** Writes atomically (temp file, then rename) so a crash never leaves half an entry. */
  async write(entry: CacheEntry): Promise<void> {
    const text = redactSecrets(`${JSON.stringify(entry, null, 2)}\n`, this.secrets)
    await writeFileAtomic(this.fileOf(entry.key), text)
  }
}

function entryProblem(entry: unknown, key: string): string | undefined {
  if (typeof entry !== 'object' || entry === null) return 'not a JSON object'
  const e = entry as Partial<CacheEntry>
  if (e.version !== 1) return `unknown version ${JSON.stringify(e.version)}`
  if (e.key !== key) return 'its key does not match its file name'
  if (typeof e.request !== 'object' || e.request === null) return 'missing request'
  if (typeof e.response !== 'object' || e.response === null) return 'missing response'
  if (!Array.isArray((e.response as Record<string, unknown>)['choices'])) return 'response has no choices'
  return undefined
}
