import { readdir, stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { InputError } from '../../core/errors.js'
import { MANIFEST_FILE } from '../../report-builder/manifest-build.js'
import { NEVER_WALKED, verifyDir } from '../../report-builder/manifest.js'
import type { Command } from '../io.js'
import { counted } from '../../stats/number-format.js'
import { terminalText } from '../../core/escape-text.js'

const VERIFY_HELP = `Usage: dataforge-evals verify DIR

Re-derives what DIR/manifest.json claims for every report in the folder (each file's size and sha256,
RunRecord row counts and validity, each report's JSON records equal to its runs file's rows: NAME.json and
NAME.runs.jsonl, report.json and runs.jsonl; config ids) and fails on any mismatch. DIR is a report folder
(reports/run, reports/qa, evals/__reports__, …); .git and node_modules inside it are never walked.
Exit codes: 0 all verified, 1 a mismatch (each printed on stderr), 2 DIR is not a report folder (no manifest.json).
`

export const verifyCommand: Command = async (argv, io) => {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { help: { type: 'boolean', short: 'h' } },
  })
  if (values.help) {
    io.stdout(VERIFY_HELP)
    return 0
  }
  if (positionals.length !== 1) throw new InputError('verify needs one folder; see verify --help')
  const shown = positionals[0]!
  const dir = resolve(io.cwd, shown)
  if (!(await stat(dir).catch(() => null))?.isDirectory()) throw new InputError(`verify: ${shown}: not a folder`)
  if (!(await stat(join(dir, MANIFEST_FILE)).catch(() => null)))
    throw new InputError(notAReportFolder(shown, await reportFoldersIn(dir)))
  const result = await verifyDir(dir)
  if (result.ok) {
    io.stdout(`verified ${shown}: ${counted(result.files, 'file')} match manifest.json\n`)
    return 0
  }
  for (const problem of result.problems) io.stderr(`dataforge-evals verify: ${terminalText(problem)}\n`)
  io.stderr(`dataforge-evals verify: ${shown}: ${counted(result.problems.length, 'problem')}\n`)
  return 1
}

/** `verify: DIR is not a report folder (no manifest.json)`, naming the report folders just inside it, if any. */
function notAReportFolder(shown: string, inside: readonly string[]): string {
  const hint = inside.length ? `; report folders in it: ${inside.map((name) => join(shown, name)).join(', ')}` : ''
  return `verify: ${shown} is not a report folder (no ${MANIFEST_FILE})${hint}`
}

/** The folders directly inside `dir` that hold a manifest.json. */
async function reportFoldersIn(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => [])
  const folders: string[] = []
  for (const e of entries) {
    if (
      e.isDirectory() &&
      !NEVER_WALKED.has(e.name) &&
      (await stat(join(dir, e.name, MANIFEST_FILE)).catch(() => null))
    )
      folders.push(e.name)
  }
  return folders.sort()
}
