import { appendFileSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { z } from 'zod'
import { DatasetInfoSchema } from '../core/dataset-info.js'
import { RunRecordSchema } from '../core/run-record.js'
import { TranscriptSchema } from '../core/transcript.js'

/**
 * Jest runs tests in worker processes and reporters in the parent, and test metadata does not travel between
 * them. So each worker appends its finished runs to its own side file under the run's folder, one JSON line
 * per RunRecord, and the reporter collects the folder when the run ends.
 */

/** The reporter names the run's side-file folder here before workers start; workers inherit it. */
export const SIDE_DIR_ENV = 'DATAFORGE_JEST_SIDE_DIR'

export const SideLineSchema = z.object({
  testPath: z.string(),
  record: RunRecordSchema,
  datasetInfo: DatasetInfoSchema.optional(),
  /** The run's transcript (the one `record.transcriptId` names), when it kept one. */
  transcript: TranscriptSchema.optional(),
})
export type SideLine = z.infer<typeof SideLineSchema>

const workerFile = `${process.pid}-${Math.random().toString(36).slice(2, 10)}.jsonl`

/**
 * Appends one line to this worker's file. One `write` of a whole line on a file opened for appending: a worker
 * that dies mid-run leaves every line it finished, at worst a torn last one (which the reader skips).
 */
export function appendSideLine(dir: string, line: SideLine): void {
  mkdirSync(dir, { recursive: true })
  appendFileSync(join(dir, workerFile), `${JSON.stringify(line)}\n`)
}

export interface CollectedRuns {
  lines: SideLine[]
  /** Lines that could not be read (a torn last line of a crashed worker, a record that fails the schema). */
  problems: string[]
}

/**
 * Reads every worker's file (crashed workers' partial files included), validates each line against the
 * RunRecord schema and removes the folder. A test written twice (Jest retries a crashed worker's file) counts
 * once: the last line for it wins.
 */
export function collectSideFiles(dir: string): CollectedRuns {
  let names: string[]
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.jsonl')).sort()
  } catch {
    return { lines: [], problems: [] }
  }
  const byRun = new Map<string, SideLine>()
  const problems: string[] = []
  for (const name of names) {
    const text = readFileSync(join(dir, name), 'utf8')
    text.split('\n').forEach((raw, i) => {
      if (!raw.trim()) return
      const parsed = parseLine(raw)
      if (!parsed.success) {
        problems.push(`${name} line ${i + 1}: ${parsed.error}`)
        return
      }
      const r = parsed.data.record
      byRun.set(JSON.stringify([parsed.data.testPath, r.caseId, r.turn, r.trial, r.agent, r.dataset, r.suite]), parsed.data)
    })
  }
  rmSync(dir, { recursive: true, force: true })
  removeIfEmpty(dirname(dir))
  return { lines: [...byRun.values()], problems }
}

function parseLine(raw: string): { success: true; data: SideLine } | { success: false; error: string } {
  let json: unknown
  try {
    json = JSON.parse(raw)
  } catch {
    return { success: false, error: 'not JSON (a worker stopped mid-write?)' }
  }
  const result = SideLineSchema.safeParse(json)
  if (result.success) return { success: true, data: result.data }
  const issue = result.error.issues[0]
  return { success: false, error: `not a RunRecord: ${issue?.path.join('.') || '(root)'} ${issue?.message ?? ''}` }
}


/** The runs folder goes once the last run in it is collected (another Jest run may still be using it). */
function removeIfEmpty(dir: string): void {
  try {
    rmdirSync(dir)
  } catch {
    // not empty, or already gone
  }
}
