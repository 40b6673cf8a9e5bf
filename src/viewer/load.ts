import { readdir, readFile, stat } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { InputError } from '../core/errors.js'
import type { RunRecord } from '../core/run-record.js'
import { type Transcript, TranscriptSchema } from '../core/transcript.js'
import { LEGACY_RUNS_FILE, stemFiles, stemOf } from '../files/output-paths.js'
import { parseRunRecords, parseRunRecordText, resolveRunsFile } from '../files/read-runs.js'
import { checkJsonDepth } from '../core/json-depth.js'

/** One report as the viewer shows it: its records, in file order, and the transcripts its records name. */
export interface ViewedReport {
  /** The report folder. */
  dir: string
  stem: string
  /** The runs file read (`runs.jsonl`, `NAME.runs.jsonl`; a report's JSON when it has no runs file). */
  runsFile: string
  records: RunRecord[]
  /** The transcripts file of the report, and whether it exists. */
  transcriptsFile: string
  transcriptsFound: boolean
  transcripts: Map<string, Transcript>
}

/** `report` → transcripts.jsonl, `smoke` → smoke.transcripts.jsonl (issue 38's storage, beside the runs file). */
function transcriptsFileOf(stem: string): string {
  return stemFiles(stem).runs === LEGACY_RUNS_FILE ? 'transcripts.jsonl' : `${stem}.transcripts.jsonl`
}

/**
 * The runs file DIR stands for. A file (runs file, report .md/.html/.json, or a stem) is that report. A folder
 * holding one report is that report; a folder holding several is its newest runs file (by modification time,
 * then name), so the viewer follows a folder a watch-mode run keeps writing.
 */
export async function pickRunsFile(path: string): Promise<string> {
  const info = await stat(path).catch(() => null)
  if (!info?.isDirectory()) return resolveRunsFile(path)
  const names = (await readdir(path)).filter((name) => name === LEGACY_RUNS_FILE || name.endsWith('.runs.jsonl'))
  const dated: Array<{ name: string; mtime: number }> = []
  for (const name of names) {
    const s = await stat(join(path, name)).catch(() => null)
    if (s?.isFile()) dated.push({ name, mtime: s.mtimeMs })
  }
  if (dated.length === 0) {
    throw new InputError(
      `${path}: no runs file (runs.jsonl or NAME.runs.jsonl); give a report folder written by run, qa or a reporter`,
    )
  }
  dated.sort((a, b) => b.mtime - a.mtime || a.name.localeCompare(b.name))
  return join(path, dated[0]!.name)
}

/** Reads a report: its records (every line checked: an error names the file, line and field) and its transcripts. */
export async function loadReport(path: string): Promise<ViewedReport> {
  const runsFile = resolve(await pickRunsFile(path))
  const dir = dirname(runsFile)
  const stem = stemOf(basename(runsFile))
  const text = await readFile(runsFile, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new InputError(`${runsFile}: cannot read (${error.code ?? String(error)})`)
  })
  const records = conformanceRecord(text, runsFile) ?? parseRunRecords(text, runsFile)
  const transcriptsFile = join(dir, transcriptsFileOf(stem))
  const transcriptsText = await readFile(transcriptsFile, 'utf8').catch(() => null)
  const transcripts =
    transcriptsText === null ? new Map<string, Transcript>() : parseTranscripts(transcriptsText, transcriptsFile)
  return { dir, stem, runsFile, records, transcriptsFile, transcriptsFound: transcriptsText !== null, transcripts }
}

/** `conformance --output-json c.json` keeps its one run's record as `runRecord`; null for any other file. */
function conformanceRecord(text: string, file: string): RunRecord[] | null {
  if (!file.endsWith('.json') || !/"runRecord"\s*:/.test(text)) return null
  checkJsonDepth(text, (line) => `${file}: line ${line}`)
  let parsed: { runRecord?: unknown; records?: unknown }
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    throw new InputError(`${file}: not valid JSON (${(error as Error).message})`)
  }
  if (parsed.records !== undefined || typeof parsed.runRecord !== 'object' || parsed.runRecord === null) return null
  return [parseRunRecordText(JSON.stringify(parsed.runRecord), `${file}: runRecord`)]
}

/** One transcript per line, each checked against TranscriptSchema; an error names the file, the line and the field. */
function parseTranscripts(text: string, file: string): Map<string, Transcript> {
  const out = new Map<string, Transcript>()
  const lines = text.split('\n')
  lines.forEach((line, i) => {
    if (line.trim() === '') return
    const where = `${file}: line ${i + 1}`
    checkJsonDepth(line, () => where)
    let row: unknown
    try {
      row = JSON.parse(line)
    } catch (error) {
      throw new InputError(`${where}: not valid JSON (${(error as Error).message}); is the file cut short?`)
    }
    const parsed = TranscriptSchema.safeParse(row)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      throw new InputError(
        `${where}: field "${issue?.path.map(String).join('.') || '(transcript)'}": ${issue?.message ?? 'not a transcript'}`,
      )
    }
    out.set(parsed.data.id, parsed.data)
  })
  return out
}

/** Why a run's page has no transcript, in one sentence; null when it has one. */
export function missingTranscript(report: ViewedReport, record: RunRecord): string | null {
  const file = basename(report.transcriptsFile)
  if (record.transcriptId === null) {
    return record.usage.calls > 0 || record.llmCalls.length > 0
      ? 'The harness kept no transcript for this run (it was written by a version that kept none, or it ran without the gateway keeping them).'
      : 'This run made no model call through the gateway, so it has no transcript.'
  }
  if (!report.transcriptsFound)
    return `The record names transcript ${record.transcriptId}, but ${file} is missing from the report folder.`
  if (!report.transcripts.has(record.transcriptId))
    return `The record names transcript ${record.transcriptId}, but ${file} has no line with that id.`
  return null
}
