import { readdir, readFile, stat } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { z } from 'zod'
import { InputError } from '../core/errors.js'
import { checkJsonDepth } from '../core/json-depth.js'
import { canonicalJson, sha256Hex } from '../core/hash.js'
import { type DataBounds, recordProblems } from '../core/record-checks.js'
import { RunRecordSchema } from '../core/run-record.js'
import { TranscriptSchema } from '../core/transcript.js'
import { writeFileAtomic, commitFiles, removeStaleTemps } from '../files/write-atomic.js'
import {
  buildManifest,
  isSafeRelative,
  keptFiles,
  MANIFEST_FILE,
  MANIFEST_VERSION,
  type Manifest,
  type ManifestExtra,
  readBytes,
  recordRows,
  renderManifest,
  relativeInside,
} from './manifest-build.js'
import { lockFolder } from '../files/folder-lock.js'
import { stemFiles, stemOf } from '../files/output-paths.js'
import { makeFolder } from '../files/fs-errors.js'
import { isTranscriptsFile } from './transcripts-file.js'

const ManifestSchema: z.ZodType<Manifest> = z.object({
  manifestVersion: z.literal(MANIFEST_VERSION),
  tool: z.literal('dataforge-evals'),
  files: z.array(z.object({ path: z.string(), sha256: z.string(), bytes: z.number().int().nonnegative() })),
  rowCounts: z.record(z.string(), z.number().int().nonnegative()),
  configIds: z.array(z.string()),
})

/**
 * Writes `dir/manifest.json` (atomically) with the sha256, size and row count of each file and the config
 * ids of the RunRecords they hold. `files` are absolute or relative to `dir` and must lie inside it.
 * Call it after the files are written. A `rowCounts` or `configIds` entry that contradicts the files
 * throws: a manifest that could never verify is a bug in its writer.
 */
export async function writeManifest(
  dir: string,
  files: readonly string[],
  extra: ManifestExtra = {},
): Promise<Manifest> {
  const manifest = await buildManifest(dir, files, extra)
  await writeFileAtomic(join(dir, MANIFEST_FILE), renderManifest(manifest))
  return manifest
}

/**
 * Writes new files into a report folder and adds them to its manifest (created when there is none) as one
 * unit, under the folder's lock: the manifest is built first from the new contents and the files already
 * listed, then the files and the manifest are renamed into place, the manifest last. A file that replaces
 * one already listed (an `export --parquet` to the same path) takes its row count from `extra`, not from
 * the old manifest. Nothing is replaced when any step fails. What `export` and `report --html` use, so a
 * Parquet or HTML file written beside a report is covered by `verify` too.
 */
export async function addToManifest(
  dir: string,
  contents: ReadonlyMap<string, string | Uint8Array>,
  extra: Pick<ManifestExtra, 'rowCounts'> = {},
): Promise<Manifest> {
  await makeFolder(dir)
  const lock = lockFolder(dir)
  try {
    await removeStaleTemps(dir)
    const present = await stat(join(dir, MANIFEST_FILE)).then(
      () => true,
      () => false,
    )
    let existing: Manifest | null = null
    if (present) {
      try {
        existing = await readManifest(dir)
      } catch (error) {
        throw new InputError(`${join(dir, MANIFEST_FILE)}: cannot add to it: ${(error as Error).message}`)
      }
    }
    const added = new Set([...contents.keys()].map((file) => relativeInside(dir, file)))
    // The files listed already, each checked against its listed sha256 (a changed one is never listed again).
    const kept = await keptFiles(dir, added)
    const previous = [...kept.keys()]
    // Counts the manifest cannot re-derive (Parquet) carry over, except for the files being replaced now.
    const keptCounts = Object.fromEntries(
      Object.entries(existing?.rowCounts ?? {}).filter(
        ([name]) => !isRecordFileName(name) && !added.has(name) && previous.includes(name),
      ),
    )
    const manifest = await buildManifest(dir, [...previous, ...contents.keys()], {
      rowCounts: { ...keptCounts, ...(extra.rowCounts ?? {}) },
      contents: new Map<string, string | Uint8Array>([...kept, ...contents]),
    })
    await commitFiles(new Map([...contents, [join(dir, MANIFEST_FILE), renderManifest(manifest)]]))
    return manifest
  } finally {
    lock.release()
  }
}

/** What adding a file to a folder did to its manifest.json: added to it, made it (a new folder), or left none. */
export type ManifestUse = 'updated' | 'created' | 'none'

/**
 * Whether a file written into `dir` joins a manifest: a report folder's (it has manifest.json) is updated; a
 * folder that is new (absent or empty) gets one; any other folder (a project root, a folder of other files) is
 * no report folder, and none is made there.
 */
async function manifestUseFor(dir: string): Promise<ManifestUse> {
  if (await stat(join(dir, MANIFEST_FILE)).catch(() => null)) return 'updated'
  const entries = await readdir(dir).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? [] : null))
  return entries !== null && entries.length === 0 ? 'created' : 'none'
}

/**
 * Writes one file a command adds to a folder (`export`'s Parquet, `report`'s page) by the rule of
 * `manifestUseFor`: with its manifest as one unit (see `addToManifest`), or alone. Returns what became of the
 * manifest and its path.
 */
export async function writeAddedFile(
  path: string,
  data: string | Uint8Array,
  extra: Pick<ManifestExtra, 'rowCounts'> = {},
): Promise<{ manifest: ManifestUse; manifestPath: string }> {
  const dir = dirname(path)
  const manifest = await manifestUseFor(dir)
  if (manifest === 'none') await writeFileAtomic(path, data)
  else await addToManifest(dir, new Map([[path, data]]), extra)
  return { manifest, manifestPath: join(dir, MANIFEST_FILE) }
}

interface VerifyResult {
  ok: boolean
  /** One line per mismatch, each naming the file. */
  problems: string[]
  /** Files checked (listed in the manifest). */
  files: number
}

/**
 * Re-derives everything `manifest.json` claims: each file's size and sha256, the row counts of RunRecord
 * files, that every row is a valid RunRecord, that each report's JSON records equal its runs file's rows
 * (smoke.json and smoke.runs.jsonl; report.json and runs.jsonl) and
 * that the config ids match. A file in the folder (at any depth, `.git` and `node_modules` not entered) that the
 * manifest does not list, and a manifest that lists nothing, are problems too: a verified folder holds exactly
 * what its writer wrote. Throws InputError only when `dir` is not a folder; everything else is a problem in the
 * result (the CLI's `verify` refuses a folder without manifest.json before calling this).
 */
export async function verifyDir(dir: string): Promise<VerifyResult> {
  const info = await stat(dir).catch(() => null)
  if (!info?.isDirectory()) throw new InputError(`${dir}: not a folder`)
  let manifest: Manifest
  try {
    manifest = await readManifest(dir)
  } catch (error) {
    return { ok: false, problems: [(error as Error).message], files: 0 }
  }
  const problems: string[] = []
  const listed = new Set(manifest.files.map((f) => f.path))
  if (manifest.files.length === 0) problems.push(`${MANIFEST_FILE}: lists no files; there is nothing to verify`)
  for (const name of await filesUnder(dir)) {
    if (name !== MANIFEST_FILE && !listed.has(name))
      problems.push(`${name}: in the folder but not listed in the manifest`)
  }
  const recordsByFile = new Map<string, unknown[]>()
  const transcriptsByFile = new Map<string, Set<string>>()
  let bounds: Map<string, DataBounds> | undefined
  for (const entry of manifest.files) {
    if (!isSafeRelative(entry.path)) {
      problems.push(`${MANIFEST_FILE}: path "${entry.path}" leaves the folder`)
      continue
    }
    const bytes = await readBytes(join(dir, entry.path)).catch(() => null)
    if (!bytes) {
      problems.push(`${entry.path}: listed in the manifest but missing`)
      continue
    }
    if (bytes.byteLength !== entry.bytes) {
      problems.push(`${entry.path}: size ${bytes.byteLength} bytes, manifest says ${entry.bytes}`)
    }
    const hash = sha256Hex(bytes)
    if (hash !== entry.sha256) problems.push(`${entry.path}: sha256 ${hash}, manifest says ${entry.sha256}`)
    if (isTranscriptsFile(entry.path)) {
      const read = transcriptIds(entry.path, bytes)
      problems.push(...read.problems)
      transcriptsByFile.set(entry.path, read.ids)
      continue
    }
    let rows: unknown[] | null
    try {
      rows = recordRows(entry.path, bytes)
    } catch (error) {
      problems.push(`${entry.path}: ${(error as Error).message}`)
      continue
    }
    if (!rows) continue
    recordsByFile.set(entry.path, rows)
    const recorded = manifest.rowCounts[entry.path]
    if (recorded === undefined) problems.push(`${entry.path}: no row count in the manifest (file has ${rows.length})`)
    else if (recorded !== rows.length) problems.push(`${entry.path}: ${rows.length} rows, manifest says ${recorded}`)
    const bad = rows.findIndex((row) => !RunRecordSchema.safeParse(row).success)
    const whereOf = (i: number) => (entry.path.endsWith('.jsonl') ? `row ${i + 1}` : `records[${i}]`)
    if (bad >= 0) problems.push(`${entry.path}: ${whereOf(bad)} is not a valid RunRecord`)
    else {
      bounds ??= await dataBounds(dir, manifest)
      problems.push(...implausibleRows(entry.path, rows, whereOf, bounds))
    }
  }
  for (const name of Object.keys(manifest.rowCounts)) {
    if (!listed.has(name)) problems.push(`${MANIFEST_FILE}: row count for ${name}, which is not listed`)
  }
  problems.push(...checkReportMatchesRuns(recordsByFile))
  problems.push(...checkTranscriptsFound(recordsByFile, transcriptsByFile))
  if (recordsByFile.size > 0) problems.push(...checkConfigIds(manifest.configIds, recordsByFile))
  return { ok: problems.length === 0, problems, files: manifest.files.length }
}

/**
 * Rows that contradict themselves or their data (core/record-checks.ts): ratios that do not follow from the
 * counts, more errors than the dataset has cells. The first problem of each of the first 5 such rows.
 */
function implausibleRows(
  path: string,
  rows: unknown[],
  whereOf: (i: number) => string,
  bounds: Map<string, DataBounds>,
): string[] {
  const out: string[] = []
  for (let i = 0; i < rows.length && out.length < 5; i++) {
    const record = RunRecordSchema.parse(rows[i])
    const problem = recordProblems(record, record.datasetSha256 ? bounds.get(record.datasetSha256.dirty) : null)[0]
    if (problem) out.push(`${path}: ${whereOf(i)}: ${problem}`)
  }
  return out
}

/** rows × columns of each dataset a listed report.json describes, by dirty sha256: a bound on any run's errors. */
async function dataBounds(dir: string, manifest: Manifest): Promise<Map<string, DataBounds>> {
  const bounds = new Map<string, DataBounds>()
  for (const entry of manifest.files) {
    if (!entry.path.endsWith('.json') || !isSafeRelative(entry.path)) continue
    let report: {
      reproducibility?: { datasets?: Array<{ rows?: unknown; columns?: unknown; dirty?: { sha256?: unknown } }> }
    } | null
    try {
      report = JSON.parse(await readFile(join(dir, entry.path), 'utf8'))
    } catch {
      continue
    }
    for (const d of report?.reproducibility?.datasets ?? []) {
      if (typeof d?.rows === 'number' && typeof d.columns === 'number' && typeof d.dirty?.sha256 === 'string') {
        bounds.set(d.dirty.sha256, { maxErrors: d.rows * d.columns, what: 'cells' })
      }
    }
  }
  return bounds
}

async function readManifest(dir: string): Promise<Manifest> {
  const path = join(dir, MANIFEST_FILE)
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch {
    throw new Error(`${MANIFEST_FILE}: missing from ${dir}`)
  }
  let parsed: unknown
  checkJsonDepth(text, (line) => `${MANIFEST_FILE}: line ${line}`)
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    throw new Error(`${MANIFEST_FILE}: not valid JSON (${(error as Error).message})`)
  }
  const result = ManifestSchema.safeParse(parsed)
  if (!result.success) {
    const issue = result.error.issues[0]
    throw new Error(`${MANIFEST_FILE}: field "${issue?.path.join('.') ?? ''}": ${issue?.message ?? 'invalid'}`)
  }
  return result.data
}

function checkReportMatchesRuns(recordsByFile: Map<string, unknown[]>): string[] {
  const problems: string[] = []
  for (const [name, rows] of recordsByFile) {
    if (!name.endsWith('.json')) continue
    // A report's runs file carries its stem (smoke.json: smoke.runs.jsonl; report.json: runs.jsonl).
    const slash = name.lastIndexOf('/') + 1
    const runsName = name.slice(0, slash) + stemFiles(stemOf(name.slice(slash))).runs
    const runs = recordsByFile.get(runsName)
    if (!runs) continue
    const left = rows.map(canonicalJson).sort()
    const right = runs.map(canonicalJson).sort()
    if (left.length !== right.length) {
      problems.push(`${name}: ${left.length} records but ${runsName} has ${right.length} rows`)
    } else if (left.some((row, i) => row !== right[i])) {
      problems.push(`${name}: records differ from the rows of ${runsName}`)
    }
  }
  return problems
}

/** The ids of a transcripts file's lines, each line checked against the transcript's schema (the first 5 bad ones named). */
function transcriptIds(path: string, bytes: Uint8Array): { ids: Set<string>; problems: string[] } {
  const ids = new Set<string>()
  const problems: string[] = []
  Buffer.from(bytes)
    .toString('utf8')
    .split('\n')
    .forEach((line, i) => {
      if (line.trim() === '') return
      let json: unknown
      try {
        json = JSON.parse(line)
      } catch {
        if (problems.length < 5) problems.push(`${path}: line ${i + 1} is not JSON`)
        return
      }
      const parsed = TranscriptSchema.safeParse(json)
      if (parsed.success) ids.add(parsed.data.id)
      else if (problems.length < 5)
        problems.push(
          `${path}: line ${i + 1} is not a valid transcript (${parsed.error.issues[0]?.path.join('.') || 'root'})`,
        )
    })
  return { ids, problems }
}

/** Each run's `transcriptId` names a line of its report's transcripts file (smoke.runs.jsonl: smoke.transcripts.jsonl). */
function checkTranscriptsFound(
  recordsByFile: Map<string, unknown[]>,
  transcriptsByFile: Map<string, Set<string>>,
): string[] {
  const problems: string[] = []
  for (const [name, rows] of recordsByFile) {
    if (!name.endsWith('.jsonl')) continue
    const slash = name.lastIndexOf('/') + 1
    const transcriptsName = name.slice(0, slash) + stemFiles(stemOf(name.slice(slash))).transcripts
    const ids = transcriptsByFile.get(transcriptsName)
    const missing = rows.findIndex((row) => {
      const id = (row as { transcriptId?: unknown } | null)?.transcriptId
      return typeof id === 'string' && !ids?.has(id)
    })
    if (missing >= 0)
      problems.push(
        `${name}: row ${missing + 1} names transcript ${(rows[missing] as { transcriptId: string }).transcriptId}, which ${transcriptsName} ${ids ? 'does not hold' : 'is not there to hold'}`,
      )
  }
  return problems
}

function checkConfigIds(claimed: readonly string[], recordsByFile: Map<string, unknown[]>): string[] {
  const actual = new Set<string>()
  for (const rows of recordsByFile.values()) {
    for (const row of rows) {
      const id = (row as { configId?: unknown } | null)?.configId
      if (typeof id === 'string') actual.add(id)
    }
  }
  const claimedSet = new Set(claimed)
  const missing = [...actual].filter((id) => !claimedSet.has(id)).sort()
  const extra = [...claimedSet].filter((id) => !actual.has(id)).sort()
  const problems: string[] = []
  if (missing.length)
    problems.push(`${MANIFEST_FILE}: configIds lack ${missing.length} found in the runs (first ${missing[0]})`)
  if (extra.length)
    problems.push(`${MANIFEST_FILE}: configIds list ${extra.length} not found in the runs (first ${extra[0]})`)
  return problems
}

function isRecordFileName(name: string): boolean {
  return (name.endsWith('.jsonl') && !isTranscriptsFile(name)) || name.endsWith('.json')
}

/** Folders a walk of a report folder never enters: a repository's history and installed packages are no report's files. */
export const NEVER_WALKED = new Set(['.git', 'node_modules'])

/** Every file under `dir`, as '/'-separated paths relative to it, sorted; `.git` and `node_modules` are not entered. */
async function filesUnder(dir: string): Promise<string[]> {
  const found: string[] = []
  const walk = async (folder: string, prefix: string): Promise<void> => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const name = `${prefix}${entry.name}`
      if (entry.isDirectory()) {
        if (!NEVER_WALKED.has(entry.name)) await walk(join(folder, entry.name), `${name}/`)
      } else found.push(name)
    }
  }
  await walk(dir, '')
  return found.sort()
}
