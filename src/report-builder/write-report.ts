import { recordJson } from '../core/record-json.js'
import type { RunRecord } from '../core/run-record.js'
import type { EvalReport } from './build.js'
import { join } from 'node:path'
import { makeFolder } from '../files/fs-errors.js'
import { lockFolder } from '../files/folder-lock.js'
import { LEGACY_RUNS_FILE, LEGACY_STEM, stemFiles } from '../files/output-paths.js'
import { removeStaleTemps, stageFiles } from '../files/write-atomic.js'
import {
  buildManifest,
  keptFiles,
  listedEntries,
  MANIFEST_FILE,
  relativeInside,
  renderManifest,
} from './manifest-build.js'
import { rm } from 'node:fs/promises'

function recordLines(records: readonly RunRecord[]): string[] {
  return records.map(recordJson)
}

const RECORDS_MARK = '\u0000dataforge-records\u0000'

/**
 * report.json: indented, with one record per line (the lines of runs.jsonl). A thousand records pretty-printed
 * field by field made the file twice as large and serialized every record a second time at the end of a run.
 */
export function renderJsonReport(report: EvalReport): string {
  const lines = recordLines(report.records)
  const records = lines.length ? `[\n    ${lines.join(',\n    ')}\n  ]` : '[]'
  // The records' place in the indented document (key order kept), filled in with their lines.
  const text = JSON.stringify({ ...report, records: RECORDS_MARK }, null, 2)
  return `${text.replace(JSON.stringify(RECORDS_MARK), () => records)}\n`
}

export function renderRunsJsonl(records: readonly RunRecord[]): string {
  const lines = recordLines(records)
  return lines.join('\n') + (lines.length ? '\n' : '')
}

interface ReportFiles {
  report: EvalReport
  markdown?: { path: string; text: string }
  html?: { path: string; text: string }
  jsonPath?: string
  runsPath?: string
}

/** Renders every report file, by path; nothing is written. */
export function renderReportFiles(files: ReportFiles): Map<string, string> {
  const outputs = new Map<string, string>()
  if (files.markdown) outputs.set(files.markdown.path, files.markdown.text)
  if (files.html) outputs.set(files.html.path, files.html.text)
  if (files.jsonPath) outputs.set(files.jsonPath, renderJsonReport(files.report))
  if (files.runsPath) outputs.set(files.runsPath, renderRunsJsonl(files.report.records))
  return outputs
}

/** A file of a report folder: its text or bytes, or how to render it. */
export type ReportFolderFile = string | Uint8Array | (() => string | Promise<string>)

/** What a report folder holds once written: the files rendered for it and the runs they were rendered from. */
interface ReportFolderContents {
  dir: string
  /** Every file, by path inside `dir`; those given as renderers are rendered in this order. */
  contents: ReadonlyMap<string, ReportFolderFile>
  /** The run's RunRecords: the manifest lists their config ids. */
  records: readonly RunRecord[]
  /** Files of `contents` that serialize exactly `records` (report.json, runs.jsonl): counted without parsing them back. */
  recordFiles?: readonly string[]
  /** Files already in the folder that belong to it and are not rewritten (the reporter's baseline.json). */
  alsoList?: readonly string[]
  /** Files of this report under an older name, removed once the folder is written (a legacy runs.jsonl). */
  replaces?: readonly string[]
}

/**
 * Writes a report folder as one unit: the files and `dir/manifest.json` listing them are all staged as temp
 * files first and renamed into place only when every one is on disk, the manifest last. A folder holds many
 * reports: the files its manifest listed already and this write does not replace (other reports, an export,
 * pr-comment.md) stay listed, each checked against the sha256 the manifest has for it (a changed one is an
 * InputError: listing it again would hide the change from `verify`; a removed one is left out). Each file is encoded
 * once (the bytes hashed for the manifest are the bytes written) and staged as soon as it is rendered, so its
 * write overlaps the rendering of the next. A failure while rendering or staging leaves nothing new. Returns
 * the paths written, the manifest last.
 */
export async function commitReportFolder(folder: ReportFolderContents): Promise<string[]> {
  const { dir, contents, records, recordFiles = [], alsoList = [], replaces = [] } = folder
  const staged = stageFiles()
  const manifestPath = join(dir, MANIFEST_FILE)
  try {
    const bytes = await keptFiles(
      dir,
      new Set([...contents.keys(), ...alsoList, ...replaces].map((path) => relativeInside(dir, path))),
    )
    for (const [path, file] of contents) {
      const content = typeof file === 'function' ? await file() : file
      const data = typeof content === 'string' ? Buffer.from(content, 'utf8') : content
      bytes.set(path, data)
      staged.add(path, data)
    }
    const rows = new Map<string, readonly unknown[]>(recordFiles.map((path) => [path, records]))
    // With record files listed the manifest takes the config ids from their rows (the same records); without, as given.
    const configIds = rows.size ? {} : { configIds: [...new Set(records.map((r) => r.configId))].sort() }
    const manifest = await buildManifest(dir, [...bytes.keys(), ...alsoList], { contents: bytes, rows, ...configIds })
    staged.add(manifestPath, Buffer.from(renderManifest(manifest), 'utf8'))
  } catch (error) {
    await staged.abort()
    throw error
  }
  await staged.commit()
  for (const path of replaces) await rm(path, { force: true })
  return [...contents.keys(), manifestPath]
}

/**
 * The runs.jsonl of a folder written before reports were named per stem, when it is the runs file of the
 * report `stem` being written now: its manifest lists runs.jsonl and STEM.json and no report.json (whose runs
 * file runs.jsonl still is). The new STEM.runs.jsonl replaces it.
 */
export async function legacyRunsOf(dir: string, stem: string): Promise<string[]> {
  if (stem === LEGACY_STEM) return []
  const listed = new Set((await listedEntries(dir)).map((e) => e.path))
  const own = stemFiles(stem)
  return listed.has(LEGACY_RUNS_FILE) && listed.has(own.json) && !listed.has(stemFiles(LEGACY_STEM).json)
    ? [join(dir, LEGACY_RUNS_FILE)]
    : []
}

/**
 * `commitReportFolder` for writers that do not hold the folder already: creates it, takes its lock (a second
 * writer fails at once), removes temp files a killed writer left, commits, and lets go of the lock.
 */
export async function commitReportFolderLocked(folder: ReportFolderContents): Promise<string[]> {
  await makeFolder(folder.dir)
  const lock = lockFolder(folder.dir)
  try {
    await removeStaleTemps(folder.dir)
    return await commitReportFolder(folder)
  } finally {
    lock.release()
  }
}
