import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

let cached: string | undefined

/** This package's version, from its package.json (two levels up from src/report or dist/report). */
export function toolVersion(): string {
  if (cached) return cached
  const here = dirname(fileURLToPath(import.meta.url))
  const pkg = JSON.parse(readFileSync(join(here, '..', '..', 'package.json'), 'utf8')) as { version: string }
  cached = pkg.version
  return cached
}
