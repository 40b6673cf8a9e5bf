import type { RunRecord } from './run-record.js'

const texts = new WeakMap<RunRecord, string>()

/**
 * A record's JSON text, made once: the journal line, runs.jsonl and report.json hold the same text, and a
 * million-row run's record is tens of megabytes. Records are not changed once they are serialized.
 */
export function recordJson(record: RunRecord): string {
  let text = texts.get(record)
  if (text === undefined) {
    text = JSON.stringify(record)
    texts.set(record, text)
  }
  return text
}
