import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { InputError } from '../core/errors.js'
import { canonicalJson, sha256Hex } from '../core/hash.js'
import { writeFileAtomic } from '../files/write-atomic.js'
import { redactSecrets } from './redact.js'

/**
 * What identifies one recorded answer: the upstream's identity (never its port on loopback), the call (with the
 * headers forwarded with it, never the key), the trial and seed.
 */
export interface CassetteKeyParts {
  upstream: string
  method: string
  path: string
  body: unknown
  trial: number
  seed: number
  /** Forwarded headers that differ from the gateway's defaults (`OutgoingHeaders.keyed`); absent when none do. */
  headers?: Record<string, string>
}

/** One recorded answer: JSON as received, or a stream as its events, in order. */
export interface CassetteEntry {
  version: 1
  kind: 'gateway'
  key: string
  request: CassetteKeyParts
  response: { status: number; contentType: string; json?: unknown; events?: string[] }
}

export function cassetteKey(parts: CassetteKeyParts): string {
  return sha256Hex(canonicalJson({ gateway: 1, ...parts }))
}

/** The gateway's record/replay store: one JSON file per answer in the cache folder, beside the built-in agents' entries. */
export class CassetteStore {
  constructor(
    readonly dir: string,
    private readonly secrets: readonly string[],
  ) {}

  fileOf(key: string): string {
    return join(this.dir, `${key}.json`)
  }

  /**
   * Read synchronously: an entry is a few KB, and a read on the calling thread costs a fraction of a trip through
   * libuv's thread pool, which is most of a replayed call's time (BENCHMARKS.md, model gateway).
   */
  async read(key: string): Promise<CassetteEntry | undefined> {
    const file = this.fileOf(key)
    let text: string
    try {
      text = readFileSync(file, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
      throw new InputError(`cache entry ${file} cannot be read: ${(error as Error).message}`)
    }
    let entry: Partial<CassetteEntry>
    try {
      entry = JSON.parse(text) as Partial<CassetteEntry>
    } catch (error) {
      throw new InputError(
        `cache entry ${file} is corrupt (not valid JSON: ${(error as Error).message}); delete it or record again`,
      )
    }
    const problem =
      entry.version !== 1 || entry.kind !== 'gateway'
        ? 'not a gateway entry of version 1'
        : entry.key !== key
          ? 'its key does not match its file name'
          : !entry.response ||
              typeof entry.response.status !== 'number' ||
              (entry.response.json === undefined && !Array.isArray(entry.response.events))
            ? 'missing response'
            : null
    if (problem) throw new InputError(`cache entry ${file} is corrupt (${problem}); delete it or record again`)
    return entry as CassetteEntry
  }

  async write(entry: CassetteEntry): Promise<void> {
    await writeFileAtomic(this.fileOf(entry.key), redactSecrets(`${JSON.stringify(entry, null, 2)}\n`, this.secrets))
  }
}
