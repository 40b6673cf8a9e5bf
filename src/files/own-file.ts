import { closeSync, constants, fstatSync, ftruncateSync, lstatSync, openSync, type Stats } from 'node:fs'
import { InputError } from '../core/errors.js'
import { writeFailure } from './fs-errors.js'

/*
 * Files a run writes in place (the journal), never by rename: they must be the folder's own. A symlink, a hard
 * link (a second name of another file) or a special file would make a write land somewhere else, so each is
 * refused with an InputError naming the file. The open itself does not follow a link (O_NOFOLLOW), so a link
 * put there between the check and the open is refused too.
 */

/** Why `info` is not a file of the folder's own, or null when it is one. */
function notOwn(info: Stats): string | null {
  if (info.isSymbolicLink()) return 'is a symlink'
  if (!info.isFile())
    return info.isDirectory()
      ? 'is a folder'
      : info.isFIFO()
        ? 'is a FIFO'
        : info.isSocket()
          ? 'is a socket'
          : 'is a device or special file'
  if (info.nlink > 1) return `is a hard link (${info.nlink} names for one file)`
  return null
}

function refusal(path: string, why: string): InputError {
  return new InputError(`${path}: ${why}; refusing to write through it (remove it, or start over in another folder)`)
}

/** Whether `path` exists as the folder's own regular file (false when absent); an InputError when it is anything else. */
export function checkOwnFile(path: string): boolean {
  let info: Stats
  try {
    info = lstatSync(path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false
    throw writeFailure(error, path, 'cannot check')
  }
  const why = notOwn(info)
  if (why) throw refusal(path, why)
  return true
}

type OwnFileMode = 'truncate' | 'append' | 'read-write'

const MODE_FLAGS: Record<OwnFileMode, number> = {
  // Truncated only once checked (ftruncate below): O_TRUNC would empty a hard link's other file first.
  truncate: constants.O_WRONLY | constants.O_CREAT,
  append: constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND,
  'read-write': constants.O_RDWR,
}

/**
 * Opens the folder's own file without following a link (a FIFO opens without blocking and is then refused).
 * Returns the descriptor; an InputError naming the file when it is a link or not a regular file.
 */
export function openOwnFile(path: string, mode: OwnFileMode, doing = 'cannot open'): number {
  let fd: number
  try {
    fd = openSync(path, MODE_FLAGS[mode] | constants.O_NOFOLLOW | constants.O_NONBLOCK, 0o644)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw refusal(path, 'is a symlink')
    throw writeFailure(error, path, doing)
  }
  const why = notOwn(fstatSync(fd))
  if (why) {
    closeSync(fd)
    throw refusal(path, why)
  }
  if (mode === 'truncate') ftruncateSync(fd, 0)
  return fd
}
