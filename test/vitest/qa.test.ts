import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunRecord } from '../../src/core/run-record.js'
import { type FixtureRun, runFixture, TempDirs } from '../helpers/vitest-run.js'
import { FakeProvider } from '../helpers/fake-llm-upstream.js'
import { chatCompletion } from '../helpers/tool-model.js'

// One real Vitest run of test/fixtures/vitest/qa: qaSuite with the oracle on all five suites, the refusing
// agent, and a model-backed agent against a loopback chat-completions server.

const temp = new TempDirs()
let server: FakeProvider
let run: FixtureRun
let runs: RunRecord[]

beforeAll(async () => {
  server = await new FakeProvider().start()
  server.handler = async (req) => {
    const messages = (req.body as { messages: Array<{ role: string; content: string }> }).messages
    const question = messages.filter((m) => m.role === 'user').at(-1)!.content
    const orders = messages[0]!.content.split('\n').filter((l) => /^\d{4},/.test(l)).length
    if (/email|profit/i.test(question))
      return chatCompletion('{"refused": true, "explanation": "not in the data"}', {
        promptTokens: 50,
        completionTokens: 5,
      })
    // Counts the rows it was shown: right for "How many orders are there?", wrong elsewhere.
    return chatCompletion(`{"answer": ${orders}}`, { promptTokens: 50, completionTokens: 5 })
  }
  run = await runFixture({
    fixture: 'qa',
    outputDir: temp.make(),
    cacheDir: temp.make(),
    env: { QA_BASE_URL: server.baseUrl, QA_KEY: 'sk-loopback-qa' },
  })
  runs = run.reports.runs()
}, 120_000)

afterAll(async () => {
  temp.removeAll()
  await server.stop()
})

describe('qaSuite in a real Vitest run', () => {
  it('registers one test per case/turn and trial, named id[#tn] [trial i/N · seed s], inside a describe per suite', () => {
    const large = run.tests.tests.filter((t) => t.fullName.startsWith('large >'))
    expect(large.map((t) => t.name)).toContain('large-total-amount [trial 2/2 · seed 2]')
    expect(large).toHaveLength(20)
    expect(run.tests.byName('hard-conv-returns#t4 [trial 1/1 · seed 1]').state).toBe('passed')
  })

  it('the oracle scores 100% on all five suites', () => {
    for (const suite of ['bespoke', 'hard', 'large', 'messy', 'wtq']) {
      const rs = runs.filter((r) => r.suite === suite)
      expect(rs.length, suite).toBeGreaterThan(0)
      expect(
        rs.every((r) => r.agent === 'mock-qa' && r.status === 'ok' && r.correct === true),
        suite,
      ).toBe(true)
    }
    expect(runs.filter((r) => r.suite === 'wtq')).toHaveLength(200)
  })

  it('records identity like evalCase: case id, turn, trial, seed, category, data digest', () => {
    const turn = runs.find((r) => r.suite === 'hard' && r.caseId === 'hard-conv-returns' && r.turn === 2)!
    expect(turn).toMatchObject({ trial: 0, seed: 1, category: 'conversation', agentKind: 'oracle' })
    expect(turn.datasetSha256!.dirty).toMatch(/^[0-9a-f]{64}$/)
    const trial2 = runs.find((r) => r.suite === 'large' && r.caseId === 'large-mean-amount' && r.trial === 1)!
    expect(trial2.seed).toBe(2)
    expect(runs.find((r) => r.suite === 'bespoke' && r.caseId === 'bespoke-total-revenue')!.turn).toBeNull()
  })

  it('the refusing agent passes exactly the refusal cases', () => {
    for (const suite of ['bespoke-refuse', 'hard-refuse']) {
      const rs = runs.filter((r) => r.suite === suite)
      expect(rs.length).toBeGreaterThan(0)
      for (const r of rs) expect(r.correct, r.caseId).toBe(r.category === 'refusal')
    }
  })

  it('a model-backed agent on the loopback server: usage, model and the grader detail on wrong answers', () => {
    const rs = runs.filter((r) => r.suite === 'bespoke-model')
    expect(rs.length).toBeGreaterThanOrEqual(14)
    expect(rs.every((r) => r.model === 'loopback-model' && r.usage.promptTokens === 50 && r.steps === 1)).toBe(true)
    expect(
      rs
        .filter((r) => r.correct)
        .map((r) => r.caseId)
        .sort(),
    ).toEqual(['bespoke-order-count', 'bespoke-refuse-email', 'bespoke-refuse-profit'])
    expect(rs.find((r) => r.caseId === 'bespoke-total-revenue')!.validationError).toMatch(
      /expected [\d.]+ \(±0\.005\), found \d+/,
    )
  })

  it('the leaderboard shows the QA sections: per model, category × model grid and failed questions', () => {
    const md = run.reports.text('leaderboard.md')
    expect(md).toContain('## Question answering')
    expect(md).toMatch(/\| mock-qa \| wtq \| 1\.000 \[0\.98\d, 1\.000\] \| 200\/200 \|/)
    expect(md).toContain('| openai-compatible@loopback-model | bespoke-model |')
    expect(md).toContain('### Category × model')
    expect(md).toMatch(/\| bespoke-refuse · refusal \| — \| — \| 2\/2 \|/)
    expect(md).toContain('### Failed questions')
    expect(md).not.toContain('sk-loopback-qa')
    expect(run.exitCode ?? 0).not.toBe(0) // the refusing and model agents fail tests: Vitest exits 1
  })
})
