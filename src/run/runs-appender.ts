import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs'
import { writeFailure } from '../files/fs-errors.js'

export interface RunsAppender {
  readonly path: string
  /** Appends one line (a sealed record: journal-integrity.ts) and flushes it to disk before returning. */
  append(line: string): void
  close(): void
}

/**
 * A run's journal: every finished trial is written and fsynced at once (synchronously, so a SIGINT or kill -9
 * right after a trial finished still finds it on disk). `truncate` starts a fresh journal; otherwise lines are
 * added to what a resumed run already holds.
 */
export function openRunsAppender(path: string, opts: { truncate: boolean }): RunsAppender {
  let fd: number
  try {
    fd = openSync(path, opts.truncate ? 'w' : 'a')
  } catch (error) {
    throw writeFailure(error, path, 'cannot open the journal')
  }
  let open = true
  return {
    path,
    append(line) {
      try {
        writeSync(fd, line)
        fsyncSync(fd)
      } catch (error) {
        throw writeFailure(error, path, 'cannot append to the journal')
      }
    },
    close() {
      if (!open) return
      open = false
      closeSync(fd)
    },
  }
}
