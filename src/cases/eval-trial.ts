import { trialLabel } from '../core/trial-label.js'
import type { RepairAgent } from '../core/agent.js'
import type { DataAgent } from '../core/data-agent.js'
import type { IsolateOption } from '../isolation/wall.js'
import type { DatasetInfo } from '../core/dataset-info.js'
import type { AgentRunResult, AgentTask, Fix } from '../core/schemas.js'
import type { DatasetRequest } from '../datasets/load.js'
import { putAgent, putMetric } from '../test-meta/put.js'
import type { LlmAccess } from '../core/llm.js'
import type { AgentFailure } from '../core/errors.js'
import { type AgentIdentity, agentIdentity } from '../core/trial-identity.js'
import { agentKindOf } from '../core/agent.js'
import { ownUpstreamOf } from '../gateway/agent-upstream.js'
import type { LlmConfig } from '../gateway/trial-llm.js'
import type { LlmOption } from '../gateway/upstream.js'
import { caseLlm, openCaseTrial } from './case-llm.js'
import type { Trajectory } from '../grading/trajectory.js'
import { trialTrajectory } from './trajectory-source.js'
import { invokeRepairAgent } from '../run/invoke-agent.js'
import { type ParentSignal, withLazyTimeout } from '../run/with-timeout.js'
import { type DataforgeMeta, datasetDigests, newMeta } from '../test-meta/build.js'
import { putAgentFailure, putFailureOnce, putUsageOf } from '../test-meta/put-failure.js'

/**
 * What `evalCase` does whatever the runner: the trial's meta, the agent resolved once per case, the task
 * loaded per seed, the body run under its timeout with the agent bound to the CLI's invoke path (src/run/).
 * Each runner's `evalCase` only registers its tests and hands this the meta of the running one.
 */

export type DatasetOption = string | Omit<DatasetRequest, 'seed'>
export type TaskSource =
  | { task: AgentTask; info: DatasetInfo }
  | ((seed: number) => Promise<{ task: AgentTask; info: DatasetInfo }> | { task: AgentTask; info: DatasetInfo })

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
  /**
   * The wall around a module or command agent: `'sandbox'` (the OS sandbox, bubblewrap), `'process'` (Node's
   * permission model), true (default: the sandbox when it works here, else `'process'` with one warning), or
   * false / `'none'` to run a module agent in this process (trusted code, debugging). See docs/isolation.md.
   */
  isolate?: IsolateOption
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
  /**
   * Where the agent's model calls go, through the harness's gateway: a preset (`'groq'`, `'openai'`, `'anthropic'`…),
   * a base URL, or `{ baseUrl, keyEnv, budget }`. Default `DATAFORGE_LLM`; none: no gateway. See docs/gateway.md.
   */
  llm?: LlmOption
}

/** The agent as handed to the eval body: `run(task)` fills in the trial's seed and signal and records usage. */
export interface BoundAgent {
  name: string
  kind: string
  model: string | undefined
  run(task?: AgentTask): Promise<Fix[] | AgentRunResult>
}

/** What an eval body gets under any runner (Vitest adds its test context as `test`). */
export interface EvalTrialContext {
  task: AgentTask
  info: DatasetInfo
  agent: BoundAgent
  seed: number
  trial: number
  signal: AbortSignal
  /** Records a custom metric on this run (averaged per group in the report). */
  record(name: string, value: number): void
  /** The model gateway for this trial (`baseURL`, `apiKey`, `anthropicBaseURL`, `fetch`), when the case has an upstream. */
  llm: LlmAccess | undefined
  /**
   * The trial's trajectory so far: the model calls the gateway served, the tool calls (the model's, read from its
   * answers, and the agent's own) and the steps. For `toCallTools`, `toUseAtMostSteps`, `toUseAtMostCalls`.
   */
  trajectory(): Trajectory
}

export const DEFAULT_TRIAL_TIMEOUT_MS = 60_000

export function trialTestName(name: string, trial: number, trials: number, seed: number): string {
  return `${name} [${trialLabel(trial, trials)} · seed ${seed}]`
}

/** The dataset of a case whose task comes from a factory, until its first task names it. */
const CUSTOM_DATASET = 'custom'

function datasetIdOf(options: EvalCaseOptions): string {
  if (typeof options.dataset === 'string') return options.dataset
  if (options.dataset) return options.dataset.id
  if (options.task && typeof options.task !== 'function') return options.task.info.id
  return CUSTOM_DATASET
}

/** An agent's name before it is resolved: a module path's stem, a command's words. */
function agentNameOf(spec: string | { command: readonly string[] }): string {
  if (typeof spec === 'string')
    return spec
      .replace(/^cmd:\s*/, '')
      .replace(/^.*\//, '')
      .replace(/\.[cm]?[jt]s$/, '')
  return spec.command.join(' ')
}

/** Who runs a case before its agent is resolved: an agent object as it is, a module or command by its name. */
export function specIdentity(spec: RepairAgent | DataAgent | string | { command: readonly string[] }): AgentIdentity {
  if (typeof spec === 'object' && ('run' in spec || 'session' in spec)) return agentIdentity(spec)
  return agentIdentity({ name: agentNameOf(spec as string | { command: readonly string[] }) })
}

/** The resolved task's data on the running test's meta (its description once per worker). */
function putData(live: DataforgeMeta, info: DatasetInfo): void {
  live.dataset = info.id
  if (live.suite === CUSTOM_DATASET) live.suite = info.id
  live.datasetSha256 = datasetDigests(info.dirty.sha256, info.clean.sha256)
  if (firstDescription(info)) live.datasetInfo = info
}

/** The meta a trial starts with, before its agent and dataset are resolved. */
export function trialMeta(name: string, options: EvalCaseOptions, trial: number): DataforgeMeta {
  const dataset = datasetIdOf(options)
  return newMeta(
    {
      caseId: name,
      dataset,
      ...specIdentity(options.agent),
      category: options.category,
      trial,
      seed: (options.seed ?? 1) + trial,
      generation: options.generation,
    },
    { tags: options.tags ?? [], trials: options.trials ?? 1 },
  )
}

async function loadTask(options: EvalCaseOptions, seed: number): Promise<{ task: AgentTask; info: DatasetInfo }> {
  if (options.task) return typeof options.task === 'function' ? options.task(seed) : options.task
  if (!options.dataset) throw new Error('evalCase needs a `dataset` or a `task` option')
  const request = typeof options.dataset === 'string' ? { id: options.dataset } : options.dataset
  // Loaded on first use, like the agent registry below: eval files that bring their own tasks and agent
  // objects do not pay for the dataset loaders, the provider clients and their SDKs.
  const { loadDataset } = await import('../datasets/load.js')
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

interface CaseAgent {
  get(): Promise<RepairAgent>
  /** False for an agent object (nothing to close): the runner then registers no after-all hook for it. */
  readonly closes: boolean
  /** Closes a resolved agent (its process); the runner calls it after the file's tests. */
  close(): Promise<void>
}

/**
 * The case's agent, resolved once for all its trials (one isolated process serves them in turn, each trial with
 * a fresh module instance).
 */
export function caseAgent(options: EvalCaseOptions): CaseAgent {
  const spec = options.agent
  if (typeof spec === 'object' && 'run' in spec) return { get: async () => spec, closes: false, close: async () => {} }
  let resolved: Promise<RepairAgent> | null = null
  return {
    closes: true,
    get: () => {
      resolved ??= Promise.all([import('../adapters/registry.js'), import('../isolation/wall.js')]).then(
        ([{ resolveAgent }, { isolateOption }]) => {
          const { isolate, level } = isolateOption(options.isolate)
          return resolveAgent(spec, {
            cwd: process.cwd(),
            isolate,
            isolation: {
              level,
              ...(options.agentMemoryMb !== undefined ? { maxOldSpaceMb: options.agentMemoryMb } : {}),
            },
          })
        },
      )
      return resolved
    },
    close: async () => {
      const agent = await resolved?.catch(() => null)
      if (agent) {
        const { closeAgent } = await import('../adapters/registry.js')
        await closeAgent(agent)
      }
    },
  }
}

/**
 * Runs one trial on `live` (the running test's meta): resolves the agent and the task, records who and what on
 * the meta, then runs the body under the trial's timeout. A failure is recorded before it is rethrown.
 */
export async function runTrial(
  live: DataforgeMeta,
  options: EvalCaseOptions,
  agentOf: CaseAgent,
  run: { trial: number; timeoutMs: number; parentSignal?: ParentSignal | undefined },
  body: (ctx: EvalTrialContext) => unknown,
): Promise<void> {
  const seed = live.seed
  live.startedAt = new Date().toISOString()
  const agent = await agentOf.get()
  putAgent(live, agentIdentity(agent))
  const { task, info } =
    options.task && typeof options.task !== 'function' ? options.task : await loadTask(options, seed)
  putData(live, info)
  const own = ownUpstreamOf(agent)
  // A built-in model agent brings its preset's upstream; any other agent takes the case's.
  const llmTrial = await openCaseTrial(own ? async () => own : llmConfigOf(options), {
    caseId: live.caseId,
    trial: run.trial,
    seed,
  })
  const llm = llmTrial?.llm
  let refused: AgentFailure | null = null
  try {
    // The signal is made only if the body or the agent reads it (most trivial agents never do).
    await withLazyTimeout(
      run.timeoutMs,
      (lazy) =>
        body({
          task,
          info,
          seed,
          trial: run.trial,
          llm,
          get signal() {
            return lazy.signal
          },
          record: (metric, value) => putMetric(live, metric, value),
          trajectory: () => trialTrajectory(llmTrial ? llmTrial.calls() : null, live),
          agent: bindAgent(agent, agentContext(seed, run.trial, lazy, llm), task, live),
        }),
      run.parentSignal,
    )
  } catch (error) {
    // The bound agent already recorded the first failure it saw; keep that one.
    putFailureOnce(live, error)
    throw error
  } finally {
    if (llmTrial) {
      llmTrial.finish()
      refused = llmTrial.put(live)
    }
  }
  // A call the gateway refused fails the trial even when the body caught the agent's error.
  if (refused) throw refused
}

const llmConfigs = new WeakMap<EvalCaseOptions, () => Promise<LlmConfig | null>>()

/** The case's upstream (its `llm` option or `DATAFORGE_LLM`), resolved once per case. */
function llmConfigOf(options: EvalCaseOptions): () => Promise<LlmConfig | null> {
  let config = llmConfigs.get(options)
  if (!config) {
    config = caseLlm(options.llm, 'evalCase')
    llmConfigs.set(options, config)
  }
  return config
}

/** What the agent's `run` gets: the trial's seed and number, its signal (made when read) and the gateway, if any. */
function agentContext(
  seed: number,
  trial: number,
  lazy: { readonly signal: AbortSignal },
  llm: LlmAccess | undefined,
): { seed: number; trial: number; signal: AbortSignal; llm?: LlmAccess } {
  const ctx: { seed: number; trial: number; signal: AbortSignal; llm?: LlmAccess } = {
    seed,
    trial,
    get signal() {
      return lazy.signal
    },
  }
  // Set, not spread into the literal: one is made for every trial.
  if (llm) ctx.llm = llm
  return ctx
}

/**
 * The agent as the eval body sees it: each `run` goes through the CLI's invoke path (src/run/), so output is
 * normalized, usage sanitized and failures classified the same way. A failure is recorded on the test when it
 * happens: a body that catches the agent's exception still records a failed trial.
 */
function bindAgent(
  agent: RepairAgent,
  ctx: { seed: number; trial: number; signal: AbortSignal; llm?: LlmAccess },
  defaultTask: AgentTask,
  live: DataforgeMeta,
): BoundAgent {
  return {
    name: agent.name,
    kind: agentKindOf(agent),
    model: agent.model,
    async run(task = defaultTask) {
      try {
        const { output, oracle } = await invokeRepairAgent(agent, task, ctx)
        putUsageOf(live, output.usage, output.steps, output.model ?? undefined)
        if (oracle) live.agentKind = 'oracle'
        const result: AgentRunResult = {
          fixes: output.fixes as Fix[],
          usage: output.usage,
          steps: output.steps,
          warnings: output.warnings,
        }
        if (output.model) result.model = output.model
        return result
      } catch (error) {
        putAgentFailure(live, error)
        throw error
      }
    },
  }
}
