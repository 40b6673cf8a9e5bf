import { isTranscriptsFile } from './transcripts-file.js'
import { readFile } from 'node:fs/promises'
import { isAbsolute, join, relative, resolve, sep } from 'node:path'
import { InputError } from '../core/errors.js'
import { checkJsonDepth } from '../core/json-depth.js'
import { canonicalJson, sha256Hex } from '../core/hash.js'
import { sortedRecord } from '../core/order.js'
import { runRowsOf } from '../files/run-rows.js'

/*
 * Building a report folder's manifest.json from what was written, apart from reading and verifying one
 * (manifest.ts, with its zod schema): the end of a run writes a manifest and loads no zod.
 */

export const MANIFEST_FILE = 'manifest.json'
export const MANIFEST_VERSION = 1

/** A report folder's manifest.json (manifest.ts checks a read one against its zod schema, typed by this). */
export interface Manifest {
  manifestVersion: typeof MANIFEST_VERSION
  tool: 'dataforge-evals'
  /** Every written file, path relative to the manifest's folder with '/' separators, sorted by path. */
  files: Array<{ path: string; sha256: string; bytes: number }>
  /** Rows per file: RunRecords in .jsonl (non-blank lines) and report.json (`records`); others as the writer gave them. */
  rowCounts: Record<string, number>
  /** Sorted distinct `configId`s of the RunRecords in the listed files (as given by the writer when none are listed). */
  configIds: string[]
}

export interface ManifestExtra {
  /** Needed only for files whose rows cannot be re-counted (e.g. Parquet); for the others it must agree. */
  rowCounts?: Record<string, number>
  /** Must agree with the RunRecords in the listed files; stored as given when no such file is listed. */
  configIds?: string[]
  /** What the caller just wrote, by path as given in `files`: hashed and counted without reading it back. */
  contents?: ReadonlyMap<string, string | Uint8Array>
  /** The RunRecords the caller serialized into files of `contents`, by path: counted without parsing them back. */
  rows?: ReadonlyMap<string, readonly unknown[]>
}

/**
 * The files a folder's manifest.json lists, read without its schema (the end of a run loads no zod); none when
 * there is no readable manifest (nothing to keep: the new manifest replaces it).
 */
export async function listedEntries(dir: string): Promise<Array<{ path: string; sha256: string }>> {
  const text = await readFile(join(dir, MANIFEST_FILE), 'utf8').catch(() => null)
  if (text === null) return []
  try {
    checkJsonDepth(text, (line) => `${MANIFEST_FILE}: line ${line}`)
    const files = (JSON.parse(text) as { files?: unknown }).files
    if (!Array.isArray(files)) return []
    return files.flatMap((f: { path?: unknown; sha256?: unknown } | null) =>
      typeof f?.path === 'string' && typeof f.sha256 === 'string' ? [{ path: f.path, sha256: f.sha256 }] : [],
    )
  } catch {
    return []
  }
}

/**
 * The files `dir/manifest.json` lists that this write leaves as they are, with their bytes, each checked against
 * its listed sha256. Keys are paths inside `dir` as the manifest gives them; `rewritten` are left out.
 */
export async function keptFiles(dir: string, rewritten: ReadonlySet<string>): Promise<Map<string, Uint8Array>> {
  const kept = new Map<string, Uint8Array>()
  for (const entry of await listedEntries(dir)) {
    if (entry.path === MANIFEST_FILE || rewritten.has(entry.path) || !isSafeRelative(entry.path)) continue
    const path = join(dir, entry.path)
    const bytes = await readFile(path).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null
      throw new InputError(`${path}: cannot read (${error.code ?? error.message})`)
    })
    if (!bytes) continue
    if (sha256Hex(bytes) !== entry.sha256) {
      throw new InputError(
        `${path}: changed since ${join(dir, MANIFEST_FILE)} listed it; listing it again would hide the change (see dataforge-evals verify ${dir}: restore or remove the file)`,
      )
    }
    kept.set(entry.path, new Uint8Array(bytes))
  }
  return kept
}

export function renderManifest(manifest: Manifest): string {
  return `${JSON.stringify(manifest, null, 2)}\n`
}

/** The manifest `writeManifest` would write, without writing it (for writers that commit it with the files). */
export async function buildManifest(
  dir: string,
  files: readonly string[],
  extra: ManifestExtra = {},
): Promise<Manifest> {
  if (files.length === 0) throw new Error('manifest: no files to list; an empty manifest verifies nothing')
  const entries: Manifest['files'] = []
  const rowCounts: Record<string, number> = {}
  const derivedIds = new Set<string>()
  const idsRead = new Set<readonly unknown[]>()
  let anyRecordFile = false
  const names = [...new Set(files.map((f) => relativeInside(dir, f)))].sort()
  const known = new Map<string, Uint8Array>()
  for (const [file, content] of extra.contents ?? []) {
    known.set(relativeInside(dir, file), typeof content === 'string' ? Buffer.from(content, 'utf8') : content)
  }
  const givenRows = new Map<string, readonly unknown[]>()
  for (const [file, rows] of extra.rows ?? []) {
    const name = relativeInside(dir, file)
    if (!known.has(name)) throw new Error(`manifest: rows given for ${name}, whose contents are not given`)
    givenRows.set(name, rows)
  }
  for (const name of names) {
    if (name === MANIFEST_FILE) continue
    const bytes = known.get(name) ?? (await readBytes(join(dir, name)))
    entries.push({ path: name, sha256: sha256Hex(bytes), bytes: bytes.byteLength })
    const rows = givenRows.get(name) ?? recordRows(name, bytes)
    if (rows) {
      anyRecordFile = true
      rowCounts[name] = rows.length
      // report.json and runs.jsonl given as the same records: their config ids are read once.
      if (idsRead.has(rows)) continue
      idsRead.add(rows)
      for (const row of rows) {
        const id = (row as { configId?: unknown } | null)?.configId
        if (typeof id === 'string') derivedIds.add(id)
      }
    }
  }
  for (const [file, count] of Object.entries(extra.rowCounts ?? {})) {
    const name = relativeInside(dir, file)
    if (!names.includes(name)) throw new Error(`manifest: row count given for ${name}, which is not among the files`)
    const derived = rowCounts[name]
    if (derived !== undefined && derived !== count) {
      throw new Error(`manifest: row count for ${name} given as ${count} but the file holds ${derived} rows`)
    }
    rowCounts[name] = count
  }
  let configIds = [...derivedIds].sort()
  if (extra.configIds) {
    const given = [...new Set(extra.configIds)].sort()
    if (anyRecordFile && canonicalJson(given) !== canonicalJson(configIds)) {
      throw new Error(
        `manifest: configIds given (${given.length}) differ from those in the run records (${configIds.length})`,
      )
    }
    configIds = given
  }
  const manifest: Manifest = {
    manifestVersion: MANIFEST_VERSION,
    tool: 'dataforge-evals',
    files: entries,
    rowCounts: sortedRecord(rowCounts),
    configIds,
  }
  return manifest
}

/**
 * The RunRecord rows a file holds (read by `runRowsOf`, the one reader of run files): non-blank lines of a
 * .jsonl, the `records` of a .json report; null for files that hold no rows this can count.
 */
export function recordRows(name: string, bytes: Uint8Array): unknown[] | null {
  // Transcripts are no run records; verify checks them apart (manifest.ts).
  if (isTranscriptsFile(name)) return null
  const format = name.endsWith('.jsonl') ? 'jsonl' : name.endsWith('.json') ? 'report' : null
  if (!format) return null
  try {
    return runRowsOf(Buffer.from(bytes).toString('utf8'), name, format)?.map((r) => r.row) ?? null
  } catch (error) {
    // The message names the file already; verify prefixes it again.
    throw new Error((error as Error).message.slice(name.length + 2))
  }
}

export async function readBytes(path: string): Promise<Uint8Array> {
  try {
    return new Uint8Array(await readFile(path))
  } catch (error) {
    throw new InputError(`${path}: cannot read (${(error as NodeJS.ErrnoException).code ?? String(error)})`)
  }
}

export function relativeInside(dir: string, file: string): string {
  const abs = isAbsolute(file) ? file : resolve(dir, file)
  const rel = relative(resolve(dir), abs)
  if (!isSafeRelative(rel.split(sep).join('/')))
    throw new InputError(`${file}: not inside ${dir}; a manifest lists only its own folder`)
  return rel.split(sep).join('/')
}

export function isSafeRelative(path: string): boolean {
  return path !== '' && !isAbsolute(path) && !path.split('/').includes('..')
}
