import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { InputError } from '../core/errors.js'
import { fsProblem } from './fs-errors.js'
import { processAlive } from './write-atomic.js'

export const LOCK_FILE = '.dataforge.lock'

export interface FolderLock {
  path: string
  /** Removes the lock; safe to call more than once and from a signal handler (synchronous). */
  release(): void
}

/**
 * Takes `dir/.dataforge.lock` (created exclusively, holding pid and host). A lock held by a live process on
 * this host is an InputError naming the lock; one left by a process that no longer runs (kill -9) is taken over.
 * Creating it is also the proof that the folder is writable.
 */
export function lockFolder(dir: string): FolderLock {
  const path = join(dir, LOCK_FILE)
  for (let attempt = 0; attempt < 2; attempt++) {
    let fd: number
    try {
      fd = openSync(path, 'wx')
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code !== 'EEXIST') throw new InputError(`${dir}: cannot write in this folder: ${fsProblem(error)}`)
      const holder = readHolder(path)
      if (!holder || holder.host !== hostname() || processAlive(holder.pid)) {
        const who = holder ? `pid ${holder.pid} on ${holder.host}` : 'unknown writer'
        throw new InputError(`${path}: another run (${who}) is writing this folder; wait for it, or remove the lock if that run is gone`)
      }
      removeLock(path)
      continue
    }
    writeSync(fd, `${JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString() })}\n`)
    closeSync(fd)
    let released = false
    return {
      path,
      release() {
        if (released) return
        released = true
        removeLock(path)
      },
    }
  }
  throw new InputError(`${path}: cannot take the lock (another run keeps taking it)`)
}

/** Removes the lock file, gone already or not (a plain unlink: `rmSync` walks a general path first). */
function removeLock(path: string): void {
  try {
    unlinkSync(path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
}

function readHolder(path: string): { pid: number; host: string } | null {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as { pid?: unknown; host?: unknown }
    if (typeof parsed.pid === 'number' && typeof parsed.host === 'string') return { pid: parsed.pid, host: parsed.host }
  } catch {
    // A lock being written this instant, or garbage: held by a writer we cannot check.
  }
  return null
}
