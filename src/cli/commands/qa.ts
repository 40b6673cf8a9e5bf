import { trialLabel } from '../../core/trial-label.js'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { DATA_AGENTS, isModelBackedSpec, resolveDataAgentSpec } from '../../adapters/data-agents.js'
import { PROVIDER_PRESETS, resolveCacheOptions } from '../../adapters/providers/index.js'
import type { DataAgent } from '../../core/data-agent.js'
import { InputError } from '../../core/errors.js'
import type { Transcript } from '../../core/transcript.js'
import type { RunRecord } from '../../core/run-record.js'
import { loadQaSuite, QA_SUITES } from '../../datasets/questions/index.js'
import type { QaCase } from '../../datasets/questions/types.js'
import { buildReport } from '../../report-builder/build.js'
import { checkReportOutputs, cliReportOutputs } from '../../files/output-paths.js'
import { projectCommit } from '../../report-builder/reproducibility.js'
import { runQaTrial } from '../../run/run-qa-trial.js'
import { parseMinPasses, repeatGateExit } from '../gate-exit.js'
import { writeCliGithubOutput, writeCliReports } from '../report-output.js'
import { nothingScored, repeatGateFailures } from '../../report-builder/gates.js'
import { armName } from '../../report-builder/aggregate.js'
import { checkProviderFlags, pricesGiven, runLlmConfig } from '../llm-flags.js'
import {
  EVALUATION_FLAGS,
  joinNegativeNumbers,
  parseIntegerFlag,
  parseNumberFlag,
  PROVIDER_FLAGS,
  splitList,
} from '../flags.js'
import { type CliIO, type Colors, type Command, colorsFor } from '../io.js'
import { terminalText } from '../../core/escape-text.js'
import {
  ISOLATION_FLAGS,
  ISOLATION_HELP,
  parseIsolationFlags,
  refuseNetworkNoneWithUpstream,
} from '../isolation-flags.js'

const QA_HELP = `Usage: dataforge-evals qa --agent A[,B…] --suite ${Object.keys(QA_SUITES).join('|')} [options]

Asks every question of a suite (every turn of its conversations) for N trials, grades each answer strictly, and
writes a Markdown and a JSON report, its runs and the folder's manifest.json into its own folder, reports/qa/
(qa.md, qa.json, qa.html, qa.runs.jsonl). Every file carries --output's name (--output out/r.md: out/r.json,
out/r.html, out/r.runs.jsonl); a folder holds many reports.

Options:
  --agent NAME|PATH      ${Object.keys(DATA_AGENTS).join(', ')}, a provider preset (= model-qa over it), or ./my-agent.ts|js
  --suite NAME[,NAME…]   one suite, or several in one report (--suite bespoke,hard):
                         ${Object.entries(QA_SUITES)
                           .map(([k, v]) => `${k}: ${v.description}`)
                           .join('\n                         ')}
  --data-dir DIR         wtq: a full WikiTableQuestions release (data/*.tsv, csv/, tagged/data/);
                         dabench: a clone's examples/DA-Agent/data (the full 257-question validation set)
  --limit N              a seeded sample of N cases (seed --seed)
  --seed S               seed of the suite's data and of the first trial; trial i uses S+i (default 1)
  --trials N             trials per agent and case (default 1)
  --min-passes K         repeat gate: exit 1 unless every question (each turn) is correct in at least K of its trials
  --github               GitHub Actions output: job summary, ::error lines, pr-comment.md (default on when GITHUB_ACTIONS=true)
  --otel FILE|URL        OpenTelemetry traces: OTLP/JSON lines to FILE, or POSTed to URL/v1/traces (default $DATAFORGE_OTEL)
  --timeout-s T          abort a question after T seconds and record a timeout (default 120)
  --provider P           provider preset of model-backed agents (${Object.keys(PROVIDER_PRESETS).join(', ')})
  --models M1,M2         model matrix: one model-backed agent per model (concurrent within the provider's limits)
  --model M              one model id for model-backed agents
  --base-url URL         base URL for openai-compatible
  --api-key-env VAR      environment variable holding the API key
  --cache MODE           off | record | replay | auto (default $DATAFORGE_CACHE or off)
  --cache-dir DIR        record/replay folder (default $DATAFORGE_CACHE_DIR or .dataforge-cache)
  --prices FILE          price map for cost: USD per token by model id (docs/gateway.md#prices)
  --llm PRESET|URL       send agents' model calls through the harness's gateway (see run --help; default $DATAFORGE_LLM)
  --llm-key-env VAR      variable holding a URL upstream's key (default OPENAI_API_KEY)
  --llm-budget B         per-trial limit enforced by the gateway, e.g. tokens=20000,usd=0.05,calls=30
  --concurrency N        questions in flight per model-backed agent (default: the preset's limit)
  --rpm N                provider requests per minute (default: the preset's limit)
  --generation NAME      comparability epoch recorded on every run
  --output FILE          Markdown report (default reports/qa/qa.md)
  --output-json FILE     JSON report (default NAME.json beside --output, else reports/qa/qa.json)
  --output-html FILE     self-contained HTML report with charts (default NAME.html beside the JSON report)
  --timestamp            also write dated, diffable copies: NAME.2026-12-03T071205Z.md and .json (UTC start of the run)
${ISOLATION_HELP}
  --quiet                no progress lines

Exit codes: 0 the suite ran and at least one question scored (and the repeat gate held), 1 no question scored
(every one errored: no cassette, no key, a dead agent) or the repeat gate failed, 2 bad input.
`

const OPTIONS = {
  ...PROVIDER_FLAGS,
  ...EVALUATION_FLAGS,
  agent: { type: 'string', multiple: true },
  suite: { type: 'string' },
  'data-dir': { type: 'string' },
  limit: { type: 'string' },
  provider: { type: 'string' },
  models: { type: 'string', multiple: true },
  ...ISOLATION_FLAGS,
} as const

interface Arm {
  agent: DataAgent
  /** Questions of this agent in flight at once. */
  concurrency: number
}

export const qaCommand: Command = async (argv, io) => {
  const { values } = parseArgs({
    args: joinNegativeNumbers(argv, OPTIONS),
    options: OPTIONS,
    allowPositionals: false,
    strict: true,
  })
  if (values.help) {
    io.stdout(QA_HELP)
    return 0
  }
  const specs = splitList(values.agent)
  const models = splitList(values.models)
  const suites = splitList(values.suite === undefined ? undefined : [values.suite])
  if (!suites.length)
    throw new InputError(
      `qa: --suite is required (one of ${Object.keys(QA_SUITES).join(', ')}, or several: --suite bespoke,hard)`,
    )
  const unknown = suites.find((suite) => !QA_SUITES[suite])
  if (unknown !== undefined)
    throw new InputError(`qa: unknown --suite "${unknown}": use one of ${Object.keys(QA_SUITES).join(', ')}`)
  const repeated = suites.find((suite, i) => suites.indexOf(suite) !== i)
  if (repeated !== undefined) throw new InputError(`qa: --suite names ${repeated} twice`)
  if (!specs.length && !models.length) throw new InputError('qa: --agent is required (try --agent mock-qa)')
  if (models.length && values.model) throw new InputError('qa: give --model or --models, not both')
  refuseNetworkNoneWithUpstream(values, io.env)
  if (values['data-dir'] && suites.length > 1)
    throw new InputError(`qa: --data-dir applies to one --suite, wtq or dabench, alone (got ${suites.join(',')})`)
  if (values['data-dir'] && suites[0] !== 'wtq' && suites[0] !== 'dabench')
    throw new InputError('qa: --data-dir applies to --suite wtq or dabench only')
  const trials = parseIntegerFlag('trials', values.trials, 1, { min: 1 })
  const minPasses = parseMinPasses(values['min-passes'])
  const seed = parseIntegerFlag('seed', values.seed, 1, {})
  const limit = values.limit === undefined ? undefined : parseIntegerFlag('limit', values.limit, 1, { min: 1 })
  const timeoutS = parseNumberFlag('timeout-s', values['timeout-s'], 120, { min: 0, exclusiveMin: true })
  const concurrency =
    values.concurrency === undefined ? undefined : parseIntegerFlag('concurrency', values.concurrency, 1, { min: 1 })
  if (values.rpm !== undefined) parseNumberFlag('rpm', values.rpm, 60, { min: 0, exclusiveMin: true })
  await checkProviderFlags(values, io)
  const { paths, outputs } = cliReportOutputs(io.cwd, values, { folder: 'reports/qa', name: 'qa' })
  await checkReportOutputs(paths.dir, outputs)

  // Everything is checked (agents, keys, suite data) before the first question is asked.
  const arms = await resolveArms(specs, models, values, io, concurrency)
  const llm = await runLlmConfig(
    values as Parameters<typeof runLlmConfig>[0],
    io,
    resolveCacheOptions(
      io.env,
      { cache: values.cache as string | undefined, cacheDir: values['cache-dir'] as string | undefined },
      io.cwd,
    ),
  )
  // Several suites make one report: each suite's cases (a --limit sample of each), its records under its name.
  const cases: Array<{ suite: string; qaCase: QaCase }> = []
  for (const suite of suites) {
    const loaded = await loadQaSuite(suite, {
      seed,
      ...(values['data-dir'] ? { dataDir: resolve(io.cwd, values['data-dir']) } : {}),
      ...(limit !== undefined ? { limit } : {}),
    })
    cases.push(...loaded.map((qaCase) => ({ suite, qaCase })))
  }

  const runDateUtc = new Date().toISOString()
  const project = projectCommit(io.cwd)
  const units = arms.flatMap((arm) =>
    cases.flatMap(({ suite, qaCase }) => Array.from({ length: trials }, (_, trial) => ({ arm, suite, qaCase, trial }))),
  )
  const total = units.length
  const colors = colorsFor(io)
  let done = 0
  const records: RunRecord[] = []
  const transcripts: Transcript[] = []
  await Promise.all(
    arms.map((arm) =>
      inPool(
        units.filter((u) => u.arm === arm),
        arm.concurrency,
        async ({ suite, qaCase, trial }) => {
          const rs = await runQaTrial({
            agent: arm.agent,
            qaCase,
            suite,
            trial,
            seed: seed + trial,
            timeoutMs: timeoutS * 1000,
            provenance: { projectCommit: project.commit, runDateUtc },
            generation: values.generation ?? null,
            llm,
            onTranscript: (t) => transcripts.push(t),
          })
          records.push(...rs)
          done++
          if (!values.quiet) io.stderr(progressLine(done, total, arm.agent, qaCase, { trial, trials }, rs, colors))
        },
      ),
    ),
  )
  // Agents holding pooled connections (the tool-calling data agent) release them.
  await Promise.all(arms.map((a) => (a.agent as DataAgent & { close?: () => Promise<void> | void }).close?.()))
  const names = arms.map((a) => armName(a.agent.name, a.agent.model ?? null))
  const report = buildReport({
    records,
    datasets: [],
    cwd: io.cwd,
    runDateUtc,
    project,
    config: {
      command: 'qa',
      suite: suites.join(','),
      agents: names,
      trials,
      seed,
      limit: limit ?? null,
      timeoutS,
      generation: values.generation ?? null,
      priced: pricesGiven(values.prices, io.env),
    },
  })
  await writeCliReports(report, paths, {
    title: `dataforge-evals qa: ${suites.join(', ')}`,
    lock: true,
    io,
    shownFrom: io.cwd,
    timestamp: values.timestamp === true,
    transcripts,
    otel: values.otel as string | undefined,
  })
  // Fail closed, as `run` and the reporters: a suite in which no question scored (no cassette, no key) is no pass.
  const none = nothingScored(records, { one: 'question', many: 'questions' })
  const failures = none ? [`qa failed: ${none}`] : minPasses === undefined ? [] : repeatGateFailures(report, minPasses)
  await writeCliGithubOutput({ command: 'qa', flag: values.github, dir: paths.dir, failures, report, io })
  if (none) {
    io.stderr(`qa failed: ${terminalText(none)}\n`)
    return 1
  }
  return minPasses === undefined ? 0 : repeatGateExit(report, minPasses, io)
}

type Values = Record<string, string | string[] | boolean | undefined>

async function resolveArms(
  specs: string[],
  models: string[],
  values: Values,
  io: CliIO,
  concurrency: number | undefined,
): Promise<Arm[]> {
  const isolation = parseIsolationFlags(values)
  const provider = values.provider as string | undefined
  const providerOptions = {
    ...(values['base-url'] ? { baseUrl: values['base-url'] as string } : {}),
    ...(values['api-key-env'] ? { apiKeyEnv: values['api-key-env'] as string } : {}),
    env: io.env,
    envFile: resolve(io.cwd, '.env'),
    cwd: io.cwd,
    cache: resolveCacheOptions(
      io.env,
      { cache: values.cache as string | undefined, cacheDir: values['cache-dir'] as string | undefined },
      io.cwd,
    ),
    ...(concurrency !== undefined ? { concurrency } : {}),
    ...(values.rpm !== undefined
      ? { rpm: parseNumberFlag('rpm', values.rpm as string, 60, { min: 0, exclusiveMin: true }) }
      : {}),
    ...(values.prices ? { prices: resolve(io.cwd, values.prices as string) } : {}),
    log: (line: string) => io.stderr(`${line}\n`),
  }
  const modelSpecs = specs.filter(isModelBackedSpec)
  if (models.length && !modelSpecs.length) specs = [...specs, 'model-qa']
  const arms: Arm[] = []
  for (const spec of specs) {
    const perModel = isModelBackedSpec(spec)
      ? models.length
        ? models
        : [values.model as string | undefined]
      : [undefined]
    for (const model of perModel) {
      const agent = await resolveDataAgentSpec(spec, {
        cwd: io.cwd,
        ...(provider ? { provider } : {}),
        ...(model ? { model } : {}),
        providerOptions,
        isolate: isolation.isolate,
        isolation: {
          level: isolation.level,
          network: isolation.network,
          passEnv: isolation.passEnv,
          sandboxLimits: isolation.limits,
          warn: (line) => io.stderr(`${line}\n`),
        },
      })
      const preset = PROVIDER_PRESETS[spec in PROVIDER_PRESETS ? spec : (provider ?? '')]
      arms.push({ agent, concurrency: isModelBackedSpec(spec) ? (concurrency ?? preset?.limits.concurrency ?? 1) : 1 })
    }
  }
  const labels = arms.map((a) => `${a.agent.name}@${a.agent.model ?? ''}`)
  const duplicate = labels.find((l, i) => labels.indexOf(l) !== i)
  if (duplicate)
    throw new InputError(
      `qa: the agent ${duplicate.replace(/@$/, '')} appears twice; each agent and model once per run`,
    )
  return arms
}

/** Runs `work` over `items` with at most `size` in flight. */
async function inPool<T>(items: readonly T[], size: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  const worker = async () => {
    while (next < items.length) await work(items[next++]!)
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(size, items.length)) }, worker))
}

function progressLine(
  index: number,
  total: number,
  agent: DataAgent,
  qaCase: QaCase,
  at: { trial: number; trials: number },
  rs: RunRecord[],
  c: Colors,
): string {
  const who = terminalText(armName(agent.name, agent.model ?? null))
  const ok = rs.filter((r) => r.correct === true).length
  const failed = rs.filter((r) => r.status === 'failed')
  const tail = failed.length ? ` ${c.red(`FAILED ${failed.map((r) => r.failureKind).join(', ')}`)}` : ''
  return `[${index}/${total}] ${who} × ${terminalText(qaCase.id)} ${trialLabel(at.trial, at.trials)}: ${ok}/${rs.length} correct${tail}\n`
}
