import { readFile } from 'node:fs/promises'
import { InputError } from '../core/errors.js'
import { CANONICAL_DATASETS, type CanonicalFile, DEFAULT_DATASETS_BASE_URL, isCanonicalName } from './canonical.js'
import { sha256Hex } from '../core/hash.js'
import { writeFileAtomic } from '../files/write-atomic.js'
import { rahaPaths } from './raha.js'

/** A download that failed or did not match its pinned hash; an InputError so the CLI prints one line. */
export class DatasetDownloadError extends InputError {
  override name = 'DatasetDownloadError'
}

export interface PullOptions {
  dataDir: string
  /** Root holding `<name>/dirty.csv`; default DATAFORGE_DATASETS_BASE_URL, else the pinned upstream revision. */
  baseUrl?: string
  fetchImpl?: typeof fetch
  log?: (line: string) => void
  env?: Record<string, string | undefined>
  /** Per-file download limit; default 120 s. */
  timeoutMs?: number
}

const OFFLINE_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
])

/** Strips user:password@ from URLs before they reach a message or a log line. */
function redactUrl(url: string): string {
  try {
    const u = new URL(url)
    if (!u.username && !u.password) return url
    u.username = ''
    u.password = ''
    return u.toString()
  } catch {
    return url
  }
}

function errorCode(error: unknown): string | undefined {
  let e: unknown = error
  for (let depth = 0; depth < 4 && e && typeof e === 'object'; depth++) {
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string') return code
    e = (e as { cause?: unknown }).cause
  }
  return undefined
}

function byHandHint(name: string, dataDir: string, baseUrl: string): string {
  const paths = rahaPaths(dataDir, name)
  const files = CANONICAL_DATASETS[name as keyof typeof CANONICAL_DATASETS].files
  return (
    `to install it by hand, download ${redactUrl(baseUrl)}/${name}/dirty.csv and clean.csv and put them at ` +
    `${paths.dirty} (sha256 ${files.dirty.sha256}) and ${paths.clean} (sha256 ${files.clean.sha256})`
  )
}

async function download(url: string, fetchImpl: typeof fetch, timeoutMs: number): Promise<Uint8Array> {
  const response = await fetchImpl(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'follow' })
  if (!response.ok) {
    throw new DatasetDownloadError(`GET ${redactUrl(url)} answered ${response.status} ${response.statusText}`.trim())
  }
  return new Uint8Array(await response.arrayBuffer())
}

async function hasExpectedFile(path: string, expected: CanonicalFile): Promise<boolean> {
  try {
    return sha256Hex(await readFile(path)) === expected.sha256
  } catch {
    return false
  }
}

/**
 * Downloads hospital, flights or beers from the pinned upstream revision into `<dataDir>/<name>/`.
 * Every file's sha256 is checked before anything is written; files already present with the right hash
 * are kept. Returns the paths of both files.
 */
export async function pullDataset(name: string, opts: PullOptions): Promise<{ files: string[] }> {
  if (!isCanonicalName(name)) {
    throw new InputError(
      `cannot pull "${name}": pull knows ${Object.keys(CANONICAL_DATASETS).join(', ')}; put other datasets at <dataDir>/${name}/dirty.csv and clean.csv`,
    )
  }
  const env = opts.env ?? process.env
  const baseUrl = (opts.baseUrl ?? env['DATAFORGE_DATASETS_BASE_URL'] ?? DEFAULT_DATASETS_BASE_URL).replace(/\/+$/, '')
  const fetchImpl = opts.fetchImpl ?? globalThis.fetch
  const log = opts.log ?? (() => {})
  const timeoutMs = opts.timeoutMs ?? 120_000
  const paths = rahaPaths(opts.dataDir, name)
  const pinned = CANONICAL_DATASETS[name].files

  const verified: { path: string; bytes: Uint8Array }[] = []
  for (const role of ['dirty', 'clean'] as const) {
    const path = paths[role]
    const expected = pinned[role]
    const fileLabel = `${name}/${role}.csv`
    if (await hasExpectedFile(path, expected)) {
      log(`${fileLabel}: already present at ${path}, sha256 ok`)
      continue
    }
    const url = `${baseUrl}/${name}/${role}.csv`
    log(`${fileLabel}: downloading ${redactUrl(url)}`)
    let bytes: Uint8Array
    try {
      bytes = await download(url, fetchImpl, timeoutMs)
    } catch (error) {
      if (error instanceof DatasetDownloadError) {
        throw new DatasetDownloadError(`${fileLabel}: ${error.message}; ${byHandHint(name, opts.dataDir, baseUrl)}`)
      }
      const code = errorCode(error)
      const reason =
        code && OFFLINE_CODES.has(code)
          ? `cannot reach ${redactUrl(url)} (${code}): offline?`
          : (error as Error).name === 'TimeoutError'
            ? `download of ${redactUrl(url)} timed out after ${timeoutMs} ms`
            : `download of ${redactUrl(url)} failed: ${(error as Error).message}`
      throw new DatasetDownloadError(`${fileLabel}: ${reason}; ${byHandHint(name, opts.dataDir, baseUrl)}`)
    }
    const actual = sha256Hex(bytes)
    if (actual !== expected.sha256) {
      throw new DatasetDownloadError(
        `${fileLabel}: sha256 mismatch for ${redactUrl(url)}: expected ${expected.sha256} (${expected.bytes} bytes), got ${actual} (${bytes.length} bytes); nothing was written`,
      )
    }
    verified.push({ path, bytes })
  }

  for (const file of verified) {
    try {
      await writeFileAtomic(file.path, file.bytes)
    } catch (error) {
      throw new DatasetDownloadError(
        `${name}: downloaded and verified, but cannot write ${file.path}: ${(error as Error).message}`,
      )
    }
    log(`${name}: wrote ${file.path} (${file.bytes.length} bytes, sha256 ok)`)
  }
  return { files: [paths.dirty, paths.clean] }
}
