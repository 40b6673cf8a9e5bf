import { stat } from 'node:fs/promises'
import { dirname, resolve, sep } from 'node:path'
import { parseArgs } from 'node:util'
import { InputError } from '../../core/errors.js'
import { exportViewer } from '../../viewer/export.js'
import { pickRunsFile } from '../../viewer/load.js'
import { serveViewer } from '../../viewer/server.js'
import { counted } from '../../stats/number-format.js'
import { parseIntegerFlag } from '../flags.js'
import { type Command, shownPath } from '../io.js'

const VIEW_HELP = `Usage: dataforge-evals view DIR [--port N] [--against BASELINE] [--export OUT] [--show-expected]

Serves a report's runs on http://127.0.0.1:PORT/ (printed as the first line) until stopped: the index with
filters, and one page per run (/runs/N, N the 0-based line of the runs file) with its transcript, its cells
graded one by one or its answer and verdict, its failure, usage and cost. Pages reload when the folder changes.
DIR is a report folder (its newest report: NAME.runs.jsonl or runs.jsonl), a runs file, a report's .md, .html
or .json, or its stem (reports/run/smoke). See docs/viewer.md.

Options:
  --port N           port on 127.0.0.1 (default 4477; 0 picks a free one)
  --against B        compare with a baseline: a report folder or file, or baseline.json; shows cells that
                     flipped, answers that changed and both transcripts side by side
  --export OUT       write the pages as a static site (OUT/index.html, OUT/runs/N.html) and exit
  --show-expected    served pages show clean cells and expected answers, from the built-in datasets and
                     suites on this machine (never in an export or any file)
  --data-dir D       where the Raha-layout datasets are (default DATAFORGE_DATA_DIR, else ./data)
Exit codes: 0 stopped or exported, 2 bad usage or input (no runs file, a bad record, the port in use).
`

const DEFAULT_VIEW_PORT = 4477

export const viewCommand: Command = async (argv, io) => {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      port: { type: 'string' },
      against: { type: 'string' },
      export: { type: 'string' },
      'show-expected': { type: 'boolean' },
      'data-dir': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  })
  if (values.help) {
    io.stdout(VIEW_HELP)
    return 0
  }
  if (positionals.length !== 1) throw new InputError('view needs one report folder or file; see view --help')
  const path = resolve(io.cwd, positionals[0]!)
  if (!(await stat(path).catch(() => null)) && !(await stat(`${path}.runs.jsonl`).catch(() => null))) {
    throw new InputError(`view: ${positionals[0]}: no such folder or file`)
  }
  const port = parseIntegerFlag('port', values.port, DEFAULT_VIEW_PORT, { min: 0, max: 65535 })
  const against =
    values.against === undefined ? undefined : { path: resolve(io.cwd, values.against), shown: values.against }
  const dataDir = values['data-dir'] === undefined ? undefined : resolve(io.cwd, values['data-dir'])
  const common = { path, ...(against ? { against } : {}), ...(dataDir ? { dataDir } : {}) }
  if (values.export !== undefined) {
    if (values['show-expected'])
      throw new InputError('--show-expected shows expected values on served pages only; an --export never holds them')
    if (values.port !== undefined) throw new InputError('--port serves the pages; --export writes them: give one')
    const out = resolve(io.cwd, values.export)
    if (dirname(await pickRunsFile(path)) === out)
      throw new InputError(`--export ${values.export}: the pages need a folder of their own, not the report folder`)
    const { pages } = await exportViewer(common, out)
    io.stdout(
      `wrote ${shownPath(io.cwd, out)}: ${counted(pages, 'page')} (open ${shownPath(io.cwd, `${out}${sep}index.html`)})\n`,
    )
    return 0
  }
  const viewer = await serveViewer({
    ...common,
    port,
    ...(values['show-expected'] ? { showExpected: true } : {}),
    log: (line) => io.stderr(`dataforge-evals view: ${line}\n`),
  })
  io.stdout(`${viewer.url}\n`)
  const report = viewer.site.report
  io.stdout(`serving ${shownPath(io.cwd, report.runsFile)}: ${counted(report.records.length, 'run')}; Ctrl-C stops\n`)
  await new Promise<void>((done) => {
    const stop = () => done()
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
  })
  await viewer.close()
  return 0
}
