import { linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { InputError } from '../core/errors.js'
import { fsProblem } from './fs-errors.js'
import { processAlive } from './write-atomic.js'

const LOCK_FILE = '.dataforge.lock'
/** Held, for a few microseconds, by the one process clearing a stale lock. */
const TAKEOVER_SUFFIX = '.takeover'
/** How long a run waits for another to finish clearing a stale lock before giving up (ms). */
const TAKEOVER_WAIT_MS = 2000

export interface FolderLock {
  path: string
  /** Removes the lock; safe to call more than once and from a signal handler (synchronous). */
  release(): void
}

interface Holder {
  pid: number
  host: string
  /** The lock file's text: unique to one taking of the lock (pid, host, time and a random token). */
  text: string
}

/**
 * Takes `dir/.dataforge.lock` (holding pid and host). A lock held by a live process on this host is an
 * InputError naming the lock; one left by a process that no longer runs (kill -9) is taken over, and when
 * several runs find it at once exactly one of them gets the folder.
 *
 * How: a lock appears whole or not at all (written to a temp file, then hard-linked into place, which fails
 * when the lock exists). A stale lock is removed only by the process holding `.dataforge.lock.takeover`
 * (created the same way, so one at a time), and only after it read the lock again and found the same dead
 * holder's text: a fresh lock carries a token of its own, so a takeover never removes another run's new lock.
 * Creating the lock is also the proof that the folder is writable.
 */
export function lockFolder(dir: string): FolderLock {
  const path = join(dir, LOCK_FILE)
  const text = lockText()
  const deadline = Date.now() + TAKEOVER_WAIT_MS
  for (;;) {
    if (placeWhole(dir, path, text)) return heldLock(path)
    const holder = readHolder(path)
    if (holder === 'gone') continue
    if (!holder || holder.host !== hostname() || processAlive(holder.pid)) {
      const who = holder ? `pid ${holder.pid} on ${holder.host}` : 'unknown writer'
      throw new InputError(
        `${path}: another run (${who}) is writing this folder; wait for it, or remove the lock if that run is gone`,
      )
    }
    if (!removeStaleLock(dir, path, holder) && Date.now() > deadline) {
      throw new InputError(
        `${path}: cannot take the lock (another run keeps clearing it); remove ${LOCK_FILE}${TAKEOVER_SUFFIX} if no run is starting`,
      )
    }
  }
}

function lockText(): string {
  const token = `${Date.now()}${Math.random().toString().slice(2, 10)}`
  return `${JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString(), token })}\n`
}

function heldLock(path: string): FolderLock {
  let released = false
  return {
    path,
    release() {
      if (released) return
      released = true
      removeFile(path)
    },
  }
}

/**
 * Puts `text` at `path` whole, or does nothing when `path` exists: false then. Written to a temp file named as
 * `removeStaleTemps` recognizes (`.NAME.PID.STAMP.tmp`), linked into place, the temp file removed.
 */
function placeWhole(dir: string, path: string, text: string): boolean {
  const tmp = join(dir, `.${LOCK_FILE}.${process.pid}.${Date.now()}${Math.random().toString().slice(2, 8)}.tmp`)
  try {
    writeFileSync(tmp, text, { flag: 'wx' })
  } catch (error) {
    throw new InputError(`${dir}: cannot write in this folder: ${fsProblem(error)}`)
  }
  try {
    linkSync(tmp, path)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw new InputError(`${dir}: cannot write in this folder: ${fsProblem(error)}`)
  } finally {
    removeFile(tmp)
  }
}

/**
 * Removes the stale lock if it is still `stale`, holding the takeover file while it checks and removes. Returns
 * false when another process is clearing it now (the caller tries again; the lock is soon gone or fresh).
 */
function removeStaleLock(dir: string, path: string, stale: Holder): boolean {
  const takeover = `${path}${TAKEOVER_SUFFIX}`
  if (!placeWhole(dir, takeover, lockText())) {
    clearDeadTakeover(takeover)
    pause(1)
    return false
  }
  try {
    const now = readHolder(path)
    if (now !== 'gone' && now?.text === stale.text) removeFile(path)
  } finally {
    removeFile(takeover)
  }
  return true
}

/**
 * A takeover file whose process is gone (killed in the microseconds it held it) is cleared: renamed aside and
 * removed when it is still the dead one's; another's, renamed by a race, is put back.
 */
function clearDeadTakeover(takeover: string): void {
  const holder = readHolder(takeover)
  if (holder === 'gone' || !holder || holder.host !== hostname() || processAlive(holder.pid)) return
  const aside = `${takeover}.${process.pid}.${Date.now()}.tmp`
  try {
    renameSync(takeover, aside)
  } catch {
    return
  }
  const moved = readHolder(aside)
  if (moved !== 'gone' && moved?.text !== holder.text) {
    try {
      linkSync(aside, takeover)
    } catch {
      // Another takeover began meanwhile; the one whose file this was finds its lock checked again anyway.
    }
  }
  removeFile(aside)
}

function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)
}

/** Removes a file, gone already or not (a plain unlink: `rmSync` walks a general path first). */
function removeFile(path: string): void {
  try {
    unlinkSync(path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
}

/** The lock's holder; null when its text is not a lock's (held by a writer we cannot check); 'gone' when there is no lock. */
function readHolder(path: string): Holder | null | 'gone' {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'gone' : null
  }
  try {
    const parsed = JSON.parse(text) as { pid?: unknown; host?: unknown }
    if (typeof parsed.pid === 'number' && typeof parsed.host === 'string')
      return { pid: parsed.pid, host: parsed.host, text }
  } catch {
    // garbage: a writer we cannot check
  }
  return null
}
