import { readFileSync } from 'node:fs'
import type { RunRecord } from '../../src/core/run-record.js'

/** The RunRecords of a runs.jsonl (or runs.partial.jsonl) file, one per non-blank line. */
export function readRuns(path: string): RunRecord[] {
  return parseRuns(readFileSync(path, 'utf8'))
}

/** RunRecords from JSON-lines text, one per non-blank line. */
export function parseRuns(text: string): RunRecord[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as RunRecord)
}

/** A record with the fields that change from run to run (duration, start, date) blanked, for comparing two runs. */
export function withoutVolatile<T extends { runtimeS?: unknown; runDateUtc?: unknown; startedAt?: unknown }>(
  record: T,
): T {
  return { ...record, runtimeS: 0, runDateUtc: '', ...('startedAt' in record ? { startedAt: null } : {}) }
}
