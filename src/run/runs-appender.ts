import { closeSync, fsyncSync, writeSync } from 'node:fs'
import { writeFailure } from '../files/fs-errors.js'
import { openOwnFile } from '../files/own-file.js'

export interface RunsAppender {
  readonly path: string
  /** Appends one line (a sealed record: journal-integrity.ts) and flushes it to disk before returning. */
  append(line: string): void
  close(): void
}

/**
 * A run's journal: every finished trial is written and fsynced at once (synchronously, so a SIGINT or kill -9
 * right after a trial finished still finds it on disk). `truncate` starts a fresh journal; otherwise lines are
 * added to what a resumed run already holds. A journal that is a symlink, a hard link or a special file is
 * refused (an InputError naming it): the run never writes through a link.
 */
export function openRunsAppender(path: string, opts: { truncate: boolean }): RunsAppender {
  const fd = openOwnFile(path, opts.truncate ? 'truncate' : 'append', 'cannot open the journal')
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
