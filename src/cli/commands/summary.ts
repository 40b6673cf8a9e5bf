import { readdir, readFile, stat } from 'node:fs/promises'
import { join, relative, resolve, sep } from 'node:path'
import { parseArgs } from 'node:util'
import { InputError } from '../../core/errors.js'
import { checkJsonDepth } from '../../core/json-depth.js'
import { NEVER_WALKED, writeAddedFile } from '../../report-builder/manifest.js'
import { MANIFEST_FILE } from '../../report-builder/manifest-build.js'
import { renderSummary, type SummarySource } from '../../report-builder/markdown/summary.js'
import { counted } from '../../stats/number-format.js'
import { type Command, shownPath } from '../io.js'
import { manifestNote } from '../report-output.js'

const SUMMARY_FILE = 'SUMMARY.md'

const SUMMARY_HELP = `Usage: dataforge-evals summary DIR

Writes DIR/${SUMMARY_FILE}: one table per suite (a question suite, or a repair run's dataset), each from the newest
report in DIR that holds it (its JSON report; subfolders are read too, .git and node_modules never). Each table
names its report and date: Score with its 95% interval, F1, trials done/asked, failures per group. With
--timestamp, every run leaves a dated copy of its report, so a folder keeps a history and the summary its latest.
In a report folder (one holding manifest.json) ${SUMMARY_FILE} is added to the manifest, as export does.
`

export const summaryCommand: Command = async (argv, io) => {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { help: { type: 'boolean', short: 'h' } },
  })
  if (values.help) {
    io.stdout(SUMMARY_HELP)
    return 0
  }
  if (positionals.length !== 1) throw new InputError('summary needs one folder; see summary --help')
  const dir = resolve(io.cwd, positionals[0]!)
  if (!(await stat(dir).catch(() => null))?.isDirectory())
    throw new InputError(`summary: ${positionals[0]}: not a folder`)
  const sources = await reportsUnder(dir)
  if (sources.length === 0)
    throw new InputError(`summary: ${positionals[0]} holds no JSON report (NAME.json written by run, qa or a reporter)`)
  const out = join(dir, SUMMARY_FILE)
  const written = await writeAddedFile(out, renderSummary(shownPath(io.cwd, dir) || '.', sources))
  const suites = new Set(sources.flatMap((s) => s.aggregates.map((a) => a.suite)))
  io.stdout(
    `wrote ${shownPath(io.cwd, out)}: ${counted(suites.size, 'suite')} from ${counted(sources.length, 'report')}${manifestNote(io.cwd, written)}\n`,
  )
  return 0
}

/** The JSON reports under `dir`: every .json file that is one (a baseline, a manifest or other JSON is passed over). */
async function reportsUnder(dir: string): Promise<SummarySource[]> {
  const sources: SummarySource[] = []
  const walk = async (folder: string): Promise<void> => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name)
      if (entry.isDirectory()) {
        if (!NEVER_WALKED.has(entry.name)) await walk(path)
      } else if (entry.isFile() && entry.name.endsWith('.json') && entry.name !== MANIFEST_FILE) {
        const source = await readReport(path, relative(dir, path).split(sep).join('/'))
        if (source) sources.push(source)
      }
    }
  }
  await walk(dir)
  return sources
}

async function readReport(path: string, shown: string): Promise<SummarySource | null> {
  const text = await readFile(path, 'utf8')
  checkJsonDepth(text, (line) => `${path}: line ${line}`)
  let parsed: {
    config?: { command?: unknown }
    aggregates?: unknown
    reproducibility?: { runDateUtc?: unknown }
  } | null
  try {
    parsed = JSON.parse(text)
  } catch {
    return null
  }
  const runDateUtc = parsed?.reproducibility?.runDateUtc
  if (!Array.isArray(parsed?.aggregates) || typeof runDateUtc !== 'string') return null
  const aggregates = parsed.aggregates as SummarySource['aggregates'][number][]
  aggregates.forEach((a, i) => {
    const ok =
      typeof a?.group === 'string' && typeof a.suite === 'string' && typeof a.score === 'object' && a.score !== null
    if (!ok) throw new InputError(`${path}: aggregates[${i}]: not a report's group (fields "group", "suite", "score")`)
  })
  const command = parsed.config?.command
  return { path: shown, runDateUtc, command: typeof command === 'string' ? command : null, aggregates }
}
