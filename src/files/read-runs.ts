import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { z } from 'zod'
import { InputError } from '../core/errors.js'
import { checkJsonDepth } from '../core/json-depth.js'
import { type RunRecord, RunRecordSchema } from '../core/run-record.js'
import { runRowsOf } from './run-rows.js'

/**
 * Reads RunRecords from a `runs.jsonl` (one record per line, blank lines ignored), a `report.json`
 * (its `records` array) or a folder holding either (runs.jsonl preferred). Every row is validated;
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

async function resolveRunsFile(path: string): Promise<string> {
  let info: Awaited<ReturnType<typeof stat>>
  try {
    info = await stat(path)
  } catch (error) {
    throw new InputError(`${path}: cannot read (${(error as NodeJS.ErrnoException).code ?? String(error)})`)
  }
  if (info.isFile()) return path
  if (!info.isDirectory()) throw new InputError(`${path}: not a regular file (a FIFO, device or socket); give a runs.jsonl, report.json or folder`)
  for (const name of ['runs.jsonl', 'report.json']) {
    const candidate = join(path, name)
    if (await stat(candidate).then((s) => s.isFile(), () => false)) return candidate
  }
  throw new InputError(`${path}: folder holds neither runs.jsonl nor report.json`)
}

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
