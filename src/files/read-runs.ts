import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { z } from 'zod'
import { InputError } from '../core/errors.js'
import { type RunRecord, RunRecordSchema } from '../core/run-record.js'

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

/**
 * The one reader of run files' rows, unvalidated: the non-blank lines of a runs.jsonl, or the `records` of a
 * report.json (null when a JSON file has no such array). Each row comes with where it is (`FILE: line 3`,
 * `FILE: records[2]`). Throws an InputError naming the line when the text does not parse.
 */
export function runRowsOf(text: string, file: string, format: 'jsonl' | 'report'): Array<{ row: unknown; where: string }> | null {
  if (format === 'report') {
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch (error) {
      throw new InputError(`${file}: not valid JSON (${(error as Error).message})`)
    }
    const records = (parsed as { records?: unknown } | null)?.records
    if (!Array.isArray(records)) return null
    return records.map((row, i) => ({ row, where: `${file}: records[${i}]` }))
  }
  const out: Array<{ row: unknown; where: string }> = []
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return
    try {
      out.push({ row: JSON.parse(line), where: `${file}: line ${i + 1}` })
    } catch (error) {
      throw new InputError(`${file}: line ${i + 1}: not valid JSON (${(error as Error).message})`)
    }
  })
  return out
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
