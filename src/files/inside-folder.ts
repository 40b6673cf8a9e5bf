import { realpathSync } from 'node:fs'
import { isAbsolute, relative } from 'node:path'
import { InputError } from '../core/errors.js'

/**
 * The real path of a file read from a data folder, refused (an InputError naming the file) when it leads out of
 * the folder: a symlink to a file elsewhere (another suite's labels, a key, a clean table) is never read and
 * never sent to an agent. Links that stay inside the folder are followed. Returns null when the file does not
 * exist, so the caller says what is missing in its own words. Read the returned path, not `path`.
 */
export function realPathInside(root: string, path: string, where = path): string | null {
  let real: string
  try {
    real = realpathSync(path)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return null
    throw new InputError(`${where}: cannot read (${code ?? String(error)})`)
  }
  const realRoot = realpathSync(root)
  const inside = relative(realRoot, real)
  if (inside === '' || inside === '..' || inside.startsWith('../') || isAbsolute(inside)) {
    throw new InputError(
      `${where}: leads out of the data folder ${root} (a link to ${real}); a data folder's files must be inside it`,
    )
  }
  return real
}
