import { dirname, join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { InputError } from '../../core/errors.js'
import { writeRunsParquet } from '../../report-builder/parquet.js'
import { readRunRecords } from '../../files/read-runs.js'
import type { Command } from '../io.js'

export const EXPORT_HELP = `Usage: dataforge-evals export RUNS --parquet OUT.parquet

Writes the RunRecords of RUNS (runs.jsonl, report.json, or a folder holding one) as a Parquet file that
DuckDB, pandas and Polars read: one row per run, nested fields flattened to columns (usage_*, detection_*,
datasetSha256_*), lists and maps (fixes, diagnostics, perColumn, perKind, metrics, warnings) as JSON strings.
The file is added to manifest.json in its folder (created when absent), so \`verify\` covers it.
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
  const { rows, bytes } = await writeRunsParquet(out, records)
  io.stdout(`wrote ${values.parquet}: ${rows} rows, ${bytes} bytes; updated ${join(dirname(values.parquet), 'manifest.json')}\n`)
  return 0
}
