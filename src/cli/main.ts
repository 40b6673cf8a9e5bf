import { InputError } from '../core/errors.js'
import { toolVersion } from '../report-builder/tool-version.js'
import { compareCommand } from './commands/compare.js'
import { conformanceCommand } from './commands/conformance.js'
import { corpusCommand } from './commands/corpus.js'
import { datasetsCommand } from './commands/datasets.js'
import { exportCommand } from './commands/export.js'
import { listAgentsCommand } from './commands/list-agents.js'
import { listDatasetsCommand } from './commands/list-datasets.js'
import { mergeShardsCommand } from './commands/merge-shards.js'
import { pricesCommand } from './commands/prices.js'
import { qaCommand } from './commands/qa.js'
import { reportCommand } from './commands/report.js'
import { runCommand } from './commands/run.js'
import { summaryCommand } from './commands/summary.js'
import { verifyCommand } from './commands/verify.js'
import { viewCommand } from './commands/view.js'
import { withInputErrors } from './input-errors.js'
import { type CliIO, type Command, processIO } from './io.js'
import { terminalOutput, terminalText } from '../core/escape-text.js'

const COMMANDS: Record<string, Command> = {
  run: runCommand,
  'list-agents': listAgentsCommand,
  'list-datasets': listDatasetsCommand,
  datasets: datasetsCommand,
  compare: compareCommand,
  export: exportCommand,
  corpus: corpusCommand,
  verify: verifyCommand,
  prices: pricesCommand,
  qa: qaCommand,
  conformance: conformanceCommand,
  report: reportCommand,
  'merge-shards': mergeShardsCommand,
  summary: summaryCommand,
  view: viewCommand,
}

const HELP = `dataforge-evals ${'{version}'}: exact, reproducible evaluation of data agents

Usage: dataforge-evals <command> [options]

Commands:
  run              run repair agents on datasets and write Markdown/JSON reports (run --help)
  qa               ask question suites (bespoke, hard, large, messy, wtq, dabench) and write reports (qa --help)
  list-agents      repair agents (run), question agents (qa) and provider presets
  list-datasets    datasets with shape, graded errors (and differences the comparator ignores), source, kinds
  datasets pull N  download a canonical dataset (hospital, flights, beers) and check its sha256
  compare A B      paired comparison of two runs (McNemar, paired F1 test)
  export RUNS      export a run corpus (--parquet OUT)
  report RUNS      self-contained HTML report with charts (--html OUT.html)
  corpus merge     merge run corpora into latest/snapshot/history views
  verify DIR       re-derive a report folder's manifest and fail on any mismatch
  view DIR         browse a report's runs: transcripts, graded cells, changes against a baseline (view --help)
  merge-shards S   one report (same gates, exit code) from the shards of a sharded Jest run
  summary DIR      DIR/SUMMARY.md: one table per suite or dataset from the newest report of each
  prices fetch     fetch per-token prices from OpenRouter's models endpoint
  conformance      did generated samples follow the requested distributions and rules? (conformance --help)

Options: --help, --version
Exit codes: 0 ok, 1 a gate or comparison failed, 2 bad usage or input.
`

/** Runs the CLI in-process; returns the exit code. Errors are one line on stderr. */
export async function main(argv: string[], given: CliIO = processIO()): Promise<number> {
  // Whatever a command prints goes through the terminal guard: text from agents, data or files cannot move
  // the cursor, erase lines or set the window title (issue 26 item 4).
  const io: CliIO = {
    ...given,
    stdout: (text) => given.stdout(terminalOutput(text)),
    stderr: (text) => given.stderr(terminalOutput(text)),
  }
  const [name, ...rest] = argv
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(HELP.replace('{version}', toolVersion()))
    return 0
  }
  if (name === '--version' || name === '-v') {
    io.stdout(`${toolVersion()}\n`)
    return 0
  }
  const command = COMMANDS[name]
  try {
    return await withInputErrors(io, () => {
      if (!command) throw new InputError(`unknown command "${name}"; run dataforge-evals --help`)
      return command(rest, io)
    })
  } catch (error) {
    io.stderr(
      `dataforge-evals: internal error: ${terminalText(oneLine(error instanceof Error ? (error.stack ?? error.message) : String(error)))}\n`,
    )
    return 1
  }
}

function oneLine(text: string): string {
  return text.split('\n')[0]!.trim()
}
