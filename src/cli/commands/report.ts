import { readFile } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { InputError } from '../../core/errors.js'
import type { RunRecord } from '../../core/run-record.js'
import { groupDeltas, readComparableRuns } from '../../report-builder/baseline.js'
import { buildReport, type EvalReport } from '../../report-builder/build.js'
import { renderHtmlReport } from '../../report-builder/html/index.js'
import { writeAddedFile } from '../../report-builder/manifest.js'
import { readRunRecords, resolveRunsFile } from '../../files/read-runs.js'
import { stemFiles, stemOf } from '../../files/output-paths.js'
import type { Reproducibility } from '../../report-builder/reproducibility.js'
import { assertWritableTarget } from '../../files/write-atomic.js'
import { type Command, shownPath } from '../io.js'
import { manifestNote } from '../report-output.js'
import { counted } from '../../stats/number-format.js'
import { parseIntegerFlag, parseNumberFlag } from '../flags.js'

const REPORT_HELP = `Usage: dataforge-evals report RUNS --html OUT.html [--baseline B] [--alpha A] [--floor F] [--min-delta D] [--title T] [--stats-seed N]

Builds the self-contained HTML report (leaderboard, charts rendered to inline SVG, failures, reproducibility)
from the RunRecords of RUNS: a report's runs file or JSON (NAME.runs.jsonl, runs.jsonl, NAME.json), its stem
(reports/smoke) or one of its files, or a folder holding one report. The page needs no network: open
it from disk or a CI artifact. With a report.json beside the records, its reproducibility block is used as
written; from runs.jsonl alone it is rebuilt from the records (dataset sizes unknown).

Options:
  --html FILE        where to write the page (required); added to manifest.json in its folder when that is a
                     report folder (or new), as export does
  --baseline B       runs to compare against (runs.jsonl, report.json, a folder, or baseline.json): deltas with paired tests on units
  --alpha A          significance level of the baseline comparison (default 0.05)
  --floor F          absolute Score floor marked in the baseline verdicts
  --min-delta D      a deterministic change (one case, identical trials) fails beyond a drop of D (default 0)
  --title T          page title (default "dataforge-evals report")
  --stats-seed N     seed of the bootstrap intervals (default 0)
`

export const reportCommand: Command = async (argv, io) => {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      html: { type: 'string' },
      baseline: { type: 'string' },
      alpha: { type: 'string' },
      floor: { type: 'string' },
      'min-delta': { type: 'string' },
      title: { type: 'string' },
      'stats-seed': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  })
  if (values.help) {
    io.stdout(REPORT_HELP)
    return 0
  }
  if (positionals.length !== 1)
    throw new InputError('report needs one RUNS input (runs.jsonl, report.json or a report folder); see report --help')
  if (!values.html) throw new InputError('report needs --html OUT.html (the only format so far)')
  const alpha = parseNumberFlag('alpha', values.alpha, 0.05, { min: 0, max: 1, exclusiveMin: true })
  const floor = values.floor === undefined ? undefined : parseNumberFlag('floor', values.floor, 0, { min: 0, max: 1 })
  const minDelta = parseNumberFlag('min-delta', values['min-delta'], 0, { min: 0, max: 1 })
  const statsSeed = parseIntegerFlag('stats-seed', values['stats-seed'], 0, {})
  const input = resolve(io.cwd, positionals[0]!)
  const records = await readRunRecords(input)
  if (records.length === 0) throw new InputError(`${positionals[0]}: holds no RunRecords`)
  const report = await reportFromRecords(records, input, io.cwd, statsSeed)

  let baselineDeltas: ReturnType<typeof groupDeltas> = []
  if (values.baseline) {
    const before = await readComparableRuns(resolve(io.cwd, values.baseline))
    baselineDeltas = groupDeltas(before, report, {
      alpha,
      minDelta,
      ...(floor !== undefined ? { floor } : {}),
    })
  }
  const html = await renderHtmlReport(report, {
    ...(values.title ? { title: values.title } : {}),
    baselineDeltas,
    alpha,
  })
  const out = resolve(io.cwd, values.html)
  await assertWritableTarget(out, `--html (${out})`)
  const written = await writeAddedFile(out, html)
  io.stdout(
    `wrote ${shownPath(io.cwd, out)}: ${counted(report.records.length, 'run')} in ${counted(report.aggregates.length, 'group')}, ${counted(Buffer.byteLength(html), 'byte')}${manifestNote(io.cwd, written)}\n`,
  )
  return 0
}

/** The report model for records read back from disk, keeping a stored report.json's reproducibility block. */
async function reportFromRecords(
  records: RunRecord[],
  input: string,
  cwd: string,
  statsSeed: number,
): Promise<EvalReport> {
  const latest = records
    .map((r) => r.runDateUtc)
    .sort()
    .at(-1)!
  const stored = await storedReport(input, records.length)
  const report = buildReport({
    records,
    datasets: [],
    cwd,
    runDateUtc: latest,
    statsSeed,
    project: { commit: records.find((r) => r.projectCommit)?.projectCommit ?? null, dirty: null },
    config: stored?.config ?? { command: 'report' },
  })
  return stored?.reproducibility ? { ...report, reproducibility: stored.reproducibility } : report
}

/**
 * The report.json that RUNS is, or that sits beside it holding the same number of records (a runs.jsonl of
 * another run next to it is not described by it), when there is one with a reproducibility block.
 */
async function storedReport(
  input: string,
  recordCount: number,
): Promise<{ config?: Record<string, unknown>; reproducibility?: Reproducibility } | null> {
  const runs = await resolveRunsFile(input)
  const candidate = runs.endsWith('.json') ? runs : join(dirname(runs), stemFiles(stemOf(basename(runs))).json)
  let parsed: unknown
  try {
    parsed = JSON.parse(await readFile(candidate, 'utf8'))
  } catch {
    return null
  }
  const p = parsed as { config?: unknown; records?: unknown; reproducibility?: Partial<Reproducibility> } | null
  if (candidate !== runs && !(Array.isArray(p?.records) && p.records.length === recordCount)) return null
  const r = p?.reproducibility
  const usable =
    r &&
    Array.isArray(r.datasets) &&
    Array.isArray(r.seeds) &&
    Array.isArray(r.agents) &&
    Array.isArray(r.models) &&
    typeof r.nondeterminismNote === 'string' &&
    r.cache &&
    r.dependencyVersions
  return {
    ...(p?.config && typeof p.config === 'object' ? { config: p.config as Record<string, unknown> } : {}),
    ...(usable ? { reproducibility: r as Reproducibility } : {}),
  }
}
