import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunRecord } from '../../../src/core/run-record.js'
import { runFixture, TempDirs } from '../../helpers/vitest-run.js'

// A real Vitest run of conversation() over the data agent and a scripted loopback model: what the agent
// counted per question lands in the RunRecords.

const temp = new TempDirs()
let runs: RunRecord[]

beforeAll(async () => {
  const run = await runFixture({ fixture: 'data-agent', outputDir: temp.make(), cacheDir: temp.make() })
  runs = run.reports.runs()
}, 60_000)
afterAll(() => temp.removeAll())

describe('data agent RunRecords', () => {
  it('records steps, tool calls by name, tool errors and tokens of an answered question', () => {
    const first = runs.find((r) => r.turn === 1)!
    expect(first).toMatchObject({
      caseId: 'shop',
      agent: 'data-agent',
      agentKind: 'model',
      model: 'fake-model',
      provider: 'openai-compatible',
      status: 'ok',
      correct: true,
      steps: 4,
      usage: { calls: 4, promptTokens: 400, completionTokens: 80 },
    })
    expect(first.metrics).toMatchObject({
      toolCalls: 4,
      'toolCalls.describe': 1,
      'toolCalls.sql': 2,
      'toolCalls.answer': 1,
      toolErrors: 1,
      malformedToolCalls: 1,
      textReplies: 0,
    })
  })

  it('records a question never answered as no_answer, with what it spent', () => {
    const second = runs.find((r) => r.turn === 2)!
    expect(second).toMatchObject({
      status: 'failed',
      failureKind: 'no_answer',
      correct: null,
      steps: 4,
      usage: { calls: 4, promptTokens: 400 },
    })
    expect(second.failureMessage).toBe(
      'data-agent (fake-model): no answer after 4 steps (2 tool calls, 0 tool errors, 2 replies without a tool call)',
    )
    expect(second.metrics).toMatchObject({ toolCalls: 2, 'toolCalls.list_tables': 2, textReplies: 2 })
  })
})
