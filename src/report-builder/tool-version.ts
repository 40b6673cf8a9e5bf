import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

let cached: string | undefined

/** This package's version, from its package.json: the first one with a name above this module (src/… or dist/…). */
export function toolVersion(): string {
  if (cached) return cached
  let dir = dirname(fileURLToPath(import.meta.url))
  for (;;) {
    const path = join(dir, 'package.json')
    if (existsSync(path)) {
      const pkg = JSON.parse(readFileSync(path, 'utf8')) as { name?: string; version?: string }
      if (pkg.name && pkg.version) {
        cached = pkg.version
        return cached
      }
    }
    const parent = dirname(dir)
    if (parent === dir) throw new Error('dataforge-evals: cannot find its own package.json')
    dir = parent
  }
}
