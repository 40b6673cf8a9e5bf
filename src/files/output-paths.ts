import { mkdir, stat } from 'node:fs/promises'
import { dirname, join, relative, sep } from 'node:path'
import { InputError } from '../core/errors.js'
import { assertWritableTarget } from './write-atomic.js'

export interface PlannedOutput {
  /** How the user named it, for messages: `--output`, `runs.jsonl beside --output-json`… */
  label: string
  path: string
}

/**
 * The outputs of a CLI report: the Markdown (`--output`), the JSON (`--output-json`), and the runs.jsonl and
 * manifest.json beside the JSON, whose folder is the report folder.
 */
export function cliReportOutputs(markdownPath: string, jsonPath: string): { dir: string; runsPath: string; outputs: PlannedOutput[] } {
  const dir = dirname(jsonPath)
  const runsPath = join(dir, 'runs.jsonl')
  return {
    dir,
    runsPath,
    outputs: [
      { label: '--output', path: markdownPath },
      { label: '--output-json', path: jsonPath },
      { label: 'runs.jsonl (beside --output-json)', path: runsPath },
      { label: 'manifest.json (beside --output-json)', path: join(dir, 'manifest.json') },
    ],
  }
}

/**
 * Checks every output of a report folder before any work: no two share a path, none is a folder, symlink or
 * special file, every one lies inside `dir` (so the folder's manifest can list it), and `dir` exists or can be
 * created. Writability is proven by the caller taking the folder's lock. Throws an InputError naming the output.
 * Returns the folders it created, deepest first, so a run that stops before writing can take them back.
 */
export async function checkReportOutputs(dir: string, outputs: readonly PlannedOutput[]): Promise<string[]> {
  const seen = new Map<string, string>()
  for (const output of outputs) {
    const other = seen.get(output.path)
    if (other) throw new InputError(`${output.label} and ${other} are the same file (${output.path}); give each its own path`)
    seen.set(output.path, output.label)
    const rel = relative(dir, output.path)
    if (rel === '' || rel.startsWith(`..${sep}`) || rel === '..' || rel.startsWith(sep)) {
      throw new InputError(`${output.label} (${output.path}) is outside the report folder ${dir}; put it there so its manifest.json can cover it`)
    }
    await assertWritableTarget(output.path, `${output.label} (${output.path})`)
  }
  const created: string[] = []
  for (const folder of [dir, ...new Set(outputs.map((o) => dirname(o.path)))]) {
    const first = await ensureFolder(folder)
    if (first) for (let d = folder; d.length >= first.length; d = dirname(d)) created.unshift(d)
  }
  return created.sort((a, b) => b.length - a.length)
}

/** Creates `dir` as needed; returns the first folder it created, if any. */
async function ensureFolder(dir: string): Promise<string | undefined> {
  let first: string | undefined
  try {
    first = await mkdir(dir, { recursive: true })
  } catch (error) {
    throw new InputError(`${dir}: cannot create the report folder (${(error as NodeJS.ErrnoException).code ?? String(error)})`)
  }
  const info = await stat(dir).catch(() => null)
  if (!info?.isDirectory()) throw new InputError(`${dir}: not a folder`)
  return first
}
