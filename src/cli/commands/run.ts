import { trialLabel } from '../../core/trial-label.js'
import { existsSync } from 'node:fs'
import { counted } from '../../stats/number-format.js'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import type { RepairAgent } from '../../core/agent.js'
import { InputError } from '../../core/errors.js'
import type { RunRecord } from '../../core/run-record.js'
import { closeAgent, resolveAgent } from '../../adapters/registry.js'
import { type ProviderAgentOptions, resolveCacheOptions } from '../../adapters/providers/index.js'
import { comparatorByName } from '../../grading/index.js'
import { prfSummary } from '../../grading/repair/prf.js'
import { buildReport } from '../../report-builder/build.js'
import { projectCommit } from '../../report-builder/reproducibility.js'
import { seconds } from '../../report-builder/figure-text.js'
import { parseMinPasses, repeatGateExit } from '../gate-exit.js'
import { writeCliGithubOutput, writeCliReports } from '../report-output.js'
import { nothingScored, repeatGateFailures } from '../../report-builder/gates.js'
import { cliReportOutputs } from '../../files/output-paths.js'
import { Containment } from '../../run/contain.js'
import { runEvaluation } from '../../run/run-evaluation.js'
import { findInterruptedRun, readRecordedRun, resumeOptions, runEnvOf, type RunOptions } from '../../run/resume.js'
import { journalKeyDir } from '../../run/journal-integrity.js'
import { openRunFolder } from '../../run/run-folder.js'
import { checkProviderFlags, pricesGiven, runLlmConfig } from '../llm-flags.js'
import { type CliIO, type Colors, type Command, colorsFor, shownPath } from '../io.js'
import { MAX_TIMER_MS } from '../../run/with-timeout.js'
import {
  EVALUATION_FLAGS,
  joinNegativeNumbers,
  parseIntegerFlag,
  parseNumberFlag,
  PROVIDER_FLAGS,
  splitList,
} from '../flags.js'
import { TruthReveal } from '../../report-builder/reveal-truth.js'
import { terminalText } from '../../core/escape-text.js'
import {
  ISOLATION_FLAGS,
  ISOLATION_HELP,
  type IsolationChoice,
  parseIsolationFlags,
  refuseNetworkNoneWithUpstream,
} from '../isolation-flags.js'

const RUN_HELP = `Usage: dataforge-evals run --agent A[,B…] --dataset D[,E…] [options]

Runs repair agents on datasets for N seeded trials, grades every trial exactly, and writes a Markdown and a
JSON report, its runs and the folder's manifest.json into its own folder, reports/run/ (report.md,
report.json, report.html, runs.jsonl). Every file carries the report's name, --output's: --output out/r.md
writes out/r.md, out/r.json, out/r.html, out/r.runs.jsonl and out/manifest.json. A folder holds many reports;
its manifest.json lists them all.

Options:
  --agent NAME|PATH      mock, noop, baseline, a provider preset, ./my-agent.ts|js, or 'cmd:python3 agent.py'
                         (repeatable or comma list); modules and commands run in their own process
${ISOLATION_HELP}
  --agent-memory-mb N    heap limit of an isolated module agent's process (default 2048)
  --reveal-truth FILE    also write got → want of the first cells of each trial to FILE (clean values:
                         keep it out of git, e.g. .dataforge-truth/run.jsonl); reports never hold them
  --dataset NAME         synthetic, hospital, flights, beers, any Raha-layout folder, or a name for --dirty-csv/--clean-csv
  --dirty-csv FILE       custom dirty CSV (with --clean-csv and --dataset NAME)
  --clean-csv FILE       custom clean CSV; column names come from this file
  --data-dir DIR         Raha-layout root (default $DATAFORGE_DATA_DIR or ./data)
  --rows N               synthetic: number of rows (default 200)
  --error-rate R         synthetic: share of corrupted cells (default 0.05)
  --trials N             trials per agent and dataset (default 1)
  --seed S               first seed; trials use S … S+N−1 (default 1)
  --timeout-s T          abort a trial after T seconds and record a timeout (default 300)
  --pass-f1 X            a trial counts as correct when F1 ≥ X (default 1.0)
  --comparator NAME      exact (default; trims trailing whitespace) or raha
  --generation NAME      comparability epoch recorded on every run
  --output FILE          Markdown report (default reports/run/report.md)
  --output-json FILE     JSON report (default NAME.json beside --output, else reports/run/report.json)
  --output-html FILE     self-contained HTML report with charts (default NAME.html beside the JSON report)
  --timestamp            also write dated, diffable copies: NAME.2026-12-03T071205Z.md and .json (UTC start of the run)
  --model ID             model id for provider agents
  --base-url URL         base URL for openai-compatible
  --api-key-env VAR      environment variable holding the API key
  --cache MODE           off | record | replay | auto (default $DATAFORGE_CACHE or off)
  --cache-dir DIR        record/replay folder (default $DATAFORGE_CACHE_DIR or .dataforge-cache)
  --prices FILE          price map for cost: USD per token by model id (docs/gateway.md#prices)
  --llm PRESET|URL       send agents' model calls through the harness's gateway to this upstream (groq, openrouter,
                         gemini, cerebras, ollama, openai, anthropic, or a base URL; default $DATAFORGE_LLM)
  --llm-key-env VAR      variable holding a URL upstream's key (default $DATAFORGE_LLM_KEY_ENV or OPENAI_API_KEY)
  --llm-budget B         per-trial limit enforced by the gateway, e.g. tokens=20000,usd=0.05,calls=30
  --concurrency N        provider calls in flight at once (default: the preset's limit)
  --rpm N                provider requests per minute (default: the preset's limit)
  --chunk-token-budget N split tables into row chunks under this many prompt tokens (default 4000)
  --min-passes K         repeat gate: exit 1 unless every case is correct in at least K of its trials
  --github               GitHub Actions output: job summary, ::error lines, pr-comment.md (default on when GITHUB_ACTIONS=true)
  --otel FILE|URL        OpenTelemetry traces: OTLP/JSON lines to FILE, or POSTed to URL/v1/traces (default $DATAFORGE_OTEL)
  --resume DIR[/NAME]    finish an interrupted run: run only the trials missing from its journal (NAME.runs.partial.jsonl;
                         runs.partial.jsonl for reports/run) with the recorded configuration (flags given again must
                         agree), then write the reports. DIR alone when it holds one interrupted run
  --quiet                no progress lines

Exit codes: 0 at least one trial scored (and the repeat gate held), 1 no trial scored (every one errored), an
agent's process died, or the repeat gate failed, 2 bad input.
`

const OPTIONS = {
  ...PROVIDER_FLAGS,
  ...EVALUATION_FLAGS,
  agent: { type: 'string', multiple: true },
  dataset: { type: 'string', multiple: true },
  'dirty-csv': { type: 'string' },
  'clean-csv': { type: 'string' },
  'data-dir': { type: 'string' },
  rows: { type: 'string' },
  'error-rate': { type: 'string' },
  'pass-f1': { type: 'string' },
  comparator: { type: 'string' },
  'chunk-token-budget': { type: 'string' },
  resume: { type: 'string' },
  ...ISOLATION_FLAGS,
  'agent-memory-mb': { type: 'string' },
  'reveal-truth': { type: 'string' },
} as const

export const runCommand: Command = async (argv, userIO) => {
  const parsed = parseArgs({
    args: joinNegativeNumbers(argv, OPTIONS),
    options: OPTIONS,
    allowPositionals: false,
    strict: true,
  })
  if (parsed.values.help) {
    userIO.stdout(RUN_HELP)
    return 0
  }
  const resumePlace =
    parsed.values.resume === undefined ? null : findInterruptedRun(resolve(userIO.cwd, parsed.values.resume))
  const keyDir = journalKeyDir(userIO.env)
  const resumed = resumePlace === null ? null : readRecordedRun(resumePlace, keyDir)
  // A resumed run is the recorded run: its flags, resolved against the folder it was started in.
  const values = (
    resumed ? resumeOptions(resumed.recorded, parsed.values as RunOptions, userIO.cwd, userIO.env) : parsed.values
  ) as typeof parsed.values
  const io = resumed ? { ...userIO, cwd: resumed.recorded.cwd } : userIO
  const agentSpecs = splitList(values.agent)
  const datasetIds = splitList(values.dataset)
  if (!agentSpecs.length) throw new InputError('run: --agent is required (try --agent baseline)')
  const dirtyCsv = values['dirty-csv']
  const cleanCsv = values['clean-csv']
  if (!datasetIds.length && (dirtyCsv !== undefined || cleanCsv !== undefined)) {
    throw new InputError(
      'run: a CSV pair needs a name, the dataset its reports group by: add --dataset NAME (e.g. --dataset products)',
    )
  }
  if (!datasetIds.length) throw new InputError('run: --dataset is required (try --dataset synthetic)')
  if ((dirtyCsv === undefined) !== (cleanCsv === undefined))
    throw new InputError('run: --dirty-csv and --clean-csv go together')
  if (dirtyCsv && datasetIds.length !== 1)
    throw new InputError('run: --dirty-csv/--clean-csv name exactly one --dataset')
  const isolation = parseIsolationFlags(values)
  refuseNetworkNoneWithUpstream(values, io.env)
  const trials = parseIntegerFlag('trials', values.trials, 1, { min: 1 })
  const seed = parseIntegerFlag('seed', values.seed, 1, {})
  const timeoutS = parseNumberFlag('timeout-s', values['timeout-s'], 300, {
    min: 0,
    exclusiveMin: true,
    max: MAX_TIMER_MS / 1000,
  })
  const passF1 = parseNumberFlag('pass-f1', values['pass-f1'], 1, { min: 0, max: 1 })
  const minPasses = parseMinPasses(values['min-passes'])
  const comparator = comparatorByName(values.comparator ?? 'exact')
  const rows = values.rows === undefined ? undefined : parseIntegerFlag('rows', values.rows, 200, { min: 1 })
  const errorRate =
    values['error-rate'] === undefined
      ? undefined
      : parseNumberFlag('error-rate', values['error-rate'], 0.05, { min: 0, max: 1 })
  const concurrency =
    values.concurrency === undefined ? undefined : parseIntegerFlag('concurrency', values.concurrency, 1, { min: 1 })
  const rpm =
    values.rpm === undefined ? undefined : parseNumberFlag('rpm', values.rpm, 60, { min: 0, exclusiveMin: true })
  const chunkTokenBudget =
    values['chunk-token-budget'] === undefined
      ? undefined
      : parseIntegerFlag('chunk-token-budget', values['chunk-token-budget'], 4000, { min: 100 })
  const maxOldSpaceMb =
    values['agent-memory-mb'] === undefined
      ? undefined
      : parseIntegerFlag('agent-memory-mb', values['agent-memory-mb'], 2048, { min: 16 })
  await checkProviderFlags(values, io)
  const { paths, outputs } = cliReportOutputs(io.cwd, values, { folder: 'reports/run', name: 'report' })
  const reportDir = paths.dir
  if (resumePlace !== null && (resumePlace.dir !== reportDir || resumePlace.stem !== paths.stem)) {
    throw new InputError(
      `run --resume ${parsed.values.resume}: the recorded run writes its reports to ${join(reportDir, paths.stem)}.*`,
    )
  }
  const runDateUtc = resumed?.recorded.runDateUtc ?? new Date().toISOString()
  const folder = await openRunFolder({
    dir: reportDir,
    stem: paths.stem,
    displayDir: shownPath(userIO.cwd, reportDir),
    outputs,
    resume: resumed,
    fresh: { cwd: io.cwd, options: parsed.values as RunOptions, env: runEnvOf(io.env), runDateUtc },
    keyDir,
    stderr: userIO.stderr,
  })
  // The GitHub output adds pr-comment.md to the report folder's manifest under the folder's lock: after the run
  // has released it.
  let githubOutput: (() => Promise<void>) | undefined
  let code: number
  try {
    code = await runInFolder()
  } catch (error) {
    if (folder.journal.begun) userIO.stderr(folder.journal.resumeHint(shownPath(userIO.cwd, reportDir), null))
    throw error
  } finally {
    folder.close()
  }
  await githubOutput?.()
  return code

  async function runInFolder(): Promise<number> {
    const dataDir = values['data-dir']
      ? resolve(io.cwd, values['data-dir'])
      : io.env.DATAFORGE_DATA_DIR
        ? resolve(io.cwd, io.env.DATAFORGE_DATA_DIR)
        : resolve(io.cwd, 'data')

    const providerOptions = {
      model: values.model,
      baseUrl: values['base-url'],
      apiKeyEnv: values['api-key-env'],
      env: io.env,
      envFile: resolve(io.cwd, '.env'),
      cache: resolveCacheOptions(io.env, { cache: values.cache, cacheDir: values['cache-dir'] }, io.cwd),
      ...(concurrency !== undefined ? { concurrency } : {}),
      ...(rpm !== undefined ? { rpm } : {}),
      ...(chunkTokenBudget !== undefined ? { chunkTokenBudget } : {}),
      prices: values.prices ? resolve(io.cwd, values.prices) : undefined,
      log: (line: string) => io.stderr(`${line}\n`),
    }
    const llm = await runLlmConfig(values, io, providerOptions.cache)
    // What an isolated agent may not reach by any name (a hard link, its own folder): the run's data and outputs.
    const protectedPaths = [
      ...(dirtyCsv ? [resolve(io.cwd, dirtyCsv), resolve(io.cwd, cleanCsv!)] : []),
      ...datasetIds.flatMap((id) => [resolve(dataDir, id), resolve(io.cwd, id)]).filter((p) => existsSync(p)),
      reportDir,
      providerOptions.cache.dir,
    ].filter((p): p is string => typeof p === 'string')
    const agents = await resolveRunAgents(agentSpecs, io, {
      provider: providerOptions,
      isolation,
      protectedPaths,
      maxOldSpaceMb,
    })
    const names = agents.map((a) => a.name)
    const reveal = values['reveal-truth'] ? new TruthReveal() : null
    const containment = agents.some((a) => !a.provenance?.isolated)
      ? new Containment((line) => io.stderr(`${line}\n`))
      : undefined

    const datasets = datasetIds.map((id) => ({
      id,
      dataDir,
      ...(dirtyCsv ? { dirtyCsv: resolve(io.cwd, dirtyCsv), cleanCsv: resolve(io.cwd, cleanCsv!) } : {}),
      ...(rows !== undefined ? { rows } : {}),
      ...(errorRate !== undefined ? { errorRate } : {}),
    }))
    const project = projectCommit(io.cwd)
    const quiet = values.quiet === true
    const colors = colorsFor(io)
    const { datasets: infos } = await runEvaluation({
      agents,
      datasets,
      trials,
      seed,
      timeoutMs: timeoutS * 1000,
      passF1,
      comparator,
      generation: values.generation ?? null,
      provenance: { projectCommit: project.commit, runDateUtc },
      beforeTrials: (loaded) => folder.journal.begin(agents, loaded),
      skip: (cell) => folder.journal.has(cell),
      onTrialDone: (e) => {
        folder.journal.add(e.record, e.transcript)
        if (!quiet) io.stderr(progressLine(e.index, e.total, e.record, trials, colors))
      },
      containment,
      llm,
      onScored: reveal ? (record, score) => reveal.add(record, score) : undefined,
    }).finally(() => stopAgents(agents, containment))
    if (reveal && values['reveal-truth']) await reveal.write(resolve(io.cwd, values['reveal-truth']))
    const records = folder.journal.records()
    const report = buildReport({
      records,
      datasets: infos,
      cwd: io.cwd,
      runDateUtc,
      project,
      config: {
        command: 'run',
        priced: pricesGiven(values.prices, io.env),
        agents: names,
        datasets: datasetIds,
        trials,
        seed,
        timeoutS,
        passF1,
        comparator: comparator.name,
        generation: values.generation ?? null,
        ...(rows !== undefined ? { rows } : {}),
        ...(errorRate !== undefined ? { errorRate } : {}),
      },
    })
    await writeCliReports(report, paths, {
      lock: false,
      io,
      shownFrom: userIO.cwd,
      timestamp: values.timestamp === true,
      transcripts: folder.journal.transcripts(),
      otel: values.otel as string | undefined,
    })
    folder.journal.finish()
    const broken = runBroken(records)
    const failures = broken
      ? [`run failed: ${broken}`]
      : minPasses === undefined
        ? []
        : repeatGateFailures(report, minPasses)
    githubOutput = () =>
      writeCliGithubOutput({
        command: 'run',
        flag: values.github as boolean | undefined,
        dir: paths.dir,
        failures,
        report,
        io,
      })
    if (broken) {
      io.stderr(`run failed: ${terminalText(broken)}\n`)
      return 1
    }
    return minPasses === undefined ? 0 : repeatGateExit(report, minPasses, io)
  }
}

/**
 * Why the run as a whole failed, if it did: no trial scored (fail closed, as every door), or an agent took down
 * what it ran in (an exit, a crash, an out-of-memory). The reports are written either way.
 */
function runBroken(records: RunRecord[]): string | null {
  const none = nothingScored(records, { one: 'trial', many: 'trials' })
  if (none) return none
  const fatal = records.filter(
    (r) => r.failureKind === 'agent_exit' || r.failureKind === 'agent_crash' || r.failureKind === 'out_of_memory',
  )
  if (fatal.length)
    return `${counted(fatal.length, 'trial')} ended by the agent's process (${[...new Set(fatal.map((r) => `${r.agent}: ${r.failureKind}`))].join(', ')})`
  return null
}

/** Resolves every `--agent`; names must be unique and custom agents may not take a built-in's name. */
async function resolveRunAgents(
  specs: string[],
  io: CliIO,
  opts: {
    provider: ProviderAgentOptions
    isolation: IsolationChoice
    protectedPaths: string[]
    maxOldSpaceMb: number | undefined
  },
): Promise<RepairAgent[]> {
  const agents: RepairAgent[] = []
  try {
    for (const spec of specs) {
      agents.push(
        await resolveAgent(spec, {
          cwd: io.cwd,
          provider: opts.provider,
          isolate: opts.isolation.isolate,
          isolation: {
            log: (chunk) => io.stderr(chunk),
            warn: (line) => io.stderr(`${line}\n`),
            level: opts.isolation.level,
            network: opts.isolation.network,
            passEnv: opts.isolation.passEnv,
            sandboxLimits: opts.isolation.limits,
            protectedPaths: opts.protectedPaths,
            ...(opts.maxOldSpaceMb !== undefined ? { maxOldSpaceMb: opts.maxOldSpaceMb } : {}),
          },
        }),
      )
    }
    const names = agents.map((a) => a.name)
    const duplicate = names.find((n, i) => names.indexOf(n) !== i)
    if (duplicate) throw new InputError(`run: two agents are named "${duplicate}"; names must be unique in one run`)
    return agents
  } catch (error) {
    await stopAgents(agents)
    throw error
  }
}

async function stopAgents(agents: RepairAgent[], containment?: Containment): Promise<void> {
  containment?.dispose()
  await Promise.all(agents.map((a) => closeAgent(a)))
}

function progressLine(index: number, total: number, r: RunRecord, trials: number, c: Colors): string {
  const head = `[${index}/${total}] ${terminalText(r.agent)} × ${terminalText(r.dataset)} ${trialLabel(r.trial, trials)} (seed ${r.seed})`
  if (r.status !== 'ok') return `${head}: ${c.red(`FAILED ${r.failureKind}`)} ${terminalText(r.failureMessage ?? '')}\n`
  // A completed repair run always has its counts.
  const counts = { tp: r.tp!, fp: r.fp!, fn: r.fn!, precision: r.precision!, recall: r.recall!, f1: r.f1! }
  return `${head}: ${prfSummary(counts)} · ${seconds(r.runtimeS)}\n`
}
