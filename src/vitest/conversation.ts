import type { Test, TestContext } from '@vitest/runner'
import { test as vitestTest } from 'vitest'
import type { Answer } from '../core/answer.js'
import type { DataAgent, DataSession } from '../core/data-agent.js'
import { hashOf } from '../core/hash.js'
import { metaOf, recordUsageOn, runInTest } from './current.js'
import { normalizeData, type DataInput } from './data-input.js'
import type { DataforgeMeta } from './meta.js'

export type Turn = [question: string, check: (answer: Answer, ctx: { turn: number; test: TestContext }) => unknown | Promise<unknown>]

export interface ConversationOptions {
  data: DataInput
  agent: DataAgent
  /** Suite name for grouping; default the conversation's name. */
  suite?: string
  category?: string
  seed?: number
  generation?: string
  /** Per-turn timeout in ms. Default 60000. */
  timeout?: number
}

/**
 * One session, turns asked in order, each turn its own test named `name#t<n>`. State persists across turns;
 * a failed turn does not stop the later ones (they still ask their questions in order).
 */
export function conversation(name: string, options: ConversationOptions, turns: Turn[]): void {
  const seed = options.seed ?? 1
  const timeoutMs = options.timeout ?? 60_000
  let session: Promise<DataSession> | null = null
  // Questions are asked strictly in order, whatever the tests' scheduling or filters.
  const answers: Array<Promise<Answer>> = []
  const tables = () => normalizeData(options.data)
  const openSession = () => {
    session ??= Promise.resolve().then(() => options.agent.session(tables(), { seed }))
    return session
  }
  const ask = (index: number): Promise<Answer> => {
    if (answers[index]) return answers[index]!
    for (let i = answers.length; i <= index; i++) {
      const previous = i === 0 ? Promise.resolve() : answers[i - 1]!.catch(() => undefined)
      answers[i] = previous.then(async () => (await openSession()).ask(turns[i]![0]))
    }
    return answers[index]!
  }

  turns.forEach(([question, check], index) => {
    const turn = index + 1
    const meta: DataforgeMeta = {
      caseId: name,
      suite: options.suite ?? name,
      dataset: options.suite ?? name,
      datasetSha256: null,
      agent: options.agent.name,
      agentKind: options.agent.kind ?? 'custom',
      model: options.agent.model ?? null,
      provider: options.agent.provider ?? null,
      category: options.category ?? null,
      tags: [],
      trial: 0,
      trials: 1,
      seed,
      turn,
      generation: options.generation ?? null,
      matchers: [],
      metrics: {},
      usage: null,
      steps: null,
      failure: null,
    }
    vitestTest(`${name}#t${turn}`, { timeout: timeoutMs, meta: { dataforge: meta } }, async (context: TestContext) => {
      const test = context.task as Test
      await runInTest(test, async () => {
        const live = metaOf(test)
        const data = tables()
        const digest = hashOf(data)
        live.datasetSha256 = { dirty: digest, clean: digest }
        const answer = await ask(index)
        recordUsageOn(test, answer.usage, answer.steps ?? 1, answer.model)
        context.annotate(`t${turn}: ${question}`, 'dataforge-question')
        await check(answer, { turn, test: context })
      })
    })
  })
}
