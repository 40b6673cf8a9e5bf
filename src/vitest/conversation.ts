import type { Test, TestContext } from '@vitest/runner'
import { afterAll, test as vitestTest } from 'vitest'
import type { Answer } from '../core/answer.js'
import type { DataAgent, DataSession } from '../core/data-agent.js'
import { hashOf } from '../core/hash.js'
import type { Table } from '../core/schemas.js'
import { sanitizeUsage } from '../run/normalize-output.js'
import { checkTimeoutMs, withTimeout } from '../run/with-timeout.js'
import { withQuestionAnnotated } from './annotate.js'
import { checkConversationArgs } from './check-options.js'
import { metaOf, recordCountersOn, recordUsageOn, runInTest } from './current.js'
import { normalizeData, type DataInput } from './data-input.js'
import { recordAgentFailure } from './record-failure.js'
import { newMeta } from './meta.js'

export type Turn = [question: string, check: (answer: Answer, ctx: { turn: number; test: TestContext }) => unknown | Promise<unknown>]

export interface ConversationOptions {
  data: DataInput
  /**
   * A data agent object (runs in this process: trusted code), or a module path / `cmd:COMMAND` /
   * `{ command: [...] }` run in its own process over the agent protocol (docs/agent-protocol.md).
   */
  agent: DataAgent | string | { command: readonly string[] }
  /** `false` runs a module agent in this process (trusted code, debugging). Default true. */
  isolate?: boolean
  /** Suite name for grouping; default the conversation's name. */
  suite?: string
  category?: string
  seed?: number
  generation?: string
  /** Per-turn timeout in ms: the question's signal aborts and the turn fails as `timeout`. Default 60000. */
  timeout?: number
}

/**
 * One session, turns asked in order, each turn its own test named `name#t<n>`. State persists across turns;
 * a failed turn does not stop the later ones (they still ask their questions in order). A turn that runs
 * alone (`-t`) first asks the turns before it. Each question gets its own timeout and abort signal, so a hung
 * question fails its turn without holding up the next; the session is closed after the last turn.
 */
export function conversation(name: string, options: ConversationOptions, turns: Turn[]): void {
  checkConversationArgs(name, options, turns)
  const seed = options.seed ?? 1
  const timeoutMs = options.timeout ?? 60_000
  checkTimeoutMs(timeoutMs, `conversation "${name}": timeout`)
  let session: Promise<DataSession> | null = null
  let data: { tables: Record<string, Table>; tablesJsonSha256: string } | null = null
  // Questions are asked strictly in order, whatever the tests' scheduling or filters.
  const answers: Array<Promise<Answer>> = []
  const tables = () => {
    if (!data) {
      const normalized = normalizeData(options.data)
      data = { tables: normalized, tablesJsonSha256: hashOf(normalized) }
    }
    return data
  }
  let resolved: Promise<DataAgent> | null = null
  const agentOf = (): Promise<DataAgent> => {
    const spec = options.agent
    resolved ??=
      typeof spec === 'object' && 'session' in spec
        ? Promise.resolve(spec)
        : import('../adapters/registry.js').then(({ resolveCustomDataAgent }) => resolveCustomDataAgent(spec, { cwd: process.cwd(), isolate: options.isolate !== false }))
    return resolved
  }
  const openSession = () => {
    session ??= agentOf().then((agent) => agent.session(tables().tables, { seed }))
    return session
  }
  const ask = (index: number): Promise<Answer> => {
    if (answers[index]) return answers[index]!
    for (let i = answers.length; i <= index; i++) {
      const previous = i === 0 ? Promise.resolve() : answers[i - 1]!.catch(() => undefined)
      const question = turns[i]![0]
      answers[i] = previous.then(() => withTimeout(timeoutMs, async (signal) => (await openSession()).ask(question, { signal })))
    }
    return answers[index]!
  }

  afterAll(async () => {
    const opened = await session?.catch(() => null)
    await opened?.close?.()
    const agent = await resolved?.catch(() => null)
    if (agent && agent !== options.agent) await (await import('../adapters/registry.js')).closeAgent(agent)
  })
  const identity = typeof options.agent === 'object' && 'session' in options.agent
    ? options.agent
    : { name: typeof options.agent === 'string' ? options.agent.replace(/^cmd:\s*/, '').replace(/^.*\//, '').replace(/\.[cm]?[jt]s$/, '') : options.agent.command.join(' '), kind: 'custom' as const, model: undefined, provider: undefined }

  turns.forEach(([question, check], index) => {
    const turn = index + 1
    const meta = newMeta({
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
    })
    // A turn run alone may first wait for the questions before it, each with its own timeout.
    const vitestTimeout = timeoutMs * turn + 5_000
    vitestTest(`${name}#t${turn}`, { timeout: vitestTimeout, meta: { dataforge: meta } }, async (context: TestContext) => {
      const test = context.task as Test
      await runInTest(test, async () => {
        const live = metaOf(test)
        // A conversation's data has no dirty/clean pair: both name the sha256 of its tables' canonical JSON.
        const { tablesJsonSha256 } = tables()
        live.datasetSha256 = { dirty: tablesJsonSha256, clean: tablesJsonSha256 }
        await withQuestionAnnotated(test, `t${turn}: ${question}`, async () => {
          let answer: Answer
          try {
            answer = await ask(index)
          } catch (error) {
            recordAgentFailure(test, error)
            throw error
          } finally {
            const agent = await resolved?.catch(() => null)
            if (agent) Object.assign(live, { agent: agent.name, agentKind: agent.kind ?? 'custom', model: agent.model ?? live.model, provider: agent.provider ?? live.provider, agentProvenance: agent.provenance ?? null })
          }
          const steps = answer.steps
          recordUsageOn(test, sanitizeUsage(answer.usage), typeof steps === 'number' && Number.isInteger(steps) && steps >= 0 ? steps : 1, typeof answer.model === 'string' ? answer.model : undefined)
          recordCountersOn(test, answer.metrics)
          await check(answer, { turn, test: context })
        })
      })
    })
  })
}
