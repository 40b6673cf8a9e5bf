import type { Test, TestContext } from '@vitest/runner'
import { afterAll, test as vitestTest } from 'vitest'
import type { RepairAgent } from '../core/agent.js'
import type { DatasetInfo } from '../core/dataset-info.js'
import type { AgentRunResult, AgentTask, Fix } from '../core/schemas.js'
import type { DatasetRequest } from '../datasets/index.js'
import { invokeRepairAgent } from '../run/invoke-agent.js'
import { checkTimeoutMs, withTimeout } from '../run/with-timeout.js'
import { checkEvalCaseArgs } from './check-options.js'
import { metaOf, recordFailureOn, recordMetricOn, recordUsageOn, runInTest } from './current.js'
import { newMeta } from './meta.js'
import { recordAgentFailure } from './record-failure.js'

export type DatasetOption = string | Omit<DatasetRequest, 'seed'>
export type TaskSource = { task: AgentTask; info: DatasetInfo } | ((seed: number) => Promise<{ task: AgentTask; info: DatasetInfo }> | { task: AgentTask; info: DatasetInfo })

export interface EvalCaseOptions {
  /** A dataset id (`synthetic`, `hospital`, a Raha-layout folder) or a full request (rows, error rate, CSV pair…). */
  dataset?: DatasetOption
  /** A task you built (e.g. with `createRepairTask`), or a factory called with each trial's seed. */
  task?: TaskSource
  /**
   * The agent under test. A name (`baseline`), a module path (`./my-agent.ts`), `cmd:python3 agent.py` or
   * `{ command: ['python3', 'agent.py'] }` resolve like the CLI's `--agent`: modules and commands run in their
   * own process, where the truth does not exist. An agent *object* runs in this process: it is trusted code
   * (yours), and nothing keeps it from the truth.
   */
  agent: RepairAgent | string | { command: readonly string[] }
  /** `false` runs a module agent in this process (trusted code, debugging). Default true. */
  isolate?: boolean
  /** Heap limit in MB of an isolated module agent's process (`--max-old-space-size`). Default 2048. */
  agentMemoryMb?: number
  trials?: number
  /** First seed; trial i uses seed + i. Default 1. */
  seed?: number
  /** Per-trial timeout in milliseconds: the agent's signal aborts and the trial fails as `timeout`. Default 60000. */
  timeout?: number
  category?: string
  tags?: string[]
  /** Comparability epoch recorded on every run. */
  generation?: string
}

/** The agent as handed to the eval body: `run(task)` fills in the trial's seed and signal and records usage. */
export interface BoundAgent {
  name: string
  kind: string
  model: string | undefined
  run(task?: AgentTask): Promise<Fix[] | AgentRunResult>
}

export interface EvalCaseContext {
  task: AgentTask
  info: DatasetInfo
  agent: BoundAgent
  seed: number
  trial: number
  signal: AbortSignal
  /** Records a custom metric on this run (averaged per group in the report). */
  record(name: string, value: number): void
  /** Vitest's own test context (annotate, skip, onTestFinished…). */
  test: TestContext
}

type EvalBody = (ctx: EvalCaseContext) => unknown | Promise<unknown>
type Registrar = typeof vitestTest | typeof vitestTest.only | typeof vitestTest.skip | typeof vitestTest.concurrent | typeof vitestTest.fails

const DEFAULT_TIMEOUT_MS = 60_000

export function trialTestName(name: string, trial: number, trials: number, seed: number): string {
  return `${name} [trial ${trial + 1}/${trials} · seed ${seed}]`
}

function datasetIdOf(options: EvalCaseOptions): string {
  if (typeof options.dataset === 'string') return options.dataset
  if (options.dataset) return options.dataset.id
  if (options.task && typeof options.task !== 'function') return options.task.info.id
  return 'custom'
}

function staticAgentIdentity(agent: EvalCaseOptions['agent']): { name: string; kind: string; model: string | null; provider: string | null } {
  if (typeof agent === 'string') return { name: agent.replace(/^cmd:\s*/, '').replace(/^.*\//, '').replace(/\.[cm]?[jt]s$/, ''), kind: 'custom', model: null, provider: null }
  if (!('run' in agent)) return { name: agent.command.join(' '), kind: 'custom', model: null, provider: null }
  return { name: agent.name, kind: agent.kind ?? 'custom', model: agent.model ?? null, provider: agent.provider ?? null }
}

async function loadTask(options: EvalCaseOptions, seed: number): Promise<{ task: AgentTask; info: DatasetInfo }> {
  if (options.task) return typeof options.task === 'function' ? options.task(seed) : options.task
  if (!options.dataset) throw new Error('evalCase needs a `dataset` or a `task` option')
  const request = typeof options.dataset === 'string' ? { id: options.dataset } : options.dataset
  // Loaded on first use, like the agent registry below: eval files that bring their own tasks and agent
  // objects do not pay for the dataset loaders, the provider clients and their SDKs.
  const { loadDataset } = await import('../datasets/index.js')
  return loadDataset({ ...request, seed })
}

/**
 * Datasets already described on a test's meta by this worker. The reporter needs each description once (it
 * keeps them across runs), and a thousand copies of it would cost more than the trials themselves.
 */
const described = new Set<string>()

function firstDescription(info: DatasetInfo): boolean {
  const key = [info.id, info.seed ?? '', info.dirty.sha256, info.clean.sha256].join('\u0000')
  if (described.has(key)) return false
  described.add(key)
  return true
}

/**
 * The case's agent, resolved once for all its trials (one isolated process serves them in turn, each trial with
 * a fresh module instance) and closed after the file's tests.
 */
function lazyAgent(options: EvalCaseOptions): () => Promise<RepairAgent> {
  const spec = options.agent
  if (typeof spec === 'object' && 'run' in spec) return async () => spec
  let resolved: Promise<RepairAgent> | null = null
  afterAll(async () => {
    const agent = await resolved?.catch(() => null)
    if (agent) {
      const { closeAgent } = await import('../adapters/registry.js')
      await closeAgent(agent)
    }
  })
  return () => {
    resolved ??= import('../adapters/registry.js').then(({ resolveAgent }) =>
      resolveAgent(spec, {
        cwd: process.cwd(),
        isolate: options.isolate !== false,
        ...(options.agentMemoryMb !== undefined ? { isolation: { maxOldSpaceMb: options.agentMemoryMb } } : {}),
      }),
    )
    return resolved
  }
}

function makeEvalCase(register: Registrar) {
  return (name: string, options: EvalCaseOptions, body: EvalBody): void => {
    checkEvalCaseArgs(name, options, body)
    const trials = options.trials ?? 1
    const firstSeed = options.seed ?? 1
    const timeoutMs = options.timeout ?? DEFAULT_TIMEOUT_MS
    checkTimeoutMs(timeoutMs, `evalCase "${name}": timeout`)
    const identity = staticAgentIdentity(options.agent)
    const agentOf = lazyAgent(options)
    const dataset = datasetIdOf(options)
    for (let trial = 0; trial < trials; trial++) {
      const seed = firstSeed + trial
      const meta = newMeta({
        caseId: name,
        suite: dataset,
        dataset,
        agent: identity.name,
        agentKind: identity.kind,
        model: identity.model,
        provider: identity.provider,
        category: options.category ?? null,
        tags: options.tags ?? [],
        trial,
        trials,
        seed,
        generation: options.generation ?? null,
      })
      // The Vitest timeout sits past ours, so an expired trial reports as our `timeout`, not Vitest's.
      register(trialTestName(name, trial, trials, seed), { timeout: timeoutMs + 5_000, meta: { dataforge: meta } }, async (context: TestContext) => {
        const test = context.task as Test
        await runInTest(test, async () => {
          const live = metaOf(test)
          const agent = await agentOf()
          Object.assign(live, {
            agent: agent.name,
            agentKind: agent.kind ?? 'custom',
            model: agent.model ?? live.model,
            provider: agent.provider ?? live.provider,
            agentProvenance: agent.provenance ?? null,
          })
          const { task, info } = options.task && typeof options.task !== 'function' ? options.task : await loadTask(options, seed)
          Object.assign(live, {
            dataset: info.id,
            suite: live.suite === 'custom' ? info.id : live.suite,
            datasetSha256: { dirty: info.dirty.sha256, clean: info.clean.sha256 },
            ...(firstDescription(info) ? { datasetInfo: info } : {}),
          })
          try {
            await withTimeout(
              timeoutMs,
              (signal) =>
                body({
                  task,
                  info,
                  seed,
                  trial,
                  signal,
                  record: (metric, value) => recordMetricOn(test, metric, value),
                  test: context,
                  agent: bindAgent(agent, { seed, trial, signal }, task, test),
                }),
              context.signal,
            )
          } catch (error) {
            // The bound agent already recorded the first failure it saw; keep that one.
            if (!metaOf(test).failure) recordFailureOn(test, error)
            throw error
          }
        })
      })
    }
  }
}

/**
 * The agent as the eval body sees it: each `run` goes through the CLI's invoke path (src/run/), so output is
 * normalized, usage sanitized and failures classified the same way. A failure is recorded on the test when it
 * happens: a body that catches the agent's exception still records a failed trial.
 */
function bindAgent(agent: RepairAgent, ctx: { seed: number; trial: number; signal: AbortSignal }, defaultTask: AgentTask, test: Test): BoundAgent {
  return {
    name: agent.name,
    kind: agent.kind ?? 'custom',
    model: agent.model,
    async run(task = defaultTask) {
      try {
        const { output, oracle } = await invokeRepairAgent(agent, task, ctx)
        recordUsageOn(test, output.usage, output.steps, output.model ?? undefined)
        if (oracle) metaOf(test).agentKind = 'oracle'
        return { fixes: output.fixes as Fix[], usage: output.usage, steps: output.steps, ...(output.model ? { model: output.model } : {}), warnings: output.warnings }
      } catch (error) {
        recordAgentFailure(test, error)
        throw error
      }
    },
  }
}

type EvalCaseFn = ReturnType<typeof makeEvalCase>

/**
 * Registers one Vitest test per trial, named `name [trial i/N · seed s]`. The body gets the label-hidden task,
 * the agent, the seed, an abort signal and `record()`; dataset id and hashes, agent, model, category, trial and
 * seed go on the test's meta for the reporter.
 */
export const evalCase: EvalCaseFn & { only: EvalCaseFn; skip: EvalCaseFn; concurrent: EvalCaseFn; fails: EvalCaseFn } = Object.assign(
  makeEvalCase(vitestTest),
  {
    only: makeEvalCase(vitestTest.only),
    skip: makeEvalCase(vitestTest.skip),
    concurrent: makeEvalCase(vitestTest.concurrent),
    // Expected to miss its bars (a floor agent): the test passes when an assertion fails, and the run is recorded
    // as not correct, so Score says what the assertions found.
    fails: makeEvalCase(vitestTest.fails),
  },
)
