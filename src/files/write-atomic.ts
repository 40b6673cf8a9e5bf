import { closeSync, fsyncSync, openSync } from 'node:fs'
import { lstat, mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { InputError } from '../core/errors.js'

/**
 * The one home of atomic writes. A temp file is named `.NAME.PID.STAMP.tmp` beside its target, so a run that
 * was killed (-9) before its rename leaves a file the next writer of that folder recognizes and removes.
 */
const TEMP_PATTERN = /^\..+\.(\d+)\.\d+\.tmp$/

function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}${Math.random().toString().slice(2, 8)}.tmp`)
}

/** Writes via a temp file in the same folder and a rename, so readers never see half a file. */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  await commitFiles(new Map([[path, data]]))
}

/**
 * Refuses a target that is not a regular file (a folder, device, FIFO, socket) or is a symlink: an atomic
 * rename would replace the link or the special file, never write through it.
 */
export async function assertWritableTarget(path: string, what = path): Promise<void> {
  const info = await lstat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return null
    throw new InputError(`${what}: cannot check (${error.code ?? error.message})`)
  })
  if (!info || info.isFile()) return
  if (info.isSymbolicLink()) throw new InputError(`${what}: is a symlink; refusing to replace it (give the path it points to)`)
  const kind = info.isDirectory() ? 'a folder' : info.isFIFO() ? 'a FIFO' : info.isSocket() ? 'a socket' : 'a device or special file'
  throw new InputError(`${what}: is ${kind}, not a regular file; refusing to write it`)
}

/**
 * Writes several files as one unit: every file goes to a temp file first (flushed); only when all are on disk
 * are they renamed into place, in the given order (put a manifest last). A failure before the renames removes
 * the temp files and leaves nothing new.
 */
export async function commitFiles(files: ReadonlyMap<string, string | Uint8Array>): Promise<void> {
  const staged: Array<{ tmp: string; path: string }> = []
  try {
    for (const [path, data] of files) {
      await assertWritableTarget(path)
      await mkdir(dirname(path), { recursive: true })
      const tmp = tempPathFor(path)
      staged.push({ tmp, path })
      await writeFile(tmp, data, { flag: 'wx' })
      flush(tmp)
    }
  } catch (error) {
    await Promise.all(staged.map(({ tmp }) => rm(tmp, { force: true })))
    throw error
  }
  for (const { tmp, path } of staged) await rename(tmp, path)
}

function flush(path: string): void {
  const fd = openSync(path, 'r')
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}

/** Removes temp files left in `dir` by writers that are no longer running (a kill -9 between write and rename). */
export async function removeStaleTemps(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[])
  const removed: string[] = []
  for (const name of names) {
    const pid = TEMP_PATTERN.exec(name)?.[1]
    if (pid === undefined || processAlive(Number(pid))) continue
    await rm(join(dir, name), { force: true })
    removed.push(name)
  }
  return removed
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
