import type { Answer } from '../core/answer.js'
import type { IsolateOption } from '../isolation/wall.js'
import type { DataAgent, DataSession } from '../core/data-agent.js'
import { tablesJsonSha256 } from '../core/hash.js'
import type { Table } from '../core/schemas.js'
import { putAgent, putCounters, putUsage } from '../test-meta/put.js'
import { sanitizeUsage } from '../run/normalize-output.js'
import { checkTimeoutMs, runnerTimeoutMs, withLazyTimeout } from '../run/with-timeout.js'
import { checkConversationArgs } from './check-options.js'
import { type DataInput, normalizeData } from './data-input.js'
import { type DataforgeMeta, datasetDigests, newMeta } from '../test-meta/build.js'
import { specIdentity } from './eval-trial.js'
import { agentIdentity } from '../core/trial-identity.js'
import { putAgentFailure, putFailureOnce } from '../test-meta/put-failure.js'
import type { AgentFailure } from '../core/errors.js'
import type { LlmOption } from '../gateway/upstream.js'
import { ownUpstreamOf } from '../gateway/agent-upstream.js'
import { type CaseTrial, caseLlm, openCaseTrial } from './case-llm.js'
import type { Trajectory } from '../grading/trajectory.js'
import { trialTrajectory } from './trajectory-source.js'

/**
 * What `conversation` does whatever the runner: one session, questions asked strictly in order, each turn's
 * meta, its answer's usage and counters recorded. Each runner's `conversation` only registers a test per turn.
 */

export interface ConversationOptions {
  data: DataInput
  /**
   * A data agent object (runs in this process: trusted code), or a module path / `cmd:COMMAND` /
   * `{ command: [...] }` run in its own process over the agent protocol (docs/agent-protocol.md).
   */
  agent: DataAgent | string | { command: readonly string[] }
  /** As `evalCase`'s: `'sandbox'`, `'process'`, true (default: the sandbox when it works), false / `'none'` (in this process). */
  isolate?: IsolateOption
  /** Suite name for grouping; default the conversation's name. */
  suite?: string
  category?: string
  seed?: number
  generation?: string
  /**
   * Per-turn timeout in ms: the question's signal aborts and the turn fails as `timeout`; the turn's check of the
   * answer gets as long again. Default 60000.
   */
  timeout?: number
  /** Where the agent's model calls go, through the harness's gateway (as `evalCase`'s `llm`). Default `DATAFORGE_LLM`. */
  llm?: LlmOption
}

const DEFAULT_TURN_TIMEOUT_MS = 60_000

export function turnTestName(name: string, turn: number): string {
  return `${name}#t${turn}`
}

interface ConversationSession {
  /** Each question's timeout in ms. */
  timeoutMs: number
  /** The meta turn `turn` (1-based) starts with. */
  turnMeta(turn: number): DataforgeMeta
  /**
   * Asks turn `index` (0-based; the turns before it first, if a filter skipped them) and records the answer's
   * usage and counters, or the failure, on `live`.
   */
  answer(live: DataforgeMeta, index: number): Promise<Answer>
  /** Turn `index` as its test runs it: the answer, then `check` within the turn's timeout (`checkInTime`). */
  runTurn(live: DataforgeMeta, index: number, check: (answer: Answer) => unknown): Promise<void>
  /** The test runner's timeout for turn `index` (`turnRunnerTimeoutMs`). */
  runnerTimeoutMs(index: number): number
  /** Turn `index`'s trajectory once it is answered: its model calls, tool calls and steps (`ctx.trajectory()`). */
  trajectory(live: DataforgeMeta, index: number): Trajectory
  /** Closes the session and a resolved agent; the runner calls it after the file's tests. */
  close(): Promise<void>
}

/** Checks the call's arguments (errors name the conversation and the option) and prepares its session. */
export function conversationSession(
  name: string,
  options: ConversationOptions,
  turns: ReadonlyArray<readonly [question: string, check: unknown]>,
): ConversationSession {
  checkConversationArgs(name, options, turns)
  const timeoutMs = options.timeout ?? DEFAULT_TURN_TIMEOUT_MS
  checkTimeoutMs(timeoutMs, `conversation "${name}": timeout`)
  const questions = turns.map(([question]) => question)
  const seed = options.seed ?? 1
  let session: Promise<DataSession> | null = null
  let data: { tables: Record<string, Table>; digest: string } | null = null
  // Questions are asked strictly in order, whatever the tests' scheduling or filters.
  const answers: Array<Promise<Answer>> = []
  const tables = () => {
    if (!data) {
      const normalized = normalizeData(options.data)
      data = { tables: normalized, digest: tablesJsonSha256(normalized) }
    }
    return data
  }
  let resolved: Promise<DataAgent> | null = null
  const agentOf = (): Promise<DataAgent> => {
    const spec = options.agent
    resolved ??=
      typeof spec === 'object' && 'session' in spec
        ? Promise.resolve(spec)
        : Promise.all([import('../adapters/registry.js'), import('../isolation/wall.js')]).then(
            ([{ resolveCustomDataAgent }, { isolateOption }]) => {
              const { isolate, level } = isolateOption(options.isolate)
              return resolveCustomDataAgent(spec, { cwd: process.cwd(), isolate, isolation: { level } })
            },
          )
    return resolved
  }
  // The model gateway: one trial for the whole session; each turn's test gets the calls made while it was asked.
  const llmConfig = caseLlm(options.llm, `conversation "${name}"`)
  let llmTrial: Promise<CaseTrial | null> | null = null
  let openedTrial: CaseTrial | null = null
  const turnMarks: Array<[from: number, to: number]> = []
  const openSession = () => {
    session ??= agentOf().then(async (agent) => {
      const own = ownUpstreamOf(agent)
      // A built-in model agent brings its preset's upstream; any other agent takes the conversation's.
      llmTrial ??= openCaseTrial(own ? async () => own : llmConfig, { caseId: name, trial: 0, seed })
      const trial = await llmTrial
      openedTrial = trial
      return agent.session(tables().tables, { seed, ...(trial ? { llm: trial.llm } : {}) })
    })
    return session
  }
  /**
   * The gateway's view of turn `index` onto its test's meta (after the agent's own usage: the gateway's count
   * wins); returns the turn's gateway failure, if any.
   */
  const putTurnLlm = async (live: DataforgeMeta, index: number): Promise<AgentFailure | null> => {
    const trial = await llmTrial
    const range = turnMarks[index]
    return trial && range ? trial.put(live, range[0], range[1]) : null
  }
  const marked = async <T>(index: number, ask: () => Promise<T>): Promise<T> => {
    const trial = await llmTrial
    const from = trial?.mark() ?? 0
    try {
      return await ask()
    } finally {
      trial?.endTurn()
      turnMarks[index] = [from, trial?.mark() ?? 0]
    }
  }
  const ask = (index: number): Promise<Answer> => {
    if (answers[index]) return answers[index]!
    for (let i = answers.length; i <= index; i++) {
      const previous = i === 0 ? Promise.resolve() : answers[i - 1]!.catch(() => undefined)
      const question = questions[i]!
      answers[i] = previous.then(() =>
        withLazyTimeout(timeoutMs, async (lazy) => {
          const opened = await openSession()
          return marked(i, async () =>
            opened.ask(question, {
              get signal() {
                return lazy.signal
              },
            }),
          )
        }),
      )
    }
    return answers[index]!
  }
  const self: ConversationSession = {
    timeoutMs,
    turnMeta: (turn) =>
      newMeta({
        caseId: name,
        dataset: options.suite ?? name,
        ...specIdentity(options.agent),
        category: options.category,
        trial: 0,
        seed,
        turn,
        generation: options.generation,
      }),
    async answer(live, index) {
      // A conversation's data has no dirty/clean pair: both name the sha256 of its tables' canonical JSON.
      const { digest } = tables()
      live.startedAt = new Date().toISOString()
      live.datasetSha256 = datasetDigests(digest, digest)
      let answer: Answer
      try {
        answer = await ask(index)
      } catch (error) {
        putAgentFailure(live, error)
        await putTurnLlm(live, index)
        throw error
      } finally {
        const agent = await resolved?.catch(() => null)
        if (agent) putAgent(live, agentIdentity(agent))
      }
      const steps = answer.steps
      putUsage(
        live,
        sanitizeUsage(answer.usage),
        typeof steps === 'number' && Number.isInteger(steps) && steps >= 0 ? steps : 1,
        typeof answer.model === 'string' ? answer.model : undefined,
      )
      putCounters(live, answer.metrics)
      const refused = await putTurnLlm(live, index)
      if (refused) throw refused
      return answer
    },
    async runTurn(live, index, check) {
      const answer = await self.answer(live, index)
      await checkInTime(live, timeoutMs, () => check(answer))
    },
    runnerTimeoutMs: (index) => turnRunnerTimeoutMs(timeoutMs, index),
    trajectory(live, index) {
      const range = turnMarks[index]
      return trialTrajectory(openedTrial && range ? openedTrial.calls(range[0], range[1]) : null, live)
    },
    async close() {
      const opened = await session?.catch(() => null)
      await opened?.close?.()
      ;(await llmTrial?.catch(() => null))?.finish()
      const agent = await resolved?.catch(() => null)
      if (agent && agent !== options.agent) await (await import('../adapters/registry.js')).closeAgent(agent)
    },
  }
  return self
}

/**
 * Runs a turn's check of its answer within the turn's timeout: past it the turn fails as `timeout`, put on `live`
 * where it happens (unless a failure is there already). Every door's turns (`conversation`, `qaSuite`) check here.
 */
export async function checkInTime(live: DataforgeMeta, timeoutMs: number, check: () => unknown): Promise<void> {
  try {
    await withLazyTimeout(timeoutMs, async () => check())
  } catch (error) {
    putFailureOnce(live, error)
    throw error
  }
}

/**
 * The test runner's timeout for turn `index` (0-based) of a session whose questions each have `timeoutMs`: a turn
 * run alone first asks the ones before it, then its own, then checks the answer (`checkInTime`), each in its time.
 */
export function turnRunnerTimeoutMs(timeoutMs: number, index: number): number {
  return runnerTimeoutMs(timeoutMs * (index + 2))
}
