import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { inspect } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { createChatClient, createProviderAgent } from '../../src/adapters/providers/index.js'
import { caseAgent, type EvalCaseOptions, runTrial, trialMeta } from '../../src/cases/eval-trial.js'
import type { RunRecord } from '../../src/core/run-record.js'
import { recordFromTest } from '../../src/test-meta/to-run-record.js'
import { runCli } from '../helpers/cli-harness.js'
import { FakeProvider, fixesReply } from '../helpers/fake-llm-upstream.js'

// The built-in preset agents take the same gateway path as user agents: record once against a loopback upstream,
// replay with it down and no key, gateway traces on every record, the key in no file written.

const SECRET = 'sk-preset-test-SECRET-5566778899'
const temps: string[] = []
const temp = () => {
  const dir = mkdtempSync(join(tmpdir(), 'dfg-gw-presets-'))
  temps.push(dir)
  return dir
}
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true })
})

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : [path]
  })
}

function textOf(...dirs: string[]): string {
  return dirs
    .flatMap(filesUnder)
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n')
}

async function fakeUpstream(): Promise<FakeProvider> {
  const server = await new FakeProvider().start()
  server.handler = (_request, index) =>
    fixesReply([{ row: 0, column: 'name', new_value: `fixed ${index}` }], { promptTokens: 300, completionTokens: 12 })
  return server
}

function readRuns(dir: string): RunRecord[] {
  return readFileSync(join(dir, 'runs.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as RunRecord)
}

describe('preset agents through the gateway', () => {
  it('CLI run with a preset: records once, replays with the upstream down and no key, gateway traces, no key written', async () => {
    const server = await fakeUpstream()
    const cwd = temp()
    const cache = join(cwd, 'cassettes')
    const common = [
      'run',
      '--agent',
      'groq-llama-70b',
      '--base-url',
      server.baseUrl,
      '--dataset',
      'synthetic',
      '--rows',
      '6',
      '--trials',
      '2',
      '--quiet',
    ]
    const outputs = (name: string) => [
      '--output',
      join(cwd, name, 'report.md'),
      '--output-json',
      join(cwd, name, 'report.json'),
    ]
    const live = await runCli([...common, ...outputs('live'), '--cache', 'record', '--cache-dir', cache], cwd, {
      GROQ_API_KEY: SECRET,
    })
    expect(live.code, live.stderr).toBe(0)
    expect(server.requests).toHaveLength(2)
    // The gateway adds the real key; the client only ever held a trial token.
    expect(server.requests.map((r) => r.headers.authorization)).toEqual([`Bearer ${SECRET}`, `Bearer ${SECRET}`])
    const recorded = readRuns(join(cwd, 'live'))
    expect(recorded).toHaveLength(2)
    for (const r of recorded) {
      expect(r).toMatchObject({
        agent: 'groq-llama-70b',
        status: 'ok',
        usageSource: 'gateway',
        llmUpstream: 'http://127.0.0.1:*/v1',
      })
      expect(r.usage).toMatchObject({ calls: 1, promptTokens: 300, completionTokens: 12, cachedCalls: 0 })
      expect(r.usage.quotaUnits).toBeCloseTo(1 / 14_400, 12)
      expect(r.llmCalls).toEqual([
        expect.objectContaining({
          protocol: 'openai-chat',
          path: '/chat/completions',
          model: 'fake-model',
          cache: 'live',
          status: 200,
          promptTokens: 300,
        }),
      ])
      expect(r.warnings ?? []).not.toContainEqual(expect.stringMatching(/also reported usage/))
    }
    expect(readFileSync(join(cwd, 'live', 'report.md'), 'utf8')).toContain(
      'model gateway upstream: http://127.0.0.1:\\*/v1',
    )
    expect(readdirSync(cache)).toHaveLength(2)

    await server.stop()
    const replay = await runCli([...common, ...outputs('replay'), '--cache', 'replay', '--cache-dir', cache], cwd, {})
    expect(replay.code, replay.stderr).toBe(0)
    const replayed = readRuns(join(cwd, 'replay'))
    expect(replayed.map((r) => [r.status, r.f1])).toEqual(recorded.map((r) => [r.status, r.f1]))
    for (const r of replayed) {
      expect(r).toMatchObject({ usageSource: 'gateway', llmUpstream: 'http://127.0.0.1:*/v1', cached: true })
      expect(r.usage).toMatchObject({
        calls: 1,
        cachedCalls: 1,
        promptTokens: 0,
        cachedPromptTokens: 300,
        quotaUnits: 0,
      })
      expect(r.llmCalls).toEqual([expect.objectContaining({ cache: 'hit', status: 200 })])
    }
    expect(textOf(cwd) + live.stdout + live.stderr + replay.stdout + replay.stderr).not.toContain(SECRET)
  })

  it('CLI replay miss with a preset fails the trial as cache_miss naming the case and trial, the run still reported', async () => {
    const cwd = temp()
    const res = await runCli(
      [
        'run',
        '--agent',
        'groq-llama-70b',
        '--dataset',
        'synthetic',
        '--rows',
        '6',
        '--quiet',
        '--cache',
        'replay',
        '--cache-dir',
        join(cwd, 'empty'),
      ],
      cwd,
      {},
    )
    expect(res.code).toBe(1)
    const [record] = JSON.parse(readFileSync(join(cwd, 'reports', 'run', 'report.json'), 'utf8')).records as RunRecord[]
    expect(record).toMatchObject({
      status: 'failed',
      failureKind: 'cache_miss',
      usageSource: 'gateway',
      llmUpstream: 'groq https://api.groq.com/openai/v1',
    })
    expect(record!.failureMessage).toMatch(
      /^model gateway: no recorded answer for case "synthetic" trial 1 \(seed \d+\)/,
    )
    expect(record!.llmCalls).toEqual([expect.objectContaining({ cache: 'refused', status: 404 })])
  })

  it('evalCase with a preset agent: records once, replays with the upstream down, gateway traces on the record', async () => {
    const server = await fakeUpstream()
    const cache = temp()
    const provenance = { projectCommit: null, runDateUtc: '2026-12-02T00:00:00.000Z' }
    const preset = (mode: 'record' | 'replay', env: Record<string, string>) =>
      createProviderAgent('groq-llama-70b', {
        baseUrl: server.baseUrl,
        env,
        envFile: join(cache, 'absent.env'),
        cache: { mode, dir: cache },
        log: () => undefined,
      })
    const trial = async (options: EvalCaseOptions) => {
      const live = trialMeta('preset case', options, 0)
      const error = await runTrial(
        live,
        options,
        caseAgent(options),
        { trial: 0, timeoutMs: 20_000 },
        async ({ agent }) => agent.run(),
      ).then(
        () => null,
        (e: unknown) => e,
      )
      return {
        error,
        record: recordFromTest(
          { fullName: 'preset case', state: error ? 'failed' : 'passed', errors: [], durationMs: 1, meta: live },
          provenance,
        ),
      }
    }
    const dataset = { id: 'synthetic', rows: 4 } as const
    const recorded = await trial({ dataset, agent: preset('record', { GROQ_API_KEY: SECRET }) })
    expect(recorded.error).toBeNull()
    expect(recorded.record).toMatchObject({
      agent: 'groq-llama-70b',
      usageSource: 'gateway',
      llmUpstream: 'http://127.0.0.1:*/v1',
    })
    expect(recorded.record.usage).toMatchObject({ calls: 1, promptTokens: 300 })
    // The trace names the model that answered (the fake upstream reports its own).
    expect(recorded.record.llmCalls).toEqual([expect.objectContaining({ cache: 'live', model: 'fake-model' })])
    expect(server.requests).toHaveLength(1)

    await server.stop()
    const replayed = await trial({ dataset, agent: preset('replay', {}) })
    expect(replayed.error).toBeNull()
    expect(replayed.record.usage).toMatchObject({ calls: 1, cachedCalls: 1, promptTokens: 0 })
    expect(replayed.record.llmCalls).toEqual([expect.objectContaining({ cache: 'hit' })])
    expect(replayed.record.f1).toBe(recorded.record.f1)
    expect(textOf(cache) + JSON.stringify([recorded.record, replayed.record])).not.toContain(SECRET)
  })

  it('printing a preset agent or its client never shows the key the gateway will send', () => {
    const opts = { env: { GROQ_API_KEY: SECRET }, envFile: join(temp(), 'absent.env') }
    const agent = createProviderAgent('groq-llama-70b', opts)
    const client = createChatClient('groq-llama-70b', opts)
    const shown = [agent, client].map((x) => inspect(x, { depth: 10, showHidden: true }) + JSON.stringify(x)).join('\n')
    expect(shown).toContain('groq-llama-70b')
    expect(shown).not.toContain(SECRET)
  })
})
