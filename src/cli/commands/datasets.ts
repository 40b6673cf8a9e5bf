import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { InputError } from '../../core/errors.js'
import { pullDataset } from '../../datasets/pull.js'
import type { Command } from '../io.js'

const DATASETS_HELP = `Usage: dataforge-evals datasets pull NAME [--data-dir DIR] [--base-url URL]

Downloads hospital, flights or beers from a pinned upstream revision into DIR/NAME/{dirty,clean}.csv
(default $DATAFORGE_DATA_DIR or ./data), checking each file's sha256 before writing it. The four canonical
sets already ship with the package; pull refreshes them. --base-url (or $DATAFORGE_DATASETS_BASE_URL)
overrides where they come from.
`

export const datasetsCommand: Command = async (argv, io) => {
  const [sub, ...rest] = argv
  if (sub === '--help' || sub === '-h' || sub === 'help') {
    io.stdout(DATASETS_HELP)
    return 0
  }
  if (sub !== 'pull')
    throw new InputError(
      `datasets: unknown subcommand "${sub ?? ''}"; usage: dataforge-evals datasets pull NAME [--data-dir DIR] [--base-url URL]`,
    )
  const { values, positionals } = parseArgs({
    args: rest,
    options: { 'data-dir': { type: 'string' }, 'base-url': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
    strict: true,
  })
  if (values.help) {
    io.stdout(DATASETS_HELP)
    return 0
  }
  if (positionals.length !== 1)
    throw new InputError('datasets pull: name exactly one dataset (hospital, flights or beers)')
  const dataDir = resolve(io.cwd, values['data-dir'] ?? io.env.DATAFORGE_DATA_DIR ?? 'data')
  const baseUrl = values['base-url'] ?? io.env.DATAFORGE_DATASETS_BASE_URL
  const { files } = await pullDataset(positionals[0]!, {
    dataDir,
    ...(baseUrl ? { baseUrl } : {}),
    log: (line) => io.stderr(`${line}\n`),
  })
  for (const f of files) io.stdout(`${f}\n`)
  return 0
}
