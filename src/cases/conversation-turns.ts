import type { Answer } from '../core/answer.js'
import type { IsolateOption } from '../isolation/wall.js'
import type { DataAgent, DataSession } from '../core/data-agent.js'
import { tablesJsonSha256 } from '../core/hash.js'
import type { Table } from '../core/schemas.js'
import { putCounters, putUsage } from '../test-meta/put.js'
import { sanitizeUsage } from '../run/normalize-output.js'
import { checkTimeoutMs, withLazyTimeout } from '../run/with-timeout.js'
import { checkConversationArgs } from './check-options.js'
import { type DataInput, normalizeData } from './data-input.js'
import { type DataforgeMeta, datasetDigests, newMeta } from '../test-meta/build.js'
import { agentNameOf } from './eval-trial.js'
import { putAgentFailure } from '../test-meta/put-failure.js'
import { AgentFailure } from '../core/errors.js'
import { toFailureKind } from '../core/failure-kind.js'
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
  /** Per-turn timeout in ms: the question's signal aborts and the turn fails as `timeout`. Default 60000. */
  timeout?: number
  /** Where the agent's model calls go, through the harness's gateway (as `evalCase`'s `llm`). Default `DATAFORGE_LLM`. */
  llm?: LlmOption
}

export const DEFAULT_TURN_TIMEOUT_MS = 60_000

export function turnTestName(name: string, turn: number): string {
  return `${name}#t${turn}`
}

export interface ConversationSession {
  /** Each question's timeout in ms. */
  timeoutMs: number
  /** The meta turn `turn` (1-based) starts with. */
  turnMeta(turn: number): DataforgeMeta
  /**
   * Asks turn `index` (0-based; the turns before it first, if a filter skipped them) and records the answer's
   * usage and counters, or the failure, on `live`.
   */
  answer(live: DataforgeMeta, index: number): Promise<Answer>
  /** Turn `index`'s trajectory once it is answered: its model calls, tool calls and steps (`ctx.trajectory()`). */
  trajectory(live: DataforgeMeta, index: number): Trajectory
  /** Closes the session and a resolved agent; the runner calls it after the file's tests. */
  close(): Promise<void>
}

/** Checks the call's arguments (errors name the conversation and the option) and prepares its session. */
export function conversationSession(name: string, options: ConversationOptions, turns: ReadonlyArray<readonly [question: string, check: unknown]>): ConversationSession {
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
        : Promise.all([import('../adapters/registry.js'), import('../isolation/wall.js')]).then(([{ resolveCustomDataAgent }, { isolateOption }]) => {
            const { isolate, level } = isolateOption(options.isolate)
            return resolveCustomDataAgent(spec, { cwd: process.cwd(), isolate, isolation: { level } })
          })
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
  /** The gateway's view of turn `index` onto its test's meta (after the agent's own usage: the gateway's count wins). */
  const putTurnLlm = async (live: DataforgeMeta, index: number) => {
    const trial = await llmTrial
    const range = turnMarks[index]
    if (trial && range) trial.put(live, range[0], range[1])
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
  const identity =
    typeof options.agent === 'object' && 'session' in options.agent
      ? options.agent
      : { name: agentNameOf(options.agent), kind: 'custom' as const, model: undefined, provider: undefined }

  return {
    timeoutMs,
    turnMeta: (turn) =>
      newMeta({
        caseId: name,
        suite: options.suite ?? name,
        dataset: options.suite ?? name,
        agent: identity.name,
        agentKind: identity.kind ?? 'custom',
        model: identity.model ?? null,
        provider: identity.provider ?? null,
        category: options.category ?? null,
        seed,
        turn,
        generation: options.generation ?? null,
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
        if (agent) Object.assign(live, { agent: agent.name, agentKind: agent.kind ?? 'custom', model: agent.model ?? live.model, provider: agent.provider ?? live.provider, agentProvenance: agent.provenance ?? null })
      }
      const steps = answer.steps
      putUsage(live, sanitizeUsage(answer.usage), typeof steps === 'number' && Number.isInteger(steps) && steps >= 0 ? steps : 1, typeof answer.model === 'string' ? answer.model : undefined)
      putCounters(live, answer.metrics)
      await putTurnLlm(live, index)
      if (live.failure?.message.startsWith('model gateway: ')) throw new AgentFailure(toFailureKind(live.failure.kind), live.failure.message)
      return answer
    },
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
}
