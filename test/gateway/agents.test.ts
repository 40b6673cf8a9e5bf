import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunRecord } from '../../src/core/run-record.js'
import { runCli } from '../helpers/cli-harness.js'
import { FakeProvider } from '../helpers/fake-llm-upstream.js'

// Every kind of agent through the CLI and the gateway: an isolated module agent on its SDKs' defaults (OpenAI
// streamed, Anthropic), a Python cmd: agent on the stdlib, an in-process agent on ctx.llm; record, then replay
// with the provider down and no key.

const SECRET = 'sk-agents-test-SECRET-9876543210'
const fixtures = resolve(import.meta.dirname, 'fixtures')
const temps: string[] = []
const temp = () => {
  const dir = mkdtempSync(join(tmpdir(), 'dfg-gw-agents-'))
  temps.push(dir)
  return dir
}
let fake: FakeProvider

beforeAll(async () => {
  fake = await new FakeProvider().start()
})
afterAll(async () => {
  await fake.stop()
  delete process.env['GW_AGENTS_KEY']
  for (const dir of temps) rmSync(dir, { recursive: true, force: true })
})

function readRuns(dir: string): RunRecord[] {
  return readFileSync(join(dir, 'runs.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as RunRecord)
}

async function run(args: string[], env: Record<string, string | undefined>) {
  const out = temp()
  const res = await runCli(
    [
      'run',
      '--dataset',
      'synthetic',
      '--rows',
      '6',
      '--quiet',
      '--output',
      join(out, 'report.md'),
      '--output-json',
      join(out, 'report.json'),
      ...args,
    ],
    fixtures,
    env,
  )
  return { ...res, out, runs: () => readRuns(out) }
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : [path]
  })
}

const hasPython = spawnSync('python3', ['--version']).status === 0
// A Python with the openai package: .ci/run makes a venv and names its python here (docs/development.md).
const pythonOpenai = process.env['DATAFORGE_TEST_PYTHON'] ?? 'python3'
const hasPythonOpenai = spawnSync(pythonOpenai, ['-c', 'import openai']).status === 0

describe('agents through the gateway (CLI)', () => {
  it('records isolated module and Python cmd agents, then replays them with the upstream down and no key', async () => {
    const cache = temp()
    // The key is in this process's environment too: the agents' environments must not inherit it.
    process.env['GW_AGENTS_KEY'] = SECRET
    const agents = [
      '--agent',
      './env-sdk-agent.mjs',
      ...(hasPython ? ['--agent', 'cmd:python3 py_stdlib_agent.py'] : []),
    ]
    const llm = ['--llm', fake.baseUrl, '--llm-key-env', 'GW_AGENTS_KEY', '--cache-dir', cache, '--trials', '2']
    const before = fake.requests.length
    const recorded = await run([...agents, ...llm, '--cache', 'record'], { GW_AGENTS_KEY: SECRET })
    const records = recorded.runs()
    expect(records.map((r) => [r.agent, r.status, r.failureMessage])).toEqual(
      (hasPython ? ['env-sdk', 'py-stdlib'] : ['env-sdk']).flatMap((a) => [
        [a, 'ok', null],
        [a, 'ok', null],
      ]),
    )
    for (const r of records) {
      expect(r.usageSource).toBe('gateway')
      expect(r.llmUpstream).toBe('http://127.0.0.1:*/v1')
      expect(r.usage.calls).toBe(r.agent === 'env-sdk' ? 2 : 1)
      expect(r.usage.promptTokens).toBeGreaterThan(0)
      expect(r.cached).toBe(false)
      expect(r.llmCalls.every((c) => c.cache === 'live' && c.status === 200)).toBe(true)
      expect(r.fixes![0]!.newValue).toMatch(/^echo:/)
    }
    const sdk = records.find((r) => r.agent === 'env-sdk')!
    expect(sdk.llmCalls.map((c) => [c.protocol, c.stream, c.model])).toEqual([
      ['openai-chat', true, 'm-js'],
      ['anthropic-messages', false, 'claude-js'],
    ])
    const seen = fake.requests.slice(before)
    expect(seen.length).toBe(records.reduce((a, r) => a + r.usage.calls, 0))
    for (const r of seen)
      expect(r.headers['authorization'] ?? r.headers['x-api-key']).toMatch(new RegExp(`(Bearer )?${SECRET}$`))
    if (hasPython) {
      // The harness relays an agent's stderr with its name in front (so no agent line starts a workflow command).
      const envLine = recorded.stderr.split('\n').find((l) => l.startsWith('[py_stdlib_agent] ENV '))!
      const agentEnv = JSON.parse(envLine.slice('[py_stdlib_agent] ENV '.length)) as Record<string, string>
      expect(agentEnv['OPENAI_API_KEY']).toMatch(/^dfg-p-/)
      expect(agentEnv['OPENAI_BASE_URL']).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/)
      expect(agentEnv['ANTHROPIC_API_KEY']).toBe(agentEnv['OPENAI_API_KEY'])
      expect(agentEnv['GW_AGENTS_KEY']).toBeUndefined()
      expect(JSON.stringify(agentEnv)).not.toContain(SECRET)
    }
    expect(recorded.stderr).not.toContain(SECRET)

    await fake.stop()
    delete process.env['GW_AGENTS_KEY']
    const replayed = await run([...agents, ...llm, '--cache', 'replay'], {})
    const again = replayed.runs()
    expect(again.map((r) => [r.agent, r.trial, r.fixes])).toEqual(records.map((r) => [r.agent, r.trial, r.fixes]))
    for (const [i, r] of again.entries()) {
      expect(r.cached).toBe(true)
      expect(r.usage.cachedCalls).toBe(records[i]!.usage.calls)
      expect(r.usage.cachedPromptTokens).toBe(records[i]!.usage.promptTokens)
      expect(r.usage.cachedCompletionTokens).toBe(records[i]!.usage.completionTokens)
      expect(r.usage.promptTokens).toBe(0)
      expect(r.llmCalls.every((c) => c.cache === 'hit')).toBe(true)
    }
    for (const file of [...filesUnder(recorded.out), ...filesUnder(replayed.out), ...filesUnder(cache)]) {
      expect(readFileSync(file, 'utf8'), file).not.toContain(SECRET)
    }
    await fake.start(fake.port)
  }, 120_000)

  it('an in-process agent on ctx.llm is counted by the gateway, not by its own report; a budget stops it and the run goes on', async () => {
    const llm = [
      '--llm',
      fake.baseUrl,
      '--llm-key-env',
      'GW_AGENTS_KEY',
      '--no-isolate',
      '--agent',
      './ctx-llm-agent.mjs',
    ]
    const counted = await run([...llm, '--trials', '2'], { GW_AGENTS_KEY: SECRET })
    const records = counted.runs()
    expect(records.map((r) => r.status)).toEqual(['ok', 'ok'])
    for (const r of records) {
      expect(r.usageSource).toBe('gateway')
      expect(r.usage.calls).toBe(2)
      expect(r.warnings).toContain(
        'the agent also reported usage; the gateway counted its model calls, and that count is the one recorded',
      )
    }
    const limited = await run([...llm, '--trials', '2', '--llm-budget', 'calls=1'], { GW_AGENTS_KEY: SECRET })
    const stopped = limited.runs()
    expect(stopped.map((r) => [r.status, r.failureKind])).toEqual([
      ['failed', 'budget_exceeded'],
      ['failed', 'budget_exceeded'],
    ])
    expect(stopped[0]!.failureMessage).toContain('budget exceeded: this would be call 2 of at most 1')
    expect(stopped[0]!.usage.calls).toBe(1)
    expect(readFileSync(join(limited.out, 'report.md'), 'utf8')).toContain('budget_exceeded')
    const html = readFileSync(join(limited.out, 'report.html'), 'utf8')
    expect(html).toContain('Model calls of these runs')
    expect(html).toContain('refused')
  }, 60_000)

  it('a replay miss fails the trial as cache_miss naming the case; the other agents and trials still run', async () => {
    const cache = temp()
    const res = await run(
      [
        '--agent',
        './ctx-llm-agent.mjs',
        '--agent',
        'baseline',
        '--no-isolate',
        '--llm',
        fake.baseUrl,
        '--cache',
        'replay',
        '--cache-dir',
        cache,
      ],
      {},
    )
    const records = res.runs()
    const miss = records.find((r) => r.agent === 'ctx-llm')!
    expect(miss.failureKind).toBe('cache_miss')
    expect(miss.failureMessage).toContain('no recorded answer for case "synthetic" trial 1')
    expect(records.find((r) => r.agent === 'baseline')!.status).toBe('ok')
  }, 60_000)

  it.skipIf(!hasPythonOpenai)(
    "a Python cmd agent on the openai package's defaults streams through the gateway" +
      (hasPythonOpenai ? '' : ' (skipped: no Python with openai; set DATAFORGE_TEST_PYTHON)'),
    async () => {
      const res = await run(
        ['--agent', `cmd:${pythonOpenai} py_openai_agent.py`, '--llm', fake.baseUrl, '--llm-key-env', 'GW_AGENTS_KEY'],
        { GW_AGENTS_KEY: SECRET },
      )
      const [record] = res.runs()
      expect(record!.status).toBe('ok')
      expect(record!.llmCalls[0]).toMatchObject({ protocol: 'openai-chat', stream: true, cache: 'live' })
      expect(record!.usage.completionTokens).toBeGreaterThan(0)
    },
    60_000,
  )
})
