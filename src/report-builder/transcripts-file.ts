import type { RunRecord } from '../core/run-record.js'
import type { Transcript } from '../core/transcript.js'

/**
 * The text of a report's transcripts file (`<stem>.transcripts.jsonl`, `transcripts.jsonl` for the stem
 * `report`): one JSON line per transcript a record names in `transcriptId`, in the records' order, each once.
 * Transcripts no record names (a trial that ran again) are left out. Empty when no record has one.
 */
export function renderTranscriptsJsonl(records: readonly RunRecord[], transcripts: Iterable<Transcript>): string {
  const byId = new Map<string, Transcript>()
  for (const t of transcripts) byId.set(t.id, t)
  if (byId.size === 0) return ''
  const lines: string[] = []
  const written = new Set<string>()
  for (const record of records) {
    const id = record.transcriptId
    if (id === null || id === undefined || written.has(id)) continue
    const transcript = byId.get(id)
    if (!transcript) continue
    written.add(id)
    lines.push(JSON.stringify(transcript))
  }
  return lines.length ? `${lines.join('\n')}\n` : ''
}

/** Whether a report folder's file is a transcripts file (not run records, though it ends in .jsonl). */
export function isTranscriptsFile(name: string): boolean {
  const base = name.slice(name.lastIndexOf('/') + 1)
  return base === 'transcripts.jsonl' || base.endsWith('.transcripts.jsonl')
}
