import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { conversationSession } from '../../src/cases/conversation-turns.js'
import { caseAgent, type EvalCaseOptions, runTrial, trialMeta } from '../../src/cases/eval-trial.js'
import { recordFromTest } from '../../src/test-meta/to-run-record.js'
import type { RepairAgent } from '../../src/core/agent.js'
import type { DataAgent } from '../../src/core/data-agent.js'
import { AgentFailure } from '../../src/core/errors.js'
import type { DataforgeMeta } from '../../src/test-meta/schema.js'
import { FakeProvider } from '../helpers/fake-llm-upstream.js'

// The runner doors' shared trial code (what Vitest's and Jest's evalCase and conversation call), with an agent
// object on ctx.llm and the `llm` option.

const SECRET = 'sk-doors-test-SECRET-1122334455'
let fake: FakeProvider
const provenance = { projectCommit: null, runDateUtc: '2026-12-01T00:00:00.000Z' }

beforeAll(async () => {
  fake = await new FakeProvider().start()
  process.env['GW_DOORS_KEY'] = SECRET
})
afterAll(async () => {
  await fake.stop()
  delete process.env['GW_DOORS_KEY']
})

const sdkAgent: RepairAgent = {
  name: 'sdk-object',
  async run(task, ctx) {
    const client = new OpenAI({ baseURL: ctx.llm!.baseURL, apiKey: ctx.llm!.apiKey, maxRetries: 0 })
    const reply = await client.chat.completions.create({
      model: 'm-door',
      messages: [{ role: 'user', content: task.dirty.rows[0]![0]! }],
    })
    await client.chat.completions.create({ model: 'm-door', messages: [{ role: 'user', content: 'second' }] })
    return [{ row: 0, column: task.columns[0]!, newValue: reply.choices[0]!.message.content! }]
  },
}

async function trial(
  options: EvalCaseOptions,
  body: Parameters<typeof runTrial>[4] = async ({ agent }) => agent.run(),
) {
  const live = trialMeta('door case', options, 0)
  const error = await runTrial(live, options, caseAgent(options), { trial: 0, timeoutMs: 10_000 }, body).then(
    () => null,
    (e: unknown) => e,
  )
  const record = recordFromTest(
    { fullName: 'door case', state: error ? 'failed' : 'passed', errors: [], durationMs: 1, meta: live },
    provenance,
  )
  return { live, error, record }
}

describe('evalCase and conversation through the gateway', () => {
  it('evalCase with llm: { baseUrl, keyEnv } hands agent objects ctx.llm and records the gateway count', async () => {
    const options: EvalCaseOptions = {
      dataset: { id: 'synthetic', rows: 4 },
      agent: sdkAgent,
      llm: { baseUrl: fake.baseUrl, keyEnv: 'GW_DOORS_KEY' },
    }
    const { error, record, live } = await trial(options, async ({ agent, llm }) => {
      expect(llm?.baseURL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/)
      return agent.run()
    })
    expect(error).toBeNull()
    expect(live.llm?.calls).toHaveLength(2)
    expect(record.usageSource).toBe('gateway')
    expect(record.usage.calls).toBe(2)
    expect(record.llmUpstream).toBe('http://127.0.0.1:*/v1')
    expect(record.llmCalls.map((c) => c.model)).toEqual(['m-door', 'm-door'])
    expect(JSON.stringify(record)).not.toContain(SECRET)
  })

  it('a budget the agent passes fails the test and its record as budget_exceeded, even when the body catches the error', async () => {
    const options: EvalCaseOptions = {
      dataset: { id: 'synthetic', rows: 4 },
      agent: sdkAgent,
      llm: { baseUrl: fake.baseUrl, keyEnv: 'GW_DOORS_KEY', budget: { calls: 1 } },
    }
    const { error, record } = await trial(options, async ({ agent }) => {
      await agent.run().catch(() => undefined)
    })
    expect(error).toBeInstanceOf(AgentFailure)
    expect((error as AgentFailure).kind).toBe('budget_exceeded')
    expect(record.status).toBe('failed')
    expect(record.failureKind).toBe('budget_exceeded')
    expect(record.failureMessage).toContain('model gateway: case "door case" trial 1 (seed 1): budget exceeded')
  })

  it('without an llm option or DATAFORGE_LLM the agent gets no ctx.llm and records have no gateway fields', async () => {
    let seen: unknown = 'unset'
    const agent: RepairAgent = {
      name: 'plain',
      run: (_task, ctx) => {
        seen = ctx.llm
        return []
      },
    }
    const { record } = await trial({ dataset: { id: 'synthetic', rows: 4 }, agent })
    expect(seen).toBeUndefined()
    expect(record).toMatchObject({ llmUpstream: null, usageSource: null, llmCalls: [] })
  })

  it('a conversation is one gateway trial; each turn records the calls made while it was asked', async () => {
    const agent: DataAgent = {
      name: 'talker',
      session(_tables, ctx) {
        const client = new OpenAI({ baseURL: ctx.llm!.baseURL, apiKey: ctx.llm!.apiKey, maxRetries: 0 })
        let turn = 0
        return {
          async ask(question) {
            turn++
            let text = ''
            for (let i = 0; i < turn; i++) {
              const reply = await client.chat.completions.create({
                model: 'm-chat',
                messages: [{ role: 'user', content: question }],
              })
              text = reply.choices[0]!.message.content!
            }
            return { text, usage: { calls: 99 } }
          },
        }
      },
    }
    const session = conversationSession(
      'chat',
      {
        data: { t: { columns: ['a'], rows: [['1']] } },
        agent,
        llm: { baseUrl: fake.baseUrl, keyEnv: 'GW_DOORS_KEY' },
      },
      [
        ['first?', () => undefined],
        ['second?', () => undefined],
      ],
    )
    const metas: DataforgeMeta[] = [session.turnMeta(1), session.turnMeta(2)]
    expect((await session.answer(metas[0]!, 0)).text).toBe('echo:?tsrif')
    await session.answer(metas[1]!, 1)
    await session.close()
    expect(metas.map((m) => [m.llm?.calls.length, m.usage?.calls, m.llm?.usageSource])).toEqual([
      [1, 1, 'gateway'],
      [2, 2, 'gateway'],
    ])
  })
})
