import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { listDatasets } from '../../datasets/list.js'
import type { Command } from '../io.js'
import { table } from '../../report-builder/figure-text.js'
import { comparatorByName } from '../../grading/index.js'

const LIST_DATASETS_HELP = `Usage: dataforge-evals list-datasets [--data-dir DIR] [--comparator exact|raha] [--json]

Lists the datasets: name, rows × columns, dirty cells, source and corruption kinds. Raha-layout folders under
DIR (default $DATAFORGE_DATA_DIR or ./data) are listed beside the bundled canonical sets.
`

export const listDatasetsCommand: Command = async (argv, io) => {
  const { values } = parseArgs({
    args: argv,
    options: {
      'data-dir': { type: 'string' },
      json: { type: 'boolean' },
      comparator: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  })
  if (values.help) {
    io.stdout(LIST_DATASETS_HELP)
    return 0
  }
  const dataDir = resolve(io.cwd, values['data-dir'] ?? io.env.DATAFORGE_DATA_DIR ?? 'data')
  const comparator = comparatorByName(values.comparator ?? 'exact')
  const listings = await listDatasets({ dataDir, comparator })
  if (values.json) {
    io.stdout(`${JSON.stringify(listings, null, 2)}\n`)
    return 0
  }
  io.stdout(
    `${table(
      [
        'name',
        'rows × columns',
        `errors (graded, ${comparator.name} comparator)`,
        'differences the comparator ignores',
        'source',
        'corruption kinds',
      ],
      listings.map((d) => [
        d.available ? d.id : `${d.id} (not downloaded)`,
        d.available ? `${d.rows} × ${d.columns}` : '—',
        d.available && d.errors !== null ? String(d.errors) : '—',
        d.available && d.ignoredByComparator !== null ? String(d.ignoredByComparator) : '—',
        d.source,
        d.corruptionKinds?.join(', ') ?? '—',
      ]),
    )}\n`,
  )
  io.stdout(
    `\nErrors are the cells the grader scores: dirty and clean differ under the ${comparator.name} comparator (--comparator exact|raha); ` +
      'the differences it treats as equal are counted apart and never scored.\n',
  )
  const missing = listings.filter((d) => !d.available)
  if (missing.length)
    io.stdout(`\n${missing.map((d) => d.hint ?? `${d.id}: dataforge-evals datasets pull ${d.id}`).join('\n')}\n`)
  return 0
}
