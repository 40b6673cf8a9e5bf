import type { RunRecord } from '../core/run-record.js'
import type { EvalReport } from './build.js'
import { join } from 'node:path'
import { mkdir } from 'node:fs/promises'
import { lockFolder } from '../files/folder-lock.js'
import { commitFiles, removeStaleTemps } from '../files/write-atomic.js'
import { buildManifest, MANIFEST_FILE, renderManifest } from './manifest-build.js'

export function renderJsonReport(report: EvalReport): string {
  return `${JSON.stringify(report, null, 2)}\n`
}

export function renderRunsJsonl(records: readonly RunRecord[]): string {
  return records.map((r) => JSON.stringify(r)).join('\n') + (records.length ? '\n' : '')
}

export interface ReportFiles {
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

/** What a report folder holds once written: the files rendered for it and the runs they were rendered from. */
export interface ReportFolderContents {
  dir: string
  /** Every rendered file, by path inside `dir`. */
  contents: ReadonlyMap<string, string>
  /** The run's RunRecords: the manifest lists their config ids. */
  records: readonly RunRecord[]
  /** Files of `contents` that serialize exactly `records` (report.json, runs.jsonl): counted without parsing them back. */
  recordFiles?: readonly string[]
  /** Files already in the folder that belong to it and are not rewritten (the reporter's baseline.json). */
  alsoList?: readonly string[]
}

/**
 * Writes a report folder as one unit: the files and `dir/manifest.json` listing them are all staged as temp
 * files first and renamed into place only when every one is on disk, the manifest last. A failure while
 * rendering or staging leaves nothing new. Returns the paths written, the manifest last.
 */
export async function commitReportFolder(folder: ReportFolderContents): Promise<string[]> {
  const { dir, contents, records, recordFiles = [], alsoList = [] } = folder
  const rows = new Map<string, readonly unknown[]>(recordFiles.map((path) => [path, records]))
  const configIds = [...new Set(records.map((r) => r.configId))].sort()
  const manifest = await buildManifest(dir, [...contents.keys(), ...alsoList], { contents, rows, configIds })
  const all = new Map<string, string>(contents)
  all.set(join(dir, MANIFEST_FILE), renderManifest(manifest))
  await commitFiles(all)
  return [...all.keys()]
}

/**
 * `commitReportFolder` for writers that do not hold the folder already: creates it, takes its lock (a second
 * writer fails at once), removes temp files a killed writer left, commits, and lets go of the lock.
 */
export async function commitReportFolderLocked(folder: ReportFolderContents): Promise<string[]> {
  await mkdir(folder.dir, { recursive: true })
  const lock = lockFolder(folder.dir)
  try {
    await removeStaleTemps(folder.dir)
    return await commitReportFolder(folder)
  } finally {
    lock.release()
  }
}
