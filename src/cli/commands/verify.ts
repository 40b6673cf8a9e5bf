import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { InputError } from '../../core/errors.js'
import { verifyDir } from '../../report-builder/manifest.js'
import type { Command } from '../io.js'
import { terminalText } from '../../core/escape-text.js'

export const VERIFY_HELP = `Usage: dataforge-evals verify DIR

Re-derives what DIR/manifest.json claims (each file's size and sha256, RunRecord row counts and validity,
report.json records equal to runs.jsonl rows, config ids) and fails on any mismatch.
Exit codes: 0 all verified, 1 a mismatch (each printed on stderr), 2 DIR is not a folder.
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
  const dir = resolve(io.cwd, positionals[0]!)
  const result = await verifyDir(dir)
  if (result.ok) {
    io.stdout(`verified ${positionals[0]}: ${result.files} files match manifest.json\n`)
    return 0
  }
  for (const problem of result.problems) io.stderr(`dataforge-evals verify: ${terminalText(problem)}\n`)
  io.stderr(`dataforge-evals verify: ${positionals[0]}: ${result.problems.length} problem(s)\n`)
  return 1
}
