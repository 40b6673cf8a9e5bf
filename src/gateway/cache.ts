import { resolve } from 'node:path'
import { InputError } from '../core/errors.js'

export type CacheMode = 'off' | 'record' | 'replay' | 'auto'
export const CACHE_MODES: readonly CacheMode[] = ['off', 'record', 'replay', 'auto']
export const DEFAULT_CACHE_DIR = '.dataforge-cache'

export interface CacheOptions {
  mode: CacheMode
  dir: string
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
  if (dirRaw.trim() === '')
    throw new InputError(`${flags.cacheDir !== undefined ? '--cache-dir' : 'DATAFORGE_CACHE_DIR'} is empty`)
  return { mode: mode as CacheMode, dir: cwd ? resolve(cwd, dirRaw) : dirRaw }
}
