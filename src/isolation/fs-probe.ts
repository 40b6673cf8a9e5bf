import { lstatSync, readdirSync, realpathSync, type Stats, statSync } from 'node:fs'

/** A folder's entries, sorted; none when it cannot be read. */
export function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir).sort()
  } catch {
    return []
  }
}

/** The path's own entry (a link is a link); null when there is none. */
export function safeLstat(path: string): Stats | null {
  try {
    return lstatSync(path)
  } catch {
    return null
  }
}

/** Where a path resolves through links; null when it dangles. */
export function safeRealpath(path: string): string | null {
  try {
    return realpathSync(path)
  } catch {
    return null
  }
}

/** A folder itself, not a link to one. */
export const isRealDir = (path: string): boolean => safeLstat(path)?.isDirectory() === true

/** A regular file itself, not a link to one. */
export const isRealFile = (path: string): boolean => safeLstat(path)?.isFile() === true

/** A folder, or a link to one. */
export function isDirOrLink(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}
