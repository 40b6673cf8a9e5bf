import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { caseAgent, type EvalCaseOptions, runTrial, trialMeta } from '../../src/cases/eval-trial.js'
import type { RepairAgent } from '../../src/core/agent.js'
import type { RecordToolCall } from '../../src/core/transcript.js'
import { checkToolCalls, type Trajectory } from '../../src/grading/trajectory.js'
import { recordFromTest } from '../../src/test-meta/to-run-record.js'
import type { MatcherRecord } from '../../src/vitest/meta.js'
import { FakeProvider } from '../helpers/fake-llm-upstream.js'
import { noteAgentTool } from '../../src/gateway/agent-tools.js'
import { failureOf } from '../helpers/assertion-failure.js'

// The trajectory matchers in this process (the repo's vitest.config.ts registers them), on trajectories given
// whole and on ctx.trajectory() of a real evalCase trial through the gateway and a loopback provider.

const model = (name: string, call: number, args: Record<string, unknown> = {}): RecordToolCall => ({
  name,
  arguments: JSON.stringify(args),
  resultChars: null,
  source: 'model',
  call,
})
const sqlCall = (query: string, call: number) => model('sql', call, { query })

const dataAgentRun: Trajectory = {
  modelCalls: [],
  toolCalls: [
    model('list_tables', 0),
    model('describe', 1, { table: 'sales' }),
    sqlCall('SELECT avg(amount) FROM sales', 2),
    model('answer', 3, { value: 51.2 }),
  ],
  steps: 4,
}

const verdicts = (meta: { dataforge?: { matchers: MatcherRecord[] } }) =>
  (meta.dataforge?.matchers ?? []).map((m) => [m.matcher, m.passed, m.summary])

describe('toCallTools', () => {
  it('passes when each listed tool was called, in order and exactly when asked, and records each verdict', ({
    task,
  }) => {
    expect(dataAgentRun).toCallTools(['sql', 'answer'])
    expect(dataAgentRun).toCallTools(['describe', 'sql', 'answer'], { order: true })
    expect(dataAgentRun).toCallTools(['answer', 'sql', 'describe', 'list_tables'], { exact: true })
    expect(dataAgentRun).toCallTools(['list_tables', 'describe', 'sql', 'answer'], { order: true, exact: true })
    expect(dataAgentRun).toCallTools([{ name: 'sql', arguments: /avg\(amount\)/ }])
    expect(verdicts(task.meta)).toEqual([
      ['toCallTools', true, 'toCallTools passed: called sql, answer (4 tool call(s) in all)'],
      ['toCallTools', true, 'toCallTools passed: called describe → sql → answer in order (4 tool call(s) in all)'],
      ['toCallTools', true, 'toCallTools passed: called exactly answer, sql, describe, list_tables'],
      ['toCallTools', true, 'toCallTools passed: called exactly list_tables → describe → sql → answer'],
      ['toCallTools', true, 'toCallTools passed: called sql(/avg\\(amount\\)/) (4 tool call(s) in all)'],
    ])
  })

  it('fails naming what is missing, out of order or extra, with the calls made', ({ task }) => {
    const calls = 'called list_tables → describe → sql → answer'
    expect(failureOf(() => expect(dataAgentRun).toCallTools(['chart']))).toBe(`toCallTools: no call of chart; ${calls}`)
    expect(failureOf(() => expect(dataAgentRun).toCallTools(['sql', 'sql']))).toBe(
      `toCallTools: no call of sql; ${calls}`,
    )
    expect(failureOf(() => expect(dataAgentRun).toCallTools(['answer', 'sql'], { order: true }))).toBe(
      `toCallTools: expected answer → sql in this order, and sql does not follow the 1 before it; ${calls}`,
    )
    expect(failureOf(() => expect(dataAgentRun).toCallTools(['sql', 'answer'], { exact: true }))).toBe(
      `toCallTools: expected exactly sql, answer, and 2 more call(s): list_tables, describe; ${calls}`,
    )
    expect(
      failureOf(() => expect(dataAgentRun).toCallTools(['describe', 'sql', 'answer'], { order: true, exact: true })),
    ).toBe(`toCallTools: expected exactly describe → sql → answer; ${calls}`)
    expect(failureOf(() => expect(dataAgentRun).toCallTools([{ name: 'sql', arguments: /GROUP BY/ }]))).toBe(
      `toCallTools: no call of sql(/GROUP BY/); ${calls}`,
    )
    expect(verdicts(task.meta).every(([, passed]) => passed === false)).toBe(true)
    expect(task.meta.dataforge!.matchers.map((m) => m.score)).toEqual([0, 0, 0, 0, 0, 0])
  })

  it('.not passes when the tool was not called (reading the sample rows instead of running sql)', ({ task }) => {
    const fromSample: Trajectory = { modelCalls: [], toolCalls: [model('describe', 0), model('answer', 1)], steps: 2 }
    expect(fromSample).not.toCallTools(['sql'])
    expect(failureOf(() => expect(dataAgentRun).not.toCallTools(['sql']))).toBe(
      'toCallTools: expected the grader to reject, but it passed: not.toCallTools failed: called sql (4 tool call(s) in all)',
    )
    expect(task.meta.dataforge!.matchers.map((m) => [m.passed, m.negated])).toEqual([
      [true, true],
      [false, true],
    ])
  })

  it('counts a source alone when asked: the model asked for one sql, the agent ran two', () => {
    const both: Trajectory = {
      modelCalls: [],
      toolCalls: [
        sqlCall('SELECT 1', 0),
        { name: 'sql', arguments: 'SELECT 1', resultChars: 10, source: 'agent', call: null },
        { name: 'sql', arguments: 'SELECT 2', resultChars: 10, source: 'agent', call: null },
      ],
      steps: 1,
    }
    expect(both).toCallTools(['sql', 'sql'], { source: 'agent', exact: true })
    expect(checkToolCalls(both, ['sql', 'sql'], { source: 'model' }).passed).toBe(false)
  })

  it('refuses what is no trajectory, an empty list and an unknown option, naming them', () => {
    expect(failureOf(() => expect('sql').toCallTools(['sql']))).toBe(
      'toCallTools: expected a trajectory (ctx.trajectory()), a RunRecord or a list of tool calls, got string',
    )
    expect(failureOf(() => expect(dataAgentRun).toCallTools([]))).toBe(
      "toCallTools: expected a non-empty list of tool names, like ['sql', 'answer']",
    )
    expect(failureOf(() => expect(dataAgentRun).toCallTools(['sql'], { ordered: true } as never))).toBe(
      'toCallTools: unknown option "ordered" (did you mean "order"?); known options: order, exact, source',
    )
    expect(failureOf(() => expect(dataAgentRun).toUseAtMostSteps(-1))).toBe(
      'toUseAtMostSteps: the bound must be a non-negative integer, got -1',
    )
  })
})

describe('toUseAtMostSteps and toUseAtMostCalls', () => {
  it('pass within the bound and fail over it, saying the count and the calls', ({ task }) => {
    expect(dataAgentRun).toUseAtMostSteps(4)
    expect(dataAgentRun).toUseAtMostCalls(4)
    expect(dataAgentRun).toUseAtMostCalls(1, { tool: 'sql' })
    expect(failureOf(() => expect(dataAgentRun).toUseAtMostSteps(3))).toBe(
      'toUseAtMostSteps: 4 step(s), over the bound of 3',
    )
    expect(failureOf(() => expect(dataAgentRun).toUseAtMostCalls(3))).toBe(
      'toUseAtMostCalls: 4 tool call(s), over the bound of 3: list_tables → describe → sql → answer',
    )
    expect(failureOf(() => expect(dataAgentRun).toUseAtMostCalls(0, { tool: 'describe' }))).toBe(
      'toUseAtMostCalls: 1 describe call(s), over the bound of 0: describe',
    )
    expect(task.meta.dataforge!.matchers.map((m) => [m.matcher, m.passed])).toEqual([
      ['toUseAtMostSteps', true],
      ['toUseAtMostCalls', true],
      ['toUseAtMostCalls', true],
      ['toUseAtMostSteps', false],
      ['toUseAtMostCalls', false],
      ['toUseAtMostCalls', false],
    ])
  })
})

describe('ctx.trajectory() of an evalCase trial through the gateway', () => {
  const SECRET = 'sk-trajectory-SECRET-99887766'
  let fake: FakeProvider
  beforeAll(async () => {
    fake = await new FakeProvider().start()
    process.env['TRAJ_KEY'] = SECRET
  })
  afterAll(async () => {
    await fake.stop()
    delete process.env['TRAJ_KEY']
  })

  // Three model calls through the gateway, then one SQL query the agent ran itself and noted on its trial.
  const threeCalls: RepairAgent = {
    name: 'three-calls',
    async run(task, ctx) {
      const client = new OpenAI({ baseURL: ctx.llm!.baseURL, apiKey: ctx.llm!.apiKey, maxRetries: 0 })
      for (const content of ['one', 'two', 'three'])
        await client.chat.completions.create({ model: 'm-traj', messages: [{ role: 'user', content }] })
      noteAgentTool(ctx.llm, { name: 'sql', input: 'SELECT count(*) FROM t', result: '[[4]]', error: null, ms: 1 })
      return [{ row: 0, column: task.columns[0]!, newValue: 'x' }]
    },
  }

  it('holds the model calls the gateway served so far and the steps; the verdicts reach the record as metrics', async ({
    task,
  }) => {
    const options: EvalCaseOptions = {
      dataset: { id: 'synthetic', rows: 4 },
      agent: threeCalls,
      llm: { baseUrl: fake.baseUrl, keyEnv: 'TRAJ_KEY' },
    }
    const live = trialMeta('trajectory case', options, 0)
    const seen: Trajectory[] = []
    await runTrial(live, options, caseAgent(options), { trial: 0, timeoutMs: 10_000 }, async (ctx) => {
      seen.push(ctx.trajectory())
      await ctx.agent.run()
      const trajectory = ctx.trajectory()
      seen.push(trajectory)
      expect(trajectory).toUseAtMostSteps(3)
      expect(trajectory).toCallTools(['sql'], { exact: true })
      expect(failureOf(() => expect(trajectory).toUseAtMostSteps(2))).toBe(
        'toUseAtMostSteps: 3 step(s), over the bound of 2',
      )
    })
    expect(seen[0]).toEqual({ modelCalls: [], toolCalls: [], steps: 0 })
    expect(seen[1]!.modelCalls.map((c) => [c.model, c.status, c.cache])).toEqual([
      ['m-traj', 200, 'live'],
      ['m-traj', 200, 'live'],
      ['m-traj', 200, 'live'],
    ])
    expect(seen[1]!.steps).toBe(3)
    expect(seen[1]!.toolCalls).toEqual([
      { name: 'sql', arguments: 'SELECT count(*) FROM t', resultChars: 5, source: 'agent', call: null },
    ])
    expect(JSON.stringify(seen)).not.toContain(SECRET)
    // The verdicts went to this very test (runTrial alone binds no test; evalCase does): its record's metrics
    // hold each matcher's score (1 held, 0 not), the mean over the test's uses.
    const mine = task.meta.dataforge!
    const record = recordFromTest(
      { fullName: 'trajectory case', state: 'passed', errors: [], durationMs: 1, meta: mine },
      { projectCommit: null, runDateUtc: '2026-12-03T00:00:00.000Z' },
    )
    expect(record.metrics).toMatchObject({ toUseAtMostSteps: 0.5, toCallTools: 1 })
    expect(mine.matchers.map((m) => m.summary)).toEqual([
      'toUseAtMostSteps passed: 3 step(s), within the bound of 3',
      'toCallTools passed: called exactly sql',
      'toUseAtMostSteps failed: 3 step(s), over the bound of 2',
    ])
  })

  it('a RunRecord is a trajectory too: the matchers grade a record after the fact', () => {
    const options: EvalCaseOptions = { dataset: { id: 'synthetic', rows: 4 }, agent: threeCalls }
    const live = trialMeta('record case', options, 0)
    live.steps = 2
    const record = recordFromTest(
      { fullName: 'record case', state: 'passed', errors: [], durationMs: 1, meta: live },
      { projectCommit: null, runDateUtc: '2026-12-03T00:00:00.000Z' },
    )
    const withTools = { ...record, toolCalls: dataAgentRun.toolCalls }
    expect(withTools).toCallTools(['describe', 'sql'], { order: true })
    expect(withTools).toUseAtMostSteps(2)
  })
})
