import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { lstat, open, readdir, rename, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { InputError } from '../core/errors.js'
import { makeFolder, writeFailure } from './fs-errors.js'

/**
 * The one home of atomic writes. A temp file is named `.NAME.PID.STAMP.tmp` beside its target, so a run that
 * was killed (-9) before its rename leaves a file the next writer of that folder recognizes and removes.
 */
const TEMP_PATTERN = /^\..+\.(\d+)\.\d+\.tmp$/

function tempPathFor(path: string): string {
  return join(
    dirname(path),
    `.${basename(path)}.${process.pid}.${Date.now()}${Math.random().toString().slice(2, 8)}.tmp`,
  )
}

/** Writes via a temp file in the same folder and a rename, so readers never see half a file. */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  await commitFiles(new Map([[path, data]]))
}

/**
 * `writeFileAtomic` for a caller that cannot wait (a cache written from a synchronous step): no flush, and the
 * temp file is removed when the write fails. Throws what the file system threw.
 */
export function writeFileAtomicSync(path: string, data: string | Uint8Array): void {
  const tmp = tempPathFor(path)
  try {
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(tmp, data)
    renameSync(tmp, path)
  } catch (error) {
    try {
      rmSync(tmp, { force: true })
    } catch {}
    throw error
  }
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
  if (info.isSymbolicLink())
    throw new InputError(`${what}: is a symlink; refusing to replace it (give the path it points to)`)
  const kind = info.isDirectory()
    ? 'a folder'
    : info.isFIFO()
      ? 'a FIFO'
      : info.isSocket()
        ? 'a socket'
        : 'a device or special file'
  throw new InputError(`${what}: is ${kind}, not a regular file; refusing to write it`)
}

/**
 * Writes several files as one unit: every file goes to a temp file first (flushed); only when all are on disk
 * are they renamed into place, the last one given after all the others (put a manifest last). The files are
 * staged at once, so their writes and flushes overlap. A failure before the renames removes the temp files and
 * leaves nothing new; the error thrown is that of the first file (in the given order) that failed.
 */
export async function commitFiles(files: ReadonlyMap<string, string | Uint8Array>): Promise<void> {
  const staged = stageFiles()
  for (const [path, data] of files) staged.add(path, data)
  await staged.commit()
}

/** Files being staged one by one as they become ready, then committed as one unit (see `commitFiles`). */
interface StagedFiles {
  /** Starts writing `data` to a temp file beside `path` at once; a failure surfaces in `commit`. */
  add(path: string, data: string | Uint8Array): void
  /** Waits for every staged file, then renames them into place, the last added after all the others. */
  commit(): Promise<void>
  /** Removes the temp files (after any write in progress ends): what a writer calls when it cannot finish. */
  abort(): Promise<void>
}

/**
 * `commitFiles` for writers that produce their files one after another (render one, stage it, render the next):
 * each file's write and flush run while the next is produced. On a failed staging `commit` removes the temp
 * files itself; a writer that fails before committing calls `abort`.
 */
export function stageFiles(): StagedFiles {
  const files: Array<{ path: string; tmp: string; created: boolean; failure: Promise<{ error: unknown } | null> }> = []
  const removeTemps = async () => {
    await Promise.all(files.map((f) => f.failure))
    await Promise.allSettled(files.filter((f) => f.created).map(({ tmp }) => rm(tmp, { force: true })))
  }
  return {
    add(path, data) {
      const file = { path, data, tmp: tempPathFor(path), created: false }
      // Settled at once into a value: a staging that fails before `commit` is awaited is no unhandled rejection.
      const failure = stage(file).then(
        () => null,
        (error: unknown) => ({ error }),
      )
      files.push(Object.assign(file, { failure }))
    },
    async commit() {
      const failures = await Promise.all(files.map((f) => f.failure))
      const failed = failures.find((f) => f !== null)
      if (failed) {
        await removeTemps()
        throw failed.error
      }
      const last = files.at(-1)
      const place = ({ tmp, path }: { tmp: string; path: string }) =>
        rename(tmp, path).catch((error: unknown) => Promise.reject(writeFailure(error, path)))
      await Promise.all(files.slice(0, -1).map(place))
      if (last) await place(last)
    },
    abort: removeTemps,
  }
}

async function stage(file: { path: string; tmp: string; data: string | Uint8Array; created: boolean }): Promise<void> {
  const { path, tmp, data } = file
  await assertWritableTarget(path)
  await makeFolder(dirname(path))
  try {
    const handle = await open(tmp, 'wx')
    file.created = true
    try {
      await handle.writeFile(data)
      await handle.sync()
    } finally {
      await handle.close()
    }
  } catch (error) {
    throw writeFailure(error, path)
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
