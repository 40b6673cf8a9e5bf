import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { EvalReport } from '../../src/report-builder/build.js'
import type { RunRecord } from '../../src/core/run-record.js'
import { runCli, withTempDir, modelQaArgs } from '../helpers/cli-harness.js'
import { createHash } from 'node:crypto'
import { tablesJsonSha256 } from '../../src/core/hash.js'
import { canonicalJson } from '../../src/core/hash.js'
import { loadQaSuite } from '../../src/datasets/questions/index.js'
import { FakeProvider, type ProviderRequest } from '../helpers/fake-llm-upstream.js'
import { COUNT_THEN_ANSWER, chatCompletion } from '../helpers/tool-model.js'

const SUITES = ['bespoke', 'hard', 'large', 'messy', 'wtq'] as const

function reportIn(dir: string): EvalReport {
  return JSON.parse(readFileSync(join(dir, 'reports/qa/qa.json'), 'utf8')) as EvalReport
}

describe('qa --suite a,b', () => {
  it('runs several suites in one report: each suite’s cases under its own name, one group per suite', async () => {
    await withTempDir(async (dir) => {
      const res = await runCli(['qa', '--agent', 'mock-qa', '--suite', 'bespoke,hard', '--limit', '3', '--quiet'], dir)
      expect(res.code, res.stderr).toBe(0)
      const report = reportIn(dir)
      expect(report.config).toMatchObject({ command: 'qa', suite: 'bespoke,hard' })
      const bySuite = (suite: string) => report.records.filter((r) => r.suite === suite)
      expect(bySuite('bespoke')).toHaveLength(3)
      expect(bySuite('hard').length).toBeGreaterThanOrEqual(3)
      expect(report.records.every((r) => r.correct === true)).toBe(true)
      expect([...new Set(report.aggregates.map((a) => a.suite))].sort()).toEqual(['bespoke', 'hard'])
      expect(readFileSync(join(dir, 'reports/qa/qa.md'), 'utf8')).toContain('dataforge-evals qa: bespoke, hard')

      const unknown = await runCli(['qa', '--agent', 'mock-qa', '--suite', 'bespoke,nope'], dir)
      expect(unknown.code).toBe(2)
      expect(unknown.stderr).toMatch(/unknown --suite "nope"/)
      const dataDir = await runCli(['qa', '--agent', 'mock-qa', '--suite', 'wtq,dabench', '--data-dir', '.'], dir)
      expect(dataDir.code).toBe(2)
      expect(dataDir.stderr).toMatch(/--data-dir applies to one --suite, wtq or dabench, alone \(got wtq,dabench\)/)
    })
  })
})

describe('dataforge-evals qa with the oracle and the refusing agent', () => {
  for (const suite of SUITES) {
    it(`${suite}: mock-qa scores 100%, refuse passes exactly the refusal cases`, async () => {
      await withTempDir(async (dir) => {
        const res = await runCli(['qa', '--agent', 'mock-qa,refuse', '--suite', suite, '--quiet'], dir)
        expect(res.code, res.stderr).toBe(0)
        const { records } = reportIn(dir)
        const oracle = records.filter((r) => r.agent === 'mock-qa')
        const refuse = records.filter((r) => r.agent === 'refuse')
        expect(oracle.length).toBeGreaterThan(0)
        expect(oracle.every((r) => r.status === 'ok' && r.correct === true)).toBe(true)
        expect(refuse).toHaveLength(oracle.length)
        for (const r of refuse) expect(r.correct, `${r.caseId}#${r.turn}`).toBe(r.category === 'refusal')
        const md = readFileSync(join(dir, 'reports/qa/qa.md'), 'utf8')
        expect(md).toContain('## Question answering')
        expect(md).toContain('### Category × model')
        expect(md).toContain('| suite · category | mock-qa | refuse |')
        expect(md).toContain('### Failed questions')
      })
    }, 60_000)
  }

  it('conversation turns are their own records with turn numbers; trials use seed+i', async () => {
    await withTempDir(async (dir) => {
      const res = await runCli(
        ['qa', '--agent', 'mock-qa', '--suite', 'hard', '--trials', '2', '--seed', '5', '--quiet'],
        dir,
      )
      expect(res.code, res.stderr).toBe(0)
      const conv = reportIn(dir).records.filter((r) => r.caseId === 'hard-conv-returns')
      expect(conv.map((r) => [r.turn, r.trial, r.seed])).toEqual([
        [1, 0, 5],
        [1, 1, 6],
        [2, 0, 5],
        [2, 1, 6],
        [3, 0, 5],
        [3, 1, 6],
        [4, 0, 5],
        [4, 1, 6],
      ])
    })
  })

  it('--min-passes K: the repeat gate of run, per question and turn; verdict printed, reports written either way', async () => {
    await withTempDir(async (dir) => {
      const base = ['qa', '--suite', 'bespoke', '--trials', '2', '--quiet']
      const oracle = await runCli(
        [...base, '--agent', 'mock-qa', '--min-passes', '2', '--output', 'ok/qa.md', '--output-json', 'ok/qa.json'],
        dir,
      )
      expect(oracle.code, oracle.stderr).toBe(0)
      const cases = JSON.parse(readFileSync(join(dir, 'ok/qa.json'), 'utf8')).cases.length as number
      expect(cases).toBeGreaterThan(10)
      expect(oracle.stderr).toBe(`repeat gate passed: all ${cases} cases correct in at least 2 of their trials\n`)
      expect(oracle.stdout).toContain('\nwrote ok/qa.md, ok/qa.html, ok/qa.json, ok/qa.runs.jsonl, ok/manifest.json\n')

      // A bar above the trials run fails every case, the oracle's too; conversation turns are cases of their own.
      const over = await runCli(
        [
          'qa',
          '--suite',
          'hard',
          '--agent',
          'mock-qa',
          '--min-passes',
          '2',
          '--quiet',
          '--output',
          'over/qa.md',
          '--output-json',
          'over/qa.json',
        ],
        dir,
      )
      expect(over.code).toBe(1)
      const overCases = JSON.parse(readFileSync(join(dir, 'over/qa.json'), 'utf8')).cases.length as number
      expect(over.stderr.trim().split('\n')).toHaveLength(overCases)
      expect(over.stderr).toContain(
        'gate failed: mock-qa · hard · hard-conv-returns#t4: passed 1 of 1 trials, the repeat gate needs 2\n',
      )

      const refuse = await runCli([...base, '--agent', 'refuse', '--min-passes', '1'], dir)
      expect(refuse.code).toBe(1)
      const lines = refuse.stderr.trim().split('\n')
      const report = reportIn(dir)
      const missed = report.cases.filter((c) => c.passes < 1)
      expect(missed.length).toBeGreaterThan(0)
      expect(lines).toHaveLength(missed.length)
      expect(lines).toContain(
        'gate failed: refuse · bespoke · bespoke-rank-second-customer: passed 0 of 2 trials, the repeat gate needs 1',
      )
      // The cases refusing passes (the refusal questions) are not listed.
      const held = report.cases.filter((c) => c.passes >= 1)
      expect(held.length).toBeGreaterThan(0)
      for (const c of held)
        expect(refuse.stderr).not.toContain(` · ${c.caseId}${c.turn === null ? '' : `#t${c.turn}`}:`)
      expect(report.records.length).toBe(2 * cases)

      const bad = await runCli([...base, '--agent', 'mock-qa', '--min-passes', '0'], dir)
      expect(bad.code).toBe(2)
      expect(bad.stderr).toMatch(/^dataforge-evals: --min-passes/)
    })
  })

  it("records each case's data identity as the sha256 of its tables' canonical JSON, as dirty and clean", async () => {
    await withTempDir(async (dir) => {
      expect((await runCli(['qa', '--agent', 'mock-qa', '--suite', 'hard', '--quiet'], dir)).code).toBe(0)
      const cases = await loadQaSuite('hard', { seed: 1 })
      const records = reportIn(dir).records
      expect(records.length).toBeGreaterThan(cases.length)
      for (const r of records) {
        const data = cases.find((c) => c.id === r.caseId)!.data
        const expected = createHash('sha256').update(canonicalJson(data)).digest('hex')
        expect(r.datasetSha256).toEqual({ dirty: expected, clean: expected })
        expect(tablesJsonSha256(data)).toBe(expected)
      }
    })
  })

  it('--limit N --seed S draws the same sample twice and another for another seed', async () => {
    const ids = async (seed: string) =>
      withTempDir(async (dir) => {
        expect(
          (await runCli(['qa', '--agent', 'mock-qa', '--suite', 'wtq', '--limit', '7', '--seed', seed, '--quiet'], dir))
            .code,
        ).toBe(0)
        return [...new Set(reportIn(dir).records.map((r) => r.caseId))]
      })
    const a = await ids('3')
    expect(a).toHaveLength(7)
    expect(await ids('3')).toEqual(a)
    expect(await ids('4')).not.toEqual(a)
  })

  it('compare pairs two QA runs on units (questions, conversations) with McNemar', async () => {
    await withTempDir(async (dir) => {
      const quiet = ['--suite', 'hard', '--quiet']
      expect(
        (await runCli(['qa', '--agent', 'mock-qa', ...quiet, '--output', 'a/r.md', '--output-json', 'a/r.json'], dir))
          .code,
      ).toBe(0)
      expect(
        (await runCli(['qa', '--agent', 'refuse', ...quiet, '--output', 'b/r.md', '--output-json', 'b/r.json'], dir))
          .code,
      ).toBe(0)
      const res = await runCli(['compare', 'a/r.json', 'b/r.json'], dir)
      expect(res.code).toBe(1)
      expect(res.stdout).toContain('| **overall** | 13 units (mixed) | paired | 13 | 0 | 1.000 | 0.000 |')
      // A built-in suite is one group, as the reporter's gate pairs it; its categories (2 to 4 cases) are not.
      expect(res.stdout).toContain('| hard | 13 units (mixed) | paired | 13 | 0 | 1.000 | 0.000 |')
      expect(res.stdout).not.toMatch(/join-2|multi-step|underpowered/)
    })
  })

  it('--agent ./module.ts loads a user data agent (default export or a factory)', async () => {
    await withTempDir(async (dir) => {
      const agent = `export default () => ({
  name: 'counter',
  session: (tables) => ({ ask: (q) => (/How many orders are there/.test(q) ? { value: tables.orders.rows.length } : { refused: true }) }),
})\n`
      writeFileSync(join(dir, 'counter-agent.ts'), agent)
      writeFileSync(join(dir, 'not-agent.ts'), 'export const x = 1\n')
      const res = await runCli(['qa', '--agent', './counter-agent.ts', '--suite', 'bespoke', '--quiet'], dir)
      expect(res.code, res.stderr).toBe(0)
      const passed = reportIn(dir)
        .records.filter((r) => r.correct)
        .map((r) => r.caseId)
        .sort()
      expect(passed).toEqual(['bespoke-order-count', 'bespoke-refuse-email', 'bespoke-refuse-profit'])
      const bad = await runCli(['qa', '--agent', './not-agent.ts', '--suite', 'bespoke'], dir)
      expect(bad.code).toBe(2)
      // Module agents run isolated: the loader in the agent's process words the error.
      expect(bad.stderr).toMatch(
        /must export an agent \(.*\{ name, session\(tables, ctx\) \}\) as default or as "agent"; found exports \[x\]/,
      )
    })
  })

  it('bad input exits 2 with one line naming the option', async () => {
    await withTempDir(async (dir) => {
      const unknown = await runCli(['qa', '--agent', 'mock-qa', '--suite', 'nope'], dir)
      expect(unknown.code).toBe(2)
      expect(unknown.stderr).toMatch(/unknown --suite "nope"/)
      const wrongDir = await runCli(['qa', '--agent', 'mock-qa', '--suite', 'bespoke', '--data-dir', dir], dir)
      expect(wrongDir.code).toBe(2)
      expect(wrongDir.stderr).toMatch(/--data-dir applies to --suite wtq or dabench only/)
      const noRelease = await runCli(['qa', '--agent', 'mock-qa', '--suite', 'wtq', '--data-dir', dir], dir)
      expect(noRelease.code).toBe(2)
      expect(noRelease.stderr).toMatch(/no data\/pristine-unseen-tables\.tsv/)
      const agent = await runCli(['qa', '--agent', 'oracle', '--suite', 'bespoke'], dir)
      expect(agent.code).toBe(2)
      expect(agent.stderr).toMatch(/unknown question agent "oracle"/)
      expect(unknown.stderr.trim().split('\n')).toHaveLength(1)
    })
  })
})

describe('dataforge-evals qa with a model-backed agent on a loopback chat server', () => {
  let server: FakeProvider
  const KEY = 'sk-test-qa-secret-000'
  const lastUser = (req: ProviderRequest) => {
    const messages = (req.body as { messages: Array<{ role: string; content: string }> }).messages
    return messages.filter((m) => m.role === 'user').at(-1)!.content
  }

  beforeAll(async () => {
    server = await new FakeProvider().start()
    server.handler = async (req) => {
      const question = lastUser(req)
      const model = (req.body as { model: string }).model
      // Refuses what the data lacks, answers 0 to everything else; m2 wraps its JSON in a code fence.
      const reply = /email|profit/i.test(question)
        ? '{"refused": true, "explanation": "no such column"}'
        : '{"answer": 0, "explanation": "zero"}'
      return chatCompletion(model === 'm2' ? `\`\`\`json\n${reply}\n\`\`\`` : reply, {
        promptTokens: 100,
        completionTokens: 10,
      })
    }
  })
  afterAll(async () => server.stop())

  it('fails closed: replay without cassettes errors every question; qa exits 1 with one line saying why, reports written', async () => {
    await withTempDir(async (dir) => {
      const summaryFile = join(dir, 'step-summary.md')
      const args = modelQaArgs('openai-compatible', server.baseUrl, 'bespoke', '--limit', '4')
      const res = await runCli(
        [...args, '--cache', 'replay', '--cache-dir', 'no-cassettes', '--quiet', '--github'],
        dir,
        { QA_KEY: KEY, GITHUB_STEP_SUMMARY: summaryFile },
      )
      expect(res.code).toBe(1)
      const why = res.stderr.split('\n').filter((l) => l.startsWith('qa failed: '))
      expect(why).toHaveLength(1)
      expect(why[0]).toMatch(
        /^qa failed: no question scored: all 4 questions errored \(\w+ 4; first: bespoke-[\w-]+ trial 1: .+\)$/,
      )
      const { records } = reportIn(dir)
      expect(records).toHaveLength(4)
      expect(records.every((r) => r.status === 'failed')).toBe(true)
      // The job summary fails with the same line and names the groups' units.
      const summary = readFileSync(summaryFile, 'utf8')
      expect(summary).toContain('❌ **Gate failed**: 1 failure')
      expect(summary).toContain('- qa failed: no question scored: all 4 questions errored')
      expect(summary).toMatch(/\| openai-compatible@m1 · bespoke · [\w-]+ \| \d (case|cases) \|/)
      // The terminal summary names the unit and its count too.
      expect(res.stdout).toMatch(/openai-compatible@m1 · bespoke · [\w-]+ +\d cases? /)
    })
  })

  it('--models runs one agent per model; records carry model, tokens and the grader detail', async () => {
    await withTempDir(async (dir) => {
      const args = [
        'qa',
        '--agent',
        'openai-compatible',
        '--base-url',
        server.baseUrl,
        '--models',
        'm1,m2',
        '--api-key-env',
        'QA_KEY',
        '--suite',
        'bespoke',
        '--quiet',
      ]
      const res = await runCli(args, dir, { QA_KEY: KEY })
      expect(res.code, res.stderr).toBe(0)
      const { records } = reportIn(dir)
      const byModel = (m: string) => records.filter((r: RunRecord) => r.model === m)
      for (const m of ['m1', 'm2']) {
        const rs = byModel(m)
        expect(rs.length).toBeGreaterThanOrEqual(14)
        expect(
          rs.every(
            (r) => r.status === 'ok' && r.agentKind === 'model' && r.usage.promptTokens === 100 && r.steps === 1,
          ),
        ).toBe(true)
        expect(
          rs
            .filter((r) => r.correct)
            .map((r) => r.caseId)
            .sort(),
        ).toEqual(['bespoke-refuse-email', 'bespoke-refuse-profit'])
        const wrong = rs.find((r) => r.caseId === 'bespoke-order-count')!
        expect(wrong.validationError).toMatch(/^expected \d+, found 0 \(value\)/)
      }
      // Every session's system prompt carries the table.
      expect(server.requests.every((r) => JSON.stringify(r.body).includes('order_id,order_date,region'))).toBe(true)
      const md = readFileSync(join(dir, 'reports/qa/qa.md'), 'utf8')
      expect(md).toContain('| openai-compatible@m1 | bespoke |')
      expect(md).toContain('| suite · category | openai-compatible@m1 | openai-compatible@m2 |')
      expect(md).not.toContain(KEY)
      expect(readFileSync(join(dir, 'reports/qa/qa.json'), 'utf8')).not.toContain(KEY)
      // The preset's limit (openai-compatible: see presets.ts) holds across both models.
      expect(server.maxInFlight).toBeGreaterThanOrEqual(1)
    })
  }, 60_000)

  for (const suite of SUITES) {
    it(`${suite}: runs end to end with the model-backed agent (every question asked, answered and graded)`, async () => {
      await withTempDir(async (dir) => {
        const before = server.requests.length
        const args = modelQaArgs('openai-compatible', server.baseUrl, suite, '--quiet')
        const res = await runCli(args, dir, { QA_KEY: KEY })
        expect(res.code, res.stderr).toBe(0)
        const { records } = reportIn(dir)
        expect(server.requests.length - before).toBe(records.length)
        expect(
          records.every((r) => r.status === 'ok' && r.correct !== null && r.usage.calls === 1 && r.model === 'm1'),
        ).toBe(true)
        if (suite === 'large') {
          // The model sees only the head of the 100,000-row table, and is told so: the snapshot trap.
          const prompts = server.requests.slice(before).map((r) => JSON.stringify(r.body))
          expect(prompts.some((p) => /Table events \(first \d+ of 100000 rows shown\)/.test(p))).toBe(true)
          expect(prompts.some((p) => /Table readings \(first \d+ of 120000 rows shown\)/.test(p))).toBe(true)
        }
      })
    }, 60_000)
  }

  it('the model matrix runs concurrently, within the provider limit shared by its models', async () => {
    const gated = await new FakeProvider().start()
    // Holds every answer until two calls are in flight, so concurrency shows without timing: 6 calls over 2 models
    // pair up exactly when both are asked at once (a run that asked one at a time would hang and fail the test).
    const waiting: Array<() => void> = []
    gated.handler = async () => {
      await new Promise<void>((resolve) => {
        waiting.push(resolve)
        if (waiting.length >= 2) for (const go of waiting.splice(0)) go()
      })
      return chatCompletion('{"answer": 1}')
    }
    try {
      await withTempDir(async (dir) => {
        const args = [
          'qa',
          '--agent',
          'openai-compatible',
          '--base-url',
          gated.baseUrl,
          '--models',
          'a,b',
          '--concurrency',
          '2',
          '--api-key-env',
          'QA_KEY',
          '--suite',
          'messy',
          '--limit',
          '3',
          '--quiet',
        ]
        const res = await runCli(args, dir, { QA_KEY: KEY })
        expect(res.code, res.stderr).toBe(0)
        expect(gated.requests).toHaveLength(6)
        expect(gated.maxInFlight).toBe(2)
      })
    } finally {
      await gated.stop()
    }
  })

  it('a conversation keeps its history across turns', async () => {
    await withTempDir(async (dir) => {
      server.requests.length = 0
      const args = modelQaArgs('openai-compatible', server.baseUrl, 'hard', '--quiet')
      expect((await runCli(args, dir, { QA_KEY: KEY })).code).toBe(0)
      const third = server.requests.find((r) => lastUser(r).startsWith('Using returned, how many units'))!
      const roles = (third.body as { messages: Array<{ role: string }> }).messages.map((m) => m.role)
      expect(roles).toEqual(['system', 'user', 'assistant', 'user', 'assistant', 'user'])
    })
  }, 60_000)
})

describe('dataforge-evals qa --agent data-agent (tool calling over DuckDB) on a loopback chat server', () => {
  let server: FakeProvider
  beforeAll(async () => {
    server = await new FakeProvider(COUNT_THEN_ANSWER).start()
  })
  afterAll(async () => server.stop())

  it('is registered for `qa`: every question goes through sql and answer, with tool counters on each record', async () => {
    await withTempDir(async (dir) => {
      const args = modelQaArgs('data-agent', server.baseUrl, 'large', '--limit', '2', '--quiet')
      const res = await runCli(args, dir, { QA_KEY: 'sk-test-data-agent-0' })
      expect(res.code, res.stderr).toBe(0)
      const { records } = reportIn(dir)
      expect(records).toHaveLength(2)
      for (const r of records) {
        expect(r).toMatchObject({ agent: 'data-agent', agentKind: 'model', model: 'm1', status: 'ok', steps: 2 })
        expect(r.metrics).toMatchObject({ toolCalls: 2, 'toolCalls.sql': 1, 'toolCalls.answer': 1, toolErrors: 0 })
        expect(r.usage.calls).toBe(2)
      }
      expect(server.requests).toHaveLength(4)
    })
  }, 60_000)
})
