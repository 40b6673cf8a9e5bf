import { stat } from 'node:fs/promises'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { InputError } from '../core/errors.js'
import { makeFolder } from './fs-errors.js'
import { assertWritableTarget } from './write-atomic.js'

export interface PlannedOutput {
  /** How the user named it, for messages: `--output`, `runs.jsonl beside --output-json`… */
  label: string
  path: string
}

/** Where a CLI command's report folder and its files are: absolute paths, every file inside `dir`. */
export interface ReportPaths {
  dir: string
  markdown: string
  html: string
  json: string
  runs: string
}

/**
 * The outputs of a CLI report from its flags: the Markdown (`--output`, default `reports/NAME.md`), the JSON
 * (`--output-json`, default `reports/NAME.json`), whose folder is the report folder, the HTML (`--output-html`,
 * default `NAME.html` beside the JSON), and the runs.jsonl and manifest.json beside the JSON.
 */
export function cliReportOutputs(
  cwd: string,
  flags: { output?: string | undefined; 'output-json'?: string | undefined; 'output-html'?: string | undefined },
  name: string,
): { paths: ReportPaths; outputs: PlannedOutput[] } {
  const json = resolve(cwd, flags['output-json'] ?? `reports/${name}.json`)
  const dir = dirname(json)
  const paths = {
    dir,
    markdown: resolve(cwd, flags.output ?? `reports/${name}.md`),
    html: flags['output-html'] ? resolve(cwd, flags['output-html']) : join(dir, `${name}.html`),
    json,
    runs: join(dir, 'runs.jsonl'),
  }
  return {
    paths,
    outputs: [
      { label: '--output', path: paths.markdown },
      { label: '--output-json', path: paths.json },
      { label: 'runs.jsonl (beside --output-json)', path: paths.runs },
      { label: 'manifest.json (beside --output-json)', path: join(dir, 'manifest.json') },
      { label: '--output-html', path: paths.html },
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
  const first = await makeFolder(dir, 'the report folder')
  const info = await stat(dir).catch(() => null)
  if (!info?.isDirectory()) throw new InputError(`${dir}: not a folder`)
  return first
}
