import { readFile, stat } from 'node:fs/promises'
import { basename, dirname, extname, join, relative, resolve, sep } from 'node:path'
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

/** Where a command's report goes when no output flag is given: its own folder, so no command overwrites another's. */
export interface ReportDefaults {
  /** The command's folder, relative to the working directory: `reports/run`, `reports/qa`. */
  folder: string
  /** The base name of its files: `report` → report.md, report.json, report.html. */
  name: string
}

/**
 * The outputs of a CLI report from its flags. The report folder is the folder of `--output-json`, else of
 * `--output`, else the command's own folder (`reports/run/`, `reports/qa/`). The files take the base name of
 * `--output` (else of `--output-json`, else the command's): `--output r.md` → r.md, r.json, r.html, with
 * runs.jsonl and manifest.json beside them. `--output-html` moves the page (inside the folder).
 */
export function cliReportOutputs(
  cwd: string,
  flags: { output?: string | undefined; 'output-json'?: string | undefined; 'output-html'?: string | undefined },
  defaults: ReportDefaults,
): { paths: ReportPaths; outputs: PlannedOutput[] } {
  const given = (path: string | undefined) => (path === undefined ? undefined : resolve(cwd, path))
  const markdownFlag = given(flags.output)
  const jsonFlag = given(flags['output-json'])
  const htmlFlag = given(flags['output-html'])
  const dir = jsonFlag ? dirname(jsonFlag) : markdownFlag ? dirname(markdownFlag) : resolve(cwd, defaults.folder)
  const named = markdownFlag ?? jsonFlag
  const name = named ? basename(named, extname(named)) : defaults.name
  const paths = {
    dir,
    markdown: markdownFlag ?? join(dir, `${name}.md`),
    html: htmlFlag ?? join(dir, `${name}.html`),
    json: jsonFlag ?? join(dir, `${name}.json`),
    runs: join(dir, 'runs.jsonl'),
  }
  const beside = flags['output-json'] ? 'beside --output-json' : flags.output ? 'beside --output' : 'in the report folder'
  return {
    paths,
    outputs: [
      { label: '--output', path: paths.markdown },
      { label: '--output-json', path: paths.json },
      { label: `runs.jsonl (${beside})`, path: paths.runs },
      { label: `manifest.json (${beside})`, path: join(dir, 'manifest.json') },
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
  await refuseAnotherReport(dir, outputs)
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

/** What a report's writer adds to its own folder beside the planned outputs: the GitHub comment. */
const OWN_EXTRAS = ['pr-comment.md']

/**
 * Refuses a folder whose manifest.json lists files this report would not rewrite: another command's report (a
 * run's report.json where qa would write qa.json), an export. The new manifest would drop them and runs.jsonl
 * would no longer be theirs, so `verify` would fail on the folder.
 */
async function refuseAnotherReport(dir: string, outputs: readonly PlannedOutput[]): Promise<void> {
  const ours = new Set([...outputs.map((o) => relative(dir, o.path).split(sep).join('/')), ...OWN_EXTRAS])
  const others = (await listedFiles(dir)).filter((file) => !ours.has(file))
  if (others.length === 0) return
  const shown = others.length > 3 ? `${others.slice(0, 3).join(', ')} and ${others.length - 3} more` : others.join(', ')
  throw new InputError(
    `${dir} holds another report: its manifest.json lists ${shown}, which this report would not rewrite; ` +
      'give it a folder of its own (--output DIR/NAME.md) or remove that report first',
  )
}

/** The files a folder's manifest.json lists; none when it has no readable manifest (nothing to protect). */
async function listedFiles(dir: string): Promise<string[]> {
  const text = await readFile(join(dir, 'manifest.json'), 'utf8').catch(() => null)
  if (text === null) return []
  try {
    const files = (JSON.parse(text) as { files?: unknown }).files
    return Array.isArray(files) ? files.map((f) => (f as { path?: unknown })?.path).filter((p): p is string => typeof p === 'string') : []
  } catch {
    return []
  }
}
