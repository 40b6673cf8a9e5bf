import { readdir, readFile, stat } from 'node:fs/promises'
import { basename, dirname, extname, join } from 'node:path'
import type { z } from 'zod'
import { InputError } from '../core/errors.js'
import { checkJsonDepth } from '../core/json-depth.js'
import { type RunRecord, RunRecordSchema } from '../core/run-record.js'
import { runRowsOf } from './run-rows.js'
import { LEGACY_RUNS_FILE, stemFiles, stemOf } from './output-paths.js'

/**
 * Reads RunRecords from a runs file (`smoke.runs.jsonl`, `runs.jsonl`: one record per line, blank lines
 * ignored), a JSON report (its `records` array), a report's stem or a folder holding one report
 * (`resolveRunsFile`). Every row is validated;
 * errors name the file, the line or record index and the field.
 */
export async function readRunRecords(path: string): Promise<RunRecord[]> {
  const file = await resolveRunsFile(path)
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    throw new InputError(`${file}: cannot read (${(error as NodeJS.ErrnoException).code ?? String(error)})`)
  }
  return parseRunRecords(text, file)
}

/** Parses runs text already in memory; `file` only names the source in errors. */
export function parseRunRecords(text: string, file: string): RunRecord[] {
  const format = looksLikeReport(file, text) ? 'report' : 'jsonl'
  const rows = runRowsOf(text, file, format)
  if (!rows) throw new InputError(`${file}: no "records" array; expected a report.json or runs.jsonl`)
  return rows.map(({ row, where }) => validate(row, where))
}

/** One record's JSON text (a journal line's record), parsed and validated; errors start with `where`. */
export function parseRunRecordText(json: string, where: string): RunRecord {
  let row: unknown
  checkJsonDepth(json, () => where)
  try {
    row = JSON.parse(json)
  } catch (error) {
    throw new InputError(`${where}: not valid JSON (${(error as Error).message})`)
  }
  return validate(row, where)
}

/**
 * The file RUNS names: a file as given (a report's .md or .html stands for its runs file); a folder's one runs
 * file (STEM.runs.jsonl or runs.jsonl), else its report.json; a stem (`reports/smoke`: smoke.runs.jsonl, else
 * smoke.json). A folder holding several reports is an InputError naming them: give one.
 */
export async function resolveRunsFile(path: string): Promise<string> {
  const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null
    throw new InputError(`${path}: cannot read (${error.code ?? String(error)})`)
  })
  if (!info) {
    const asStem = await stemFile(dirname(path), basename(path))
    if (asStem) return asStem
    throw new InputError(`${path}: cannot read (ENOENT)`)
  }
  if (info.isFile()) {
    const ext = extname(path)
    if (ext === '.md' || ext === '.html') return (await stemFile(dirname(path), basename(path, ext))) ?? path
    return path
  }
  if (!info.isDirectory())
    throw new InputError(
      `${path}: not a regular file (a FIFO, device or socket); give a runs.jsonl, report.json or folder`,
    )
  const runsFiles = (await readdir(path))
    .filter((name) => name === LEGACY_RUNS_FILE || name.endsWith('.runs.jsonl'))
    .sort()
  if (runsFiles.length > 1) {
    throw new InputError(
      `${path} holds ${runsFiles.length} reports (${runsFiles.join(', ')}); give one of them, or its stem (${join(path, stemOf(runsFiles[0]!))})`,
    )
  }
  for (const name of [...runsFiles, 'report.json']) {
    const candidate = join(path, name)
    if (await isFile(candidate)) return candidate
  }
  throw new InputError(`${path}: folder holds neither runs.jsonl nor report.json`)
}

/** The runs file of the report `stem` in `dir`, else its JSON report; null when it has neither. */
async function stemFile(dir: string, stem: string): Promise<string | null> {
  const files = stemFiles(stem)
  for (const name of [files.runs, files.json]) if (await isFile(join(dir, name))) return join(dir, name)
  return null
}

const isFile = (path: string) =>
  stat(path).then(
    (s) => s.isFile(),
    () => false,
  )

function looksLikeReport(file: string, text: string): boolean {
  if (file.endsWith('.jsonl')) return false
  if (file.endsWith('.json')) return true
  // Unknown extension: a report is one JSON object spread over lines; runs.jsonl has one object per line.
  const firstLine = text.trimStart().split('\n', 1)[0] ?? ''
  return firstLine.trim() === '{'
}

function validate(row: unknown, where: string): RunRecord {
  const result = RunRecordSchema.safeParse(row)
  if (result.success) return result.data
  throw new InputError(`${where}: ${describeIssue(result.error.issues[0])}`)
}

function describeIssue(issue: z.core.$ZodIssue | undefined): string {
  if (!issue) return 'invalid RunRecord'
  const field = issue.path.length ? issue.path.map(String).join('.') : '(record)'
  return `field "${field}": ${issue.message}`
}
