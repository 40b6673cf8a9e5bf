import { rmdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { InputError } from '../core/errors.js'
import { type FolderLock, lockFolder } from '../files/folder-lock.js'
import { checkReportOutputs, type PlannedOutput } from '../files/output-paths.js'
import { removeStaleTemps } from '../files/write-atomic.js'
import { checkOwnFile } from '../files/own-file.js'
import { journalFiles, type ReadRun, resumeTarget, RunJournal, type RunOptions } from './resume.js'

/**
 * The process's own exit, taken before anything can wrap `process.exit` (in-process agent containment turns it
 * into an agent failure): a signal must end the run for real.
 */
const exitNow = (process as NodeJS.Process & { reallyExit: (code: number) => never }).reallyExit.bind(process)

interface RunFolder {
  journal: RunJournal
  lock: FolderLock
  /** Releases the lock and the signal handlers; the journal stays unless `journal.finish()` was called. */
  close(): void
}

/**
 * Everything a CLI run does to its report folder before the first agent call: checks every output path,
 * creates the folder, takes its lock (a second writer fails at once), removes temp files a killed writer left,
 * and opens the run's journal (fresh, or the one being resumed). SIGINT/SIGTERM end the run with the journal
 * intact and a line saying how to resume.
 */
export async function openRunFolder(opts: {
  dir: string
  /** The report's stem: its journal is the stem's (resume.ts, `journalFiles`). */
  stem: string
  /** The folder as the user should type it in `--resume`. */
  displayDir: string
  outputs: readonly PlannedOutput[]
  resume: ReadRun | null
  fresh: { cwd: string; options: RunOptions; env: Record<string, string | null>; runDateUtc: string }
  /** Where a fresh run keeps its journal key (journal-integrity.ts). */
  keyDir: string
  stderr: (text: string) => void
}): Promise<RunFolder> {
  const place = { dir: opts.dir, stem: opts.stem }
  const created = await checkReportOutputs(opts.dir, opts.outputs)
  // A run that stops before its first trial (bad input found while loading) leaves no folder behind.
  const takeBackFolders = () => {
    for (const dir of created) {
      try {
        rmdirSync(dir)
      } catch {
        // not empty: something else lives there now
      }
    }
  }
  let lock: FolderLock
  try {
    lock = lockFolder(opts.dir)
  } catch (error) {
    takeBackFolders()
    throw error
  }
  try {
    for (const dir of new Set([opts.dir, ...opts.outputs.map((o) => dirname(o.path))])) await removeStaleTemps(dir)
    // The journal is written in place: a link put where it goes is refused before any agent runs.
    const files = journalFiles(place)
    checkOwnFile(files.journal)
    if (!opts.resume && checkOwnFile(files.plan)) {
      const resume = resumeTarget(opts.displayDir, opts.stem)
      throw new InputError(
        `${opts.displayDir} holds an interrupted run (${files.planName}); finish it with dataforge-evals run --resume ${resume}, or delete ${files.planName} to start over`,
      )
    }
  } catch (error) {
    lock.release()
    takeBackFolders()
    throw error
  }
  const journal = opts.resume ? RunJournal.resume(opts.resume) : RunJournal.fresh(place, opts.fresh, opts.keyDir)
  const onSignal = (signal: NodeJS.Signals) => {
    journal.close()
    lock.release()
    opts.stderr(journal.resumeHint(opts.displayDir, null))
    exitNow(signal === 'SIGINT' ? 130 : 143)
  }
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  return {
    journal,
    lock,
    close() {
      process.off('SIGINT', onSignal)
      process.off('SIGTERM', onSignal)
      journal.close()
      lock.release()
      if (!journal.begun) takeBackFolders()
    },
  }
}
