import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { InputError } from '../../core/errors.js'
import { writeRunsParquet } from '../../report-builder/parquet.js'
import { readRunRecords } from '../../files/read-runs.js'
import { type Command, shownPath } from '../io.js'
import { manifestNote } from '../report-output.js'
import { counted } from '../../stats/number-format.js'

const EXPORT_HELP = `Usage: dataforge-evals export RUNS --parquet OUT.parquet

Writes the RunRecords of RUNS (runs.jsonl, report.json, or a folder holding one) as a Parquet file that
DuckDB, pandas and Polars read: one row per run, nested fields flattened to columns (usage_*, detection_*,
datasetSha256_*), lists and maps (fixes, diagnostics, perColumn, perKind, metrics, warnings) as JSON strings.
In a report folder (one holding manifest.json) the file is added to that manifest, and a new or empty folder
gets one, so \`verify\` covers it; any other folder gets the Parquet file alone. The line printed names every
file written, the manifest included.
`

export const exportCommand: Command = async (argv, io) => {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { parquet: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  })
  if (values.help) {
    io.stdout(EXPORT_HELP)
    return 0
  }
  if (positionals.length !== 1) throw new InputError('export needs one RUNS input; see export --help')
  if (!values.parquet) throw new InputError('export needs --parquet OUT.parquet (the only format so far)')
  const records = await readRunRecords(resolve(io.cwd, positionals[0]!))
  const out = resolve(io.cwd, values.parquet)
  const written = await writeRunsParquet(out, records)
  io.stdout(
    `wrote ${shownPath(io.cwd, out)}: ${counted(written.rows, 'row')}, ${counted(written.bytes, 'byte')}${manifestNote(io.cwd, written)}\n`,
  )
  return 0
}
