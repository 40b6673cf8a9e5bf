import { stat } from 'node:fs/promises'
import { basename, dirname, extname, join, relative, resolve, sep } from 'node:path'
import { InputError } from '../core/errors.js'
import { makeFolder } from './fs-errors.js'
import { assertWritableTarget } from './write-atomic.js'

export interface PlannedOutput {
  /** How the user named it, for messages: `--output`, `runs.jsonl beside --output-json`… */
  label: string
  path: string
}

/**
 * The stem whose runs file and journal keep the names of the layout before reports were named per stem
 * (runs.jsonl, run.partial.json, runs.partial.jsonl): `run`'s default report and the reporters' folders are
 * named `report`, so their folders, and the scripts that read them, stay as they were.
 */
export const LEGACY_STEM = 'report'
export const LEGACY_RUNS_FILE = 'runs.jsonl'

/**
 * The files of the report named `stem` in its folder: `smoke` → smoke.md, smoke.json, smoke.html,
 * smoke.runs.jsonl, and while a run works smoke.run.partial.json and smoke.runs.partial.jsonl. One folder holds
 * any number of reports. The stem `report` keeps runs.jsonl, run.partial.json and runs.partial.jsonl. Runs that
 * kept transcripts add smoke.transcripts.jsonl (transcripts.jsonl for `report`), journaled in
 * smoke.transcripts.partial.jsonl while the run works.
 */
export function stemFiles(stem: string): {
  markdown: string
  json: string
  html: string
  runs: string
  plan: string
  journal: string
  transcripts: string
  transcriptsJournal: string
} {
  const legacy = stem === LEGACY_STEM
  return {
    markdown: `${stem}.md`,
    json: `${stem}.json`,
    html: `${stem}.html`,
    runs: legacy ? LEGACY_RUNS_FILE : `${stem}.runs.jsonl`,
    plan: legacy ? 'run.partial.json' : `${stem}.run.partial.json`,
    journal: legacy ? 'runs.partial.jsonl' : `${stem}.runs.partial.jsonl`,
    // The trials' transcripts (core/transcript.ts), one line per transcript a record names.
    transcripts: legacy ? 'transcripts.jsonl' : `${stem}.transcripts.jsonl`,
    transcriptsJournal: legacy ? 'transcripts.partial.jsonl' : `${stem}.transcripts.partial.jsonl`,
  }
}

/**
 * The stem of a report's dated copy (`--timestamp`): `smoke` and a run started 2026-12-03T07:12:05.123Z →
 * `smoke.2026-12-03T071205Z`. UTC to the second, so copies sort by time and never replace one another.
 */
export function timestampedStem(stem: string, runDateUtc: string): string {
  const stamp = runDateUtc.replace(/\.\d+Z$/, 'Z').replace(/:/g, '')
  return `${stem}.${stamp}`
}

/** The stem of a report file's name: `smoke.md`, `smoke.json`, `smoke.runs.jsonl` → `smoke`; `runs.jsonl` → `report`. */
export function stemOf(fileName: string): string {
  if (fileName === LEGACY_RUNS_FILE) return LEGACY_STEM
  if (fileName.endsWith('.runs.jsonl')) return fileName.slice(0, -'.runs.jsonl'.length)
  return basename(fileName, extname(fileName))
}

/** Where a CLI command's report folder and its files are: absolute paths, every file inside `dir`. */
export interface ReportPaths {
  dir: string
  /** The report's name: every file of the report carries it (`stemFiles`). */
  stem: string
  markdown: string
  html: string
  json: string
  runs: string
}

/** Where a command's report goes when no output flag is given: its own folder, so no command overwrites another's. */
interface ReportDefaults {
  /** The command's folder, relative to the working directory: `reports/run`, `reports/qa`. */
  folder: string
  /** The base name of its files: `report` → report.md, report.json, report.html. */
  name: string
}

/**
 * The outputs of a CLI report from its flags. The report folder is the folder of `--output-json`, else of
 * `--output`, else the command's own folder (`reports/run/`, `reports/qa/`). The stem is the base name of
 * `--output` (else of `--output-json`, else the command's): `--output r.md` → r.md, r.json, r.html, r.runs.jsonl,
 * with the folder's manifest.json beside them. `--output-html` moves the page (inside the folder).
 */
export function cliReportOutputs(
  cwd: string,
  flags: { output?: string | undefined; 'output-json'?: string | undefined; 'output-html'?: string | undefined },
  defaults: ReportDefaults,
): { paths: ReportPaths; outputs: PlannedOutput[] } {
  const given = (path: string | undefined) => (path === undefined ? undefined : resolve(cwd, path))
  refuseRecordExtension('--output', flags.output, ['.json', '.jsonl'])
  refuseRecordExtension('--output-json', flags['output-json'], ['.jsonl'])
  refuseRecordExtension('--output-html', flags['output-html'], ['.json', '.jsonl'])
  const markdownFlag = given(flags.output)
  const jsonFlag = given(flags['output-json'])
  const htmlFlag = given(flags['output-html'])
  const dir = jsonFlag ? dirname(jsonFlag) : markdownFlag ? dirname(markdownFlag) : resolve(cwd, defaults.folder)
  const named = markdownFlag ?? jsonFlag
  const stem = named ? basename(named, extname(named)) : defaults.name
  const files = stemFiles(stem)
  const paths = {
    dir,
    stem,
    markdown: markdownFlag ?? join(dir, files.markdown),
    html: htmlFlag ?? join(dir, files.html),
    json: jsonFlag ?? join(dir, files.json),
    runs: join(dir, files.runs),
  }
  const beside = flags['output-json']
    ? 'beside --output-json'
    : flags.output
      ? 'beside --output'
      : 'in the report folder'
  return {
    paths,
    outputs: [
      { label: '--output', path: paths.markdown },
      { label: '--output-json', path: paths.json },
      { label: `${files.runs} (${beside})`, path: paths.runs },
      { label: `manifest.json (${beside})`, path: join(dir, 'manifest.json') },
      { label: '--output-html', path: paths.html },
    ],
  }
}

/**
 * A report folder's manifest reads every .json file as a report and every .jsonl file as run records, so a page
 * or a Markdown report may not take those names (nor the JSON report .jsonl).
 */
function refuseRecordExtension(flag: string, path: string | undefined, refused: readonly string[]): void {
  const ext = path === undefined ? '' : extname(path).toLowerCase()
  if (refused.includes(ext)) {
    throw new InputError(
      `${flag} ${path}: a report folder reads ${ext} files as ${ext === '.json' ? 'JSON reports' : 'run records'}; give this file another name (${flag === '--output-json' ? 'NAME.json' : flag === '--output' ? 'NAME.md' : 'NAME.html'})`,
    )
  }
}

/**
 * Checks every output of a report folder before any work: no two share a path, none is a folder, symlink or
 * special file, every one lies inside `dir` (so the folder's manifest can list it), and `dir` exists or can be
 * created. Other reports in the folder stay: the manifest written with this one lists theirs too. Writability
 * is proven by the caller taking the folder's lock. Throws an InputError naming the output.
 * Returns the folders it created, deepest first, so a run that stops before writing can take them back.
 */
export async function checkReportOutputs(dir: string, outputs: readonly PlannedOutput[]): Promise<string[]> {
  const seen = new Map<string, string>()
  for (const output of outputs) {
    const other = seen.get(output.path)
    if (other)
      throw new InputError(`${output.label} and ${other} are the same file (${output.path}); give each its own path`)
    seen.set(output.path, output.label)
    const rel = relative(dir, output.path)
    if (rel === '' || rel.startsWith(`..${sep}`) || rel === '..' || rel.startsWith(sep)) {
      throw new InputError(
        `${output.label} (${output.path}) is outside the report folder ${dir}; put it there so its manifest.json can cover it`,
      )
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
