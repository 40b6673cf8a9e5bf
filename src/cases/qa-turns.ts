import type { Answer, Grader } from '../core/answer.js'
import type { DataAgent } from '../core/data-agent.js'
import { InputError } from '../core/errors.js'
import type { QaCase, QaSuite, QaSuiteOptions } from '../datasets/questions/types.js'
import { turnNumber, turnsOf } from '../datasets/questions/types.js'
import { putCounters, putFailure, putUsage } from '../test-meta/put.js'
import type { QaTrialSession } from '../run/run-qa-trial.js'
import { type DataforgeMeta, datasetDigests, newMeta } from '../test-meta/build.js'
import { checkQaSuiteOptions } from './check-options.js'
import type { LlmConfig } from '../gateway/trial-llm.js'
import type { AgentIdentity } from '../core/trial-identity.js'
import type { LlmOption } from '../gateway/upstream.js'
import { caseLlm, putLlmOutcome } from './case-llm.js'
import { checkInTime } from './conversation-turns.js'

/**
 * What `qaSuite` does whatever the runner: its options, where its cases and agent come from, each turn's meta
 * and the run of one turn on a running test's meta. Each runner's `qaSuite` only registers the tests.
 */

export interface QaSuiteRunOptions {
  /** A data agent, or a name as in `dataforge-evals qa --agent` (`mock-qa`, `refuse`, a provider preset). */
  agent: DataAgent | string
  /** Repeated samples of every case; trial i asks with seed `seed + i`. Default 1. */
  trials?: number
  /** Seed of the suite's data (and of the first trial). Default 1. */
  seed?: number
  /** Suite name in reports and test names; default the built-in name or the suite function's name. */
  name?: string
  /**
   * Per-question timeout in ms (the question's signal aborts, the turn fails as `timeout`); grading the answer gets
   * as long again. Default 60000.
   */
  timeout?: number
  generation?: string
  /** WikiTableQuestions and DABench: a full release folder (`dataDir`); a seeded sample size (`limit`). */
  dataDir?: string
  limit?: number
  /** Where the agent's model calls go, through the harness's gateway (as `evalCase`'s `llm`). Default `DATAFORGE_LLM`. */
  llm?: LlmOption
}

export type QaSuiteInput = QaSuite | QaCase[] | string

const DEFAULT_TIMEOUT_MS = 60_000

interface QaPlan {
  name: string
  trials: number
  seed: number
  timeoutMs: number
  suiteOptions: QaSuiteOptions
  /** The suite's upstream, resolved on first use (null: no gateway). */
  llm: () => Promise<LlmConfig | null>
}

/** The checked options of a `qaSuite` call. */
export function qaPlan(suite: QaSuiteInput, options: QaSuiteRunOptions): QaPlan {
  checkQaSuiteOptions(options)
  const trials = options.trials ?? 1
  const seed = options.seed ?? 1
  if (options.agent === undefined || options.agent === null || options.agent === '')
    throw new InputError('qaSuite: agent is required')
  return {
    name: options.name ?? suiteName(suite),
    trials,
    seed,
    timeoutMs: options.timeout ?? DEFAULT_TIMEOUT_MS,
    suiteOptions: {
      seed,
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      ...(options.limit !== undefined ? { limit: options.limit } : {}),
    },
    llm: caseLlm(options.llm, 'qaSuite'),
  }
}

function suiteName(suite: QaSuiteInput): string {
  if (typeof suite === 'string') return suite
  if (typeof suite === 'function' && suite.name) return suite.name.replace(/Suite$/, '') || 'qa'
  return 'qa'
}

function checkCases(cases: unknown): QaCase[] {
  if (!Array.isArray(cases) || cases.length === 0) throw new InputError('qaSuite: the suite returned no cases')
  return cases
}

/** The suite's cases (a built-in suite by name, a suite function, or the cases themselves). */
export async function qaCases(suite: QaSuiteInput, opts: QaSuiteOptions): Promise<QaCase[]> {
  if (typeof suite === 'string') {
    const { loadQaSuite } = await import('../datasets/questions/index.js')
    return loadQaSuite(suite, opts)
  }
  return checkCases(Array.isArray(suite) ? suite : await suite(opts))
}

/**
 * The cases when the runner must know its tests synchronously (Jest collects a file without awaiting): the
 * built-in suites load synchronously; a suite function must return its cases, not a promise of them.
 */
export function qaCasesNow(
  suite: QaSuiteInput,
  opts: QaSuiteOptions,
  loadBuiltIn: (name: string, opts: QaSuiteOptions) => QaCase[],
): QaCase[] {
  if (typeof suite === 'string') return loadBuiltIn(suite, opts)
  if (Array.isArray(suite)) return checkCases(suite)
  const cases = suite(opts)
  if (cases instanceof Promise) {
    cases.catch(() => {})
    throw new InputError(
      `qaSuite: the suite ${suite.name || 'function'} returns a promise, and Jest registers a file's tests synchronously; pass its cases instead (qaSuite(await ${suite.name || 'suite'}({ seed: 1 }), …) in an ESM test file) or a suite that returns them`,
    )
  }
  return checkCases(cases)
}

/** A data agent object as given, or a name resolved as the `qa` command resolves it. */
export async function resolveQaAgent(spec: DataAgent | string): Promise<DataAgent> {
  if (typeof spec !== 'string') {
    if (typeof spec.session !== 'function')
      throw new InputError('qaSuite: agent must be a data agent with session(tables)')
    return spec
  }
  const { resolveDataAgentSpec } = await import('../adapters/data-agents.js')
  return resolveDataAgentSpec(spec, { cwd: process.cwd(), providerOptions: { cwd: process.cwd() } })
}

/** The meta of one turn (or single question) of one trial. */
export function qaTurnMeta(
  plan: QaPlan,
  qaCase: QaCase,
  index: number,
  trial: number,
  agent: AgentIdentity,
  generation: string | undefined,
): DataforgeMeta {
  return newMeta(
    {
      caseId: qaCase.id,
      dataset: plan.name,
      ...agent,
      category: qaCase.category,
      trial,
      seed: plan.seed + trial,
      turn: turnNumber(qaCase, index),
      generation,
    },
    { trials: plan.trials, ...(qaCase.metrics ? { metrics: { ...qaCase.metrics } } : {}) },
  )
}

/**
 * Asks turn `index` of the trial's session and records it on `live` (the running test's meta): the case's data
 * digest, usage, steps and counters, or the failure, which is rethrown. `check` grades the answer (`toPass`)
 * within the question's timeout (`turn.timeoutMs`): a grader past it fails the turn as `timeout`.
 * The caller brings the trial path (src/run/run-qa-trial.ts: the session, the digest), which the Vitest entry
 * loads only when a suite registers.
 */
export async function runQaTurn(
  live: DataforgeMeta,
  turn: { session: QaTrialSession; qaCase: QaCase; index: number; dataSha256: string; timeoutMs: number },
  check: (answer: Answer, grader: Grader) => unknown | Promise<unknown>,
): Promise<void> {
  const { session, qaCase, index, dataSha256 } = turn
  live.startedAt = new Date().toISOString()
  live.datasetSha256 = datasetDigests(dataSha256, dataSha256)
  const outcome = await session.turn(index)
  // The case's facts stay as the case states them, whatever counters the agent reports.
  const facts = () => Object.assign(live.metrics, qaCase.metrics)
  if ('error' in outcome) {
    putFailure(live, outcome.error)
    facts()
    if (outcome.llm) putLlmOutcome(live, outcome.llm)
    throw outcome.error
  }
  const { answer } = outcome
  putUsage(live, answer.usage, answer.steps ?? 1, answer.model)
  putCounters(live, answer.metrics)
  facts()
  if (outcome.llm) {
    // After the agent's own usage: the gateway's count replaces it (no double count).
    const refused = putLlmOutcome(live, outcome.llm)
    if (refused) throw refused
  }
  await checkInTime(live, turn.timeoutMs, () => check(answer, turnsOf(qaCase)[index]!.grader))
}
