import { appendFileSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { z } from 'zod'
import { DataforgeMetaSchema } from '../test-meta/schema.js'
import type { FinishedTest } from '../test-meta/to-run-record.js'

/**
 * Jest runs tests in worker processes and reporters in the parent, and test metadata does not travel between
 * them. So each worker appends its finished tests to its own side file under the run's folder, one JSON line
 * per test (its result and its meta), and the reporter collects the folder when the run ends and builds each
 * test's RunRecord there, once, with the run's commit and date.
 */

/** The reporter names the run's side-file folder here before workers start; workers inherit it. */
export const SIDE_DIR_ENV = 'DATAFORGE_JEST_SIDE_DIR'

/** A finished test as `recordFromTest` reads it (`FinishedTest`), its errors already cut to what a record holds. */
const FinishedTestSchema = z.object({
  fullName: z.string(),
  state: z.enum(['passed', 'failed', 'skipped', 'pending']),
  errors: z.array(z.object({ message: z.string().optional(), name: z.string().optional() })).readonly(),
  durationMs: z.number().nonnegative(),
  meta: DataforgeMetaSchema,
  expectedToFail: z.boolean().optional(),
})

export const SideLineSchema = z.object({
  testPath: z.string(),
  test: FinishedTestSchema,
})
export interface SideLine {
  testPath: string
  test: FinishedTest
}

const workerFile = `${process.pid}-${Math.random().toString(36).slice(2, 10)}.jsonl`

/**
 * Appends one line to this worker's file. One `write` of a whole line on a file opened for appending: a worker
 * that dies mid-run leaves every line it finished, at worst a torn last one (which the reader skips).
 */
export function appendSideLine(dir: string, line: SideLine): void {
  mkdirSync(dir, { recursive: true })
  appendFileSync(join(dir, workerFile), `${JSON.stringify(line)}\n`)
}

interface CollectedRuns {
  lines: SideLine[]
  /** Lines that could not be read (a torn last line of a crashed worker, a test that fails the schema). */
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
    names = readdirSync(dir)
      .filter((n) => n.endsWith('.jsonl'))
      .sort()
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
      const m = parsed.data.test.meta
      byRun.set(
        JSON.stringify([parsed.data.testPath, m.caseId, m.turn, m.trial, m.agent, m.dataset, m.suite]),
        parsed.data,
      )
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
  return { success: false, error: `not a finished test: ${issue?.path.join('.') || '(root)'} ${issue?.message ?? ''}` }
}

/** The runs folder goes once the last run in it is collected (another Jest run may still be using it). */
function removeIfEmpty(dir: string): void {
  try {
    rmdirSync(dir)
  } catch {
    // not empty, or already gone
  }
}
