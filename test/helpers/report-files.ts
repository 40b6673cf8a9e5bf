import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'

/** The objects of a JSON-lines file (runs, transcripts), blank lines skipped. */
export const jsonLines = <T>(path: string): T[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T)

/** Every file under `dir`, at any depth (to search a report folder or a cache for a key). */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : [path]
  })
}
