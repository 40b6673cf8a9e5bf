import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createDataAgent, type ToolDataAgent } from '../../../src/adapters/data-agent/index.js'
import type { DataAgentSession } from '../../../src/adapters/data-agent/session.js'
import { checkSnapshotTrap } from '../../../src/adapters/data-agent/snapshot-trap.js'
import type { Answer } from '../../../src/core/answer.js'
import type { RecordToolCall } from '../../../src/core/transcript.js'
import type { Trajectory } from '../../../src/grading/trajectory.js'
import { FakeProvider } from '../../helpers/fake-llm-upstream.js'
import { conversationSession } from '../../../src/cases/conversation-turns.js'
import { recordFromTest } from '../../../src/test-meta/to-run-record.js'
import {
  callTool,
  firstCell,
  lastToolResult,
  messagesOf,
  scriptedModel,
  testClient,
  trapTable,
} from '../../helpers/scripted-model.js'

// The snapshot trap on the data agent with a scripted model: the first five rows (all `describe` shows) are big
// outliers, so their mean is far from the table's. The check runs the agent's SQL again over the full table and
// over the sample rows. The first tests take the model's tool calls from the requests it was sent; the last runs
// the agent through the gateway as a conversation does and grades the turn's ctx.trajectory().

const { table, sampleMean, trueMean } = trapTable(2_000)
const tables = { sales: table }
let server: FakeProvider
let agent: ToolDataAgent
let session: DataAgentSession

beforeEach(async () => {
  server = await new FakeProvider().start()
})
afterEach(async () => {
  await session?.close()
  await agent?.close()
  await server.stop()
})

/** The tool calls the model asked for in this question, in order (its final `answer` call included). */
function modelToolCalls(answered: Answer): Trajectory {
  const last = server.requests.at(-1)!
  const calls: RecordToolCall[] = []
  for (const m of messagesOf(last)) {
    for (const t of m.tool_calls ?? [])
      calls.push({
        name: t.function.name,
        arguments: t.function.arguments,
        resultChars: null,
        source: 'model',
        call: null,
      })
  }
  calls.push({
    name: 'answer',
    arguments: JSON.stringify({ value: answered.value }),
    resultChars: null,
    source: 'model',
    call: null,
  })
  return { modelCalls: [], toolCalls: calls, steps: server.requests.length }
}

async function ask(steps: Parameters<typeof scriptedModel>[0]): Promise<{ answer: Answer; trajectory: Trajectory }> {
  server.handler = scriptedModel(steps)
  agent = createDataAgent({ client: testClient(server) })
  session = await agent.session(tables, { seed: 1 })
  const answer = await session.ask('What is the mean sale amount?')
  return { answer, trajectory: modelToolCalls(answer) }
}

const sampleAnswer = (request: Parameters<typeof lastToolResult>[0]) => {
  const sample = lastToolResult(request)['sample'] as number[][]
  return callTool('answer', { value: sample.reduce((a, r) => a + r[2]!, 0) / sample.length })
}

describe('snapshot trap', () => {
  it('the trap is one: the sample rows give a far different mean', () => {
    expect(Math.abs(sampleMean - trueMean) / trueMean).toBeGreaterThan(10)
  })

  it('passes an answer computed by sql over the full table, and the matcher records it', async () => {
    const { answer, trajectory } = await ask([
      callTool('describe', { table: 'sales' }),
      callTool('sql', { query: 'SELECT avg(amount) AS mean FROM sales' }),
      (request) => callTool('answer', { value: Number((firstCell(request) as number).toFixed(2)) }),
    ])
    expect(answer.value).toBeCloseTo(trueMean, 2)
    const verdict = await checkSnapshotTrap(answer, trajectory, { tables })
    expect(verdict).toEqual({
      passed: true,
      detail: `the answer ${answer.value} is in the result of \`SELECT avg(amount) AS mean FROM sales\` over the full table, and not over its 5 sample rows`,
      score: 1,
    })
    await expect(trajectory).toAvoidSnapshotTrap(answer, { tables })
  })

  it('fails an answer read from the sample rows that describe showed', async () => {
    const { answer, trajectory } = await ask([callTool('describe', { table: 'sales' }), sampleAnswer])
    expect(answer.value).toBe(sampleMean)
    expect(await checkSnapshotTrap(answer, trajectory, { tables })).toEqual({
      passed: false,
      detail: `the answer ${sampleMean} comes from no sql call: nothing was computed over the table`,
      score: 0,
    })
    await expect(expect(trajectory).toAvoidSnapshotTrap(answer, { tables })).rejects.toThrow(
      'toAvoidSnapshotTrap: the answer',
    )
  })

  it('fails the sample mean even when a query over the full table ran (its result was not the answer)', async () => {
    const { answer, trajectory } = await ask([
      callTool('describe', { table: 'sales' }),
      callTool('sql', { query: 'SELECT avg(amount) FROM sales' }),
      (request) =>
        callTool('answer', {
          value: (lastToolResult(server.requests[1]!)['sample'] as number[][]).reduce((a, r) => a + r[2]!, 0) / 5,
          text: String(firstCell(request)),
        }),
    ])
    expect((await checkSnapshotTrap(answer, trajectory, { tables })).detail).toBe(
      `the answer ${sampleMean} is in no sql result over the full table (1 queries run again): it was not computed there`,
    )
  })

  it('fails a constant query: it gives the same value over the sample rows, so it computed nothing', async () => {
    const constant = `SELECT ${trueMean.toFixed(2)} AS mean`
    const { answer, trajectory } = await ask([
      callTool('sql', { query: constant }),
      (request) => callTool('answer', { value: Number(firstCell(request)) }),
    ])
    expect(await checkSnapshotTrap(answer, trajectory, { tables })).toMatchObject({
      passed: false,
      detail: `the answer ${trueMean.toFixed(2)} is in the result of \`${constant}\` over the sample rows alone too: that query does not depend on the rows the agent did not see`,
    })
  })

  it('replays save before the queries that read it', async () => {
    const { answer, trajectory } = await ask([
      callTool('save', { name: 'amounts', query: 'SELECT region, amount FROM sales' }),
      callTool('sql', { query: 'SELECT avg(amount) FROM amounts' }),
      (request) => callTool('answer', { value: firstCell(request) }),
    ])
    expect(await checkSnapshotTrap(answer, trajectory, { tables })).toMatchObject({ passed: true })
  })

  it('refuses a check without the tables, and an answer with no single value fails', async () => {
    await expect(checkSnapshotTrap({ value: 1 }, { toolCalls: [] }, { tables: {} })).rejects.toThrow(
      'toAvoidSnapshotTrap: give the tables the agent saw',
    )
    expect((await checkSnapshotTrap({ text: 'about 50' }, { toolCalls: [] }, { tables })).detail).toBe(
      'the answer has no single value to trace (undefined)',
    )
  })
})

describe('snapshot trap and trajectory through the gateway (a conversation turn, its ctx.trajectory())', () => {
  it('the data agent answered with sql over the full table: the turn trajectory holds its tool calls, the matchers pass', async ({
    task,
  }) => {
    server.handler = scriptedModel([
      callTool('describe', { table: 'sales' }),
      callTool('sql', { query: 'SELECT avg(amount) AS mean FROM sales' }),
      (request) => callTool('answer', { value: firstCell(request) }),
      callTool('describe', { table: 'sales' }),
      sampleAnswer,
    ])
    agent = createDataAgent({ client: testClient(server) })
    const conv = conversationSession('trap', { data: tables, agent }, [
      ['What is the mean sale amount?', () => undefined],
      ['And again?', () => undefined],
    ])
    try {
      const first = conv.turnMeta(1)
      const answer = await conv.answer(first, 0)
      const trajectory = conv.trajectory(first, 0)
      // The data agent ran each tool the model asked for: each is listed once, as the agent's, with its SQL.
      expect(trajectory.toolCalls.map((c) => [c.name, c.source])).toEqual([
        ['describe', 'agent'],
        ['sql', 'agent'],
        ['answer', 'agent'],
      ])
      expect(trajectory.toolCalls[1]!.arguments).toBe('SELECT avg(amount) AS mean FROM sales')
      expect(trajectory.steps).toBe(3)
      expect(trajectory).toCallTools(['describe', 'sql', 'answer'], { order: true, exact: true })
      expect(trajectory).toUseAtMostSteps(3)
      await expect(trajectory).toAvoidSnapshotTrap(answer, { tables })
      // The record lists the same tool calls.
      const record = recordFromTest(
        { fullName: 'trap#t1', state: 'passed', errors: [], durationMs: 1, meta: first },
        { projectCommit: null, runDateUtc: new Date().toISOString() },
      )
      expect(record.toolCalls).toEqual(trajectory.toolCalls)

      const second = conv.turnMeta(2)
      const fromSample = await conv.answer(second, 1)
      const secondTrajectory = conv.trajectory(second, 1)
      expect(secondTrajectory.toolCalls.map((c) => c.name)).toEqual(['describe', 'answer'])
      expect(secondTrajectory).not.toCallTools(['sql'])
      await expect(expect(secondTrajectory).toAvoidSnapshotTrap(fromSample, { tables })).rejects.toThrow(
        `toAvoidSnapshotTrap: the answer ${sampleMean} comes from no sql call: nothing was computed over the table`,
      )
      expect(task.meta.dataforge!.matchers.map((m) => [m.matcher, m.passed])).toEqual([
        ['toCallTools', true],
        ['toUseAtMostSteps', true],
        ['toAvoidSnapshotTrap', true],
        ['toCallTools', true],
        ['toAvoidSnapshotTrap', false],
      ])
    } finally {
      await conv.close()
    }
  })
})
