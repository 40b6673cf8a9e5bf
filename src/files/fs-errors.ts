import { mkdir, stat } from 'node:fs/promises'
import { dirname } from 'node:path'
import { InputError } from '../core/errors.js'

/**
 * Errors of the machine, not of the harness: a full disk, a read-only folder, missing permissions. The CLI
 * names them on one line (exit 2) with the file they hit, never as an "internal error".
 */
const ENVIRONMENT_CODES: Record<string, string> = {
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EROFS: 'read-only file system',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EFBIG: 'file too large',
  EIO: 'input/output error',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files in the system',
}

/** `no space left on device (ENOSPC)` for a known errno code, else the code (or the message). */
export function fsProblem(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code
  if (typeof code === 'string') return ENVIRONMENT_CODES[code] ? `${ENVIRONMENT_CODES[code]} (${code})` : code
  return error instanceof Error ? error.message : String(error)
}

export function isEnvironmentError(error: unknown): error is NodeJS.ErrnoException {
  const code = (error as NodeJS.ErrnoException | null)?.code
  return typeof code === 'string' && code in ENVIRONMENT_CODES
}

/** An environment error while writing `path` as an InputError naming the path; anything else as it was. */
export function writeFailure(error: unknown, path: string, doing = 'cannot write'): unknown {
  return isEnvironmentError(error) ? new InputError(`${path}: ${doing}: ${fsProblem(error)}`) : error
}

/**
 * `mkdir -p` whose failure says why. Node's recursive mkdir reports ENOENT for a folder it cannot create
 * under a read-only mount; this retries the first missing level on its own to get the real code.
 * Returns the first folder created, if any.
 */
export async function makeFolder(dir: string, noun = 'the folder', shown = dir): Promise<string | undefined> {
  try {
    return await mkdir(dir, { recursive: true })
  } catch (error) {
    throw new InputError(`${shown}: cannot create ${noun}: ${fsProblem(await realMkdirError(dir, error))}`)
  }
}

async function realMkdirError(dir: string, error: unknown): Promise<unknown> {
  if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return error
  let missing = dir
  for (let parent = dirname(missing); parent !== missing; missing = parent, parent = dirname(parent)) {
    if (
      await stat(parent).then(
        () => true,
        () => false,
      )
    )
      break
  }
  try {
    await mkdir(missing)
    return error
  } catch (real) {
    return real
  }
}
