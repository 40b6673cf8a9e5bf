import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadDabenchSync } from '../../../src/datasets/dabench/load.js'
import { dabenchPrompt } from '../../../src/datasets/dabench/suite.js'
import { dabenchEqual } from '../../../src/grading/answers/dabench.js'
import type { EvalReport } from '../../../src/report-builder/build.js'
import { runCli, withTempDir, modelQaArgs } from '../../helpers/cli-harness.js'
import { FakeProvider } from '../../helpers/fake-llm-upstream.js'
import { chatCompletion } from '../../helpers/tool-model.js'

// The model-backed agents on the dabench suite against a loopback chat-completions server: each gets the
// question's CSV as other suites' tables (model-qa: head rows within its token budget; the data agent: a DuckDB
// table it queries by name), never the whole file in a prompt.

const KEY = 'sk-loopback-dabench-0'
const questions = loadDabenchSync()
const byPrompt = new Map(questions.map((q) => [dabenchPrompt(q), q]))

type Message = { role: string; content: string | null }

function lastUser(body: unknown): string {
  return (body as { messages: Message[] }).messages.filter((m) => m.role === 'user').at(-1)!.content!
}

/** The first answer name the question's format asks for. */
function firstName(prompt: string): string {
  return /@(\w+)\[/.exec(prompt.slice(prompt.indexOf('Format:')))![1]!
}

function reportIn(dir: string): EvalReport {
  return JSON.parse(readFileSync(join(dir, 'reports/qa/qa.json'), 'utf8')) as EvalReport
}

describe('dabench with model-backed agents on a loopback server', () => {
  let server: FakeProvider
  beforeAll(async () => {
    server = await new FakeProvider().start()
    server.handler = async (req) => {
      const body = req.body as { messages: Array<Message & { tool_calls?: unknown[] }>; tools?: unknown[] }
      const question = lastUser(body)
      const name = firstName(question)
      if (!body.tools)
        return chatCompletion(JSON.stringify({ answer: `@${name}[0]`, explanation: 'a guess' }), {
          promptTokens: 50,
          completionTokens: 5,
        })
      // The data agent: count the rows with sql, then answer with the count in the asked format.
      const lastUserAt = body.messages.map((m) => m.role).lastIndexOf('user')
      const tool = body.messages.slice(lastUserAt).find((m) => m.role === 'tool')
      const call = (fn: string, args: Record<string, unknown>) =>
        chatCompletion(null, {
          toolCalls: [{ id: `c${body.messages.length}`, name: fn, arguments: JSON.stringify(args) }],
          promptTokens: 50,
          completionTokens: 5,
        })
      if (!tool) return call('sql', { query: 'SELECT count(*) AS n FROM "table"' })
      const rows = (JSON.parse(tool.content!) as { rows: unknown[][] }).rows
      return call('answer', { value: `@${name}[${String(rows[0]![0])}]`, text: 'rows counted' })
    }
  })
  afterAll(async () => server.stop())

  it('model-qa: the question with its constraints and format as the user turn, the table as head rows within the budget', async () => {
    await withTempDir(async (dir) => {
      server.requests.length = 0
      const args = modelQaArgs('openai-compatible', server.baseUrl, 'dabench', '--quiet')
      const res = await runCli(args, dir, { QA_KEY: KEY })
      expect(res.code, res.stderr).toBe(0)
      const { records, dabench } = reportIn(dir)
      expect(records).toHaveLength(102)
      expect(server.requests).toHaveLength(102)
      for (const req of server.requests) {
        const q = byPrompt.get(lastUser(req.body))
        expect(q, 'the user turn is the dabench prompt').toBeDefined()
        const system = (req.body as { messages: Message[] }).messages[0]!.content!
        const shown = /Table table \((?:first (\d+) of )?(\d+) rows(?: shown)?\)/.exec(system)!
        expect(Number(shown[2])).toBe(q!.table.rows.length)
        // A table past the budget is cut to its head rows, and the model is told so.
        if (shown[1] !== undefined) expect(Number(shown[1])).toBeLessThan(q!.table.rows.length)
        expect(system.length).toBeLessThan(40_000)
      }
      expect(server.requests.some((r) => /first \d+ of \d+ rows shown/.test(JSON.stringify(r.body)))).toBe(true)
      expect(records.every((r) => r.status === 'ok' && r.correct !== null && r.metrics.score !== undefined)).toBe(true)
      expect(dabench![0]).toMatchObject({ agent: 'openai-compatible', model: 'm1', overall: { questions: 102 } })
      expect(readFileSync(join(dir, 'reports/qa/qa.json'), 'utf8')).not.toContain(KEY)
    })
  }, 120_000)

  it('data-agent: the whole CSV is a DuckDB table named table; an answer value in @name[value] form is graded', async () => {
    await withTempDir(async (dir) => {
      server.requests.length = 0
      const args = modelQaArgs('data-agent', server.baseUrl, 'dabench', '--limit', '4', '--seed', '2', '--quiet')
      const res = await runCli(args, dir, { QA_KEY: KEY })
      expect(res.code, res.stderr).toBe(0)
      const { records } = reportIn(dir)
      expect(records).toHaveLength(4)
      for (const r of records) {
        expect(r).toMatchObject({ status: 'ok', steps: 2 })
        expect(r.metrics).toMatchObject({ 'toolCalls.sql': 1, 'toolCalls.answer': 1, toolErrors: 0 })
        const q = questions.find((x) => `dabench-${x.id}` === r.caseId)!
        // The engine counted every row the loader read, and the answer's value was what got graded.
        const answered = server.requests.find(
          (req) => lastUser(req.body) === dabenchPrompt(q) && JSON.stringify(req.body).includes('"role":"tool"'),
        )!
        const tool = (answered.body as { messages: Message[] }).messages.find((m) => m.role === 'tool')!
        expect(String((JSON.parse(tool.content!) as { rows: unknown[][] }).rows[0]![0])).toBe(
          String(q.table.rows.length),
        )
        if (!r.correct) expect(r.validationError).toMatch(/sub-answers right/)
        const n = String(q.table.rows.length)
        const name = firstName(dabenchPrompt(q))
        const label = q.labels.find((l) => l.name === name)
        if (label && !dabenchEqual(n, label.value))
          expect(r.validationError).toContain(`@${name}: expected ${JSON.stringify(label.value)}, found "${n}"`)
      }
      // No prompt holds more than the schema and the sample rows.
      expect(server.requests.every((r) => JSON.stringify(r.body).length < 60_000)).toBe(true)
    })
  }, 120_000)
})
