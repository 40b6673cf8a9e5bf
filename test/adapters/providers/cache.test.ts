import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { cassetteKey } from '../../../src/gateway/cassette.js'
import {
  type CacheMode,
  createProviderAgent,
  type ProviderAgentOptions,
  ProviderFailure,
  resolveCacheOptions,
} from '../../../src/adapters/providers/index.js'
import { InputError } from '../../../src/core/errors.js'
import type { AgentRunResult } from '../../../src/core/schemas.js'
import { FakeProvider, fixesReply, errorReply } from '../../helpers/fake-llm-upstream.js'
import { chatCompletion } from '../../helpers/tool-model.js'
import { ctx, FAKE_KEY, makeTask, tempDir, virtualClock } from '../../helpers/providers.js'

let server: FakeProvider
let dir: string
let logs: string[]

beforeEach(async () => {
  server = await new FakeProvider().start()
  server.handler = (_request, index) =>
    fixesReply([{ row: 0, column: 'city', new_value: `answer ${index}` }], { promptTokens: 200, completionTokens: 30 })
  dir = join(tempDir(), 'cassettes')
  logs = []
})
afterEach(async () => {
  await server.stop()
})

const task = makeTask(['city'], [['Bostn']], 'hospital-case-3')

function agentWith(mode: CacheMode, extra: ProviderAgentOptions = {}) {
  return createProviderAgent('groq-llama-70b', {
    baseUrl: server.baseUrl,
    env: { GROQ_API_KEY: FAKE_KEY },
    envFile: join(dir, 'none.env'),
    cache: { mode, dir },
    prices: { 'llama-3.3-70b-versatile': { prompt: 0.00001, completion: 0.00002 } },
    log: (line) => logs.push(line),
    rpm: 0,
    ...extra,
  })
}

async function run(mode: CacheMode, trial = 0, extra: ProviderAgentOptions = {}): Promise<AgentRunResult> {
  return (await agentWith(mode, extra).run(task, ctx(trial))) as AgentRunResult
}

function files(): string[] {
  try {
    return readdirSync(dir).sort()
  } catch {
    return []
  }
}

describe('record / replay cache', () => {
  it('records one JSON file per call and replays it as cached, costing no quota', async () => {
    const live = await run('record')
    expect(live.usage).toMatchObject({ calls: 1, promptTokens: 200, completionTokens: 30, cachedCalls: 0 })
    expect(live.usage!.quotaUnits).toBeGreaterThan(0)
    expect(live.usage!.costUsd).toBeGreaterThan(0)
    expect(files()).toHaveLength(1)
    expect(files()[0]).toMatch(/^[0-9a-f]{64}\.json$/)

    const replayed = await run('replay')
    expect(replayed.fixes).toEqual(live.fixes)
    expect(replayed.usage).toEqual({
      calls: 1,
      promptTokens: 0,
      completionTokens: 0,
      quotaUnits: 0,
      costUsd: 0,
      cachedCalls: 1,
      cachedPromptTokens: 200,
      cachedCompletionTokens: 30,
    })
    expect(server.requests).toHaveLength(1)
  })

  it('keys entries as the gateway does: upstream (loopback port masked), call, body with the model, trial and seed', async () => {
    await run('record', 0)
    await run('record', 1)
    expect(files()).toHaveLength(2)
    const entry = JSON.parse(readFileSync(join(dir, files()[0]!), 'utf8'))
    expect(entry.kind).toBe('gateway')
    const { upstream, method, path, body, trial, seed } = entry.request
    expect(files()[0]).toBe(`${cassetteKey({ upstream, method, path, body, trial, seed })}.json`)
    expect(entry.key).toBe(files()[0]!.replace('.json', ''))
    expect(upstream).toBe('http://127.0.0.1:*/v1')
    expect([method, path]).toEqual(['POST', '/chat/completions'])
    expect(body.model).toBe('llama-3.3-70b-versatile')
    expect(seed).toBe(7)
    // The trials are independent samples: each gets its own recorded answer.
    const answers = await Promise.all([run('replay', 0), run('replay', 1)])
    expect(answers.map((a) => (a.fixes[0] as { newValue: string }).newValue)).toEqual(['answer 0', 'answer 1'])
  })

  it('never stores the key or auth headers', async () => {
    await run('record')
    const text = readFileSync(join(dir, files()[0]!), 'utf8')
    expect(text).not.toContain(FAKE_KEY)
    expect(text.toLowerCase()).not.toContain('authorization')
    expect(text.toLowerCase()).not.toContain('bearer')
  })

  it('redacts the key should the provider echo it in its answer', async () => {
    server.handler = () => fixesReply([{ row: 0, column: 'city', new_value: `leaked ${FAKE_KEY}` }])
    await run('record')
    expect(readFileSync(join(dir, files()[0]!), 'utf8')).not.toContain(FAKE_KEY)
  })

  it('no key in any file written or message printed, whatever happens', async () => {
    const messages: string[] = []
    server.queueReplies(
      errorReply(429, `rate limited for key ${FAKE_KEY}`, { 'retry-after': '1' }),
      errorReply(500, `internal error, key=${FAKE_KEY}`),
      fixesReply([{ row: 0, column: 'city', new_value: 'Boston' }]),
      errorReply(403, `forbidden: ${FAKE_KEY}`),
      chatCompletion(`I'm sorry, I cannot share ${FAKE_KEY}`),
    )
    const agent = agentWith('record', { clock: virtualClock() })
    for (let trial = 0; trial < 3; trial++) {
      try {
        const result = (await agent.run(task, ctx(trial))) as AgentRunResult
        messages.push(...(result.warnings ?? []))
      } catch (error) {
        messages.push((error as Error).message, String((error as Error).stack))
      }
    }
    await run('replay', 0)
    expect(messages.length).toBeGreaterThanOrEqual(4)
    expect(logs.length).toBeGreaterThanOrEqual(2)
    for (const text of [...messages, ...logs]) expect(text).not.toContain(FAKE_KEY)
    for (const file of files()) expect(readFileSync(join(dir, file), 'utf8')).not.toContain(FAKE_KEY)
  })

  it('replay: a miss is a cache_miss naming the case and the key', async () => {
    let failure: unknown
    try {
      await run('replay', 2)
    } catch (error) {
      failure = error
    }
    expect(failure).toBeInstanceOf(ProviderFailure)
    expect((failure as ProviderFailure).kind).toBe('cache_miss')
    expect((failure as ProviderFailure).message).toMatch(
      /case "hospital-case-3" trial 3 \(seed 7\) \(POST \/v1\/chat\/completions, key [0-9a-f]{64}\)/,
    )
    expect(server.requests).toHaveLength(0)
  })

  it('auto: calls on a miss, records, then answers from the cache', async () => {
    const first = await run('auto')
    const second = await run('auto')
    expect(server.requests).toHaveLength(1)
    expect(first.usage!.cachedCalls).toBe(0)
    expect(second.usage!.cachedCalls).toBe(1)
    expect(second.fixes).toEqual(first.fixes)
  })

  it('record: always calls and overwrites', async () => {
    await run('record')
    const again = await run('record')
    expect(server.requests).toHaveLength(2)
    expect(again.fixes).toEqual([{ row: 0, column: 'city', newValue: 'answer 1' }])
    expect(files()).toHaveLength(1)
  })

  it('off: writes nothing and reads nothing', async () => {
    await run('off')
    await run('off')
    expect(server.requests).toHaveLength(2)
    expect(files()).toEqual([])
  })

  it('a corrupt entry is an error naming the file', async () => {
    await run('record')
    const file = join(dir, files()[0]!)
    writeFileSync(file, '{"version": 1, "key": "tru')
    await expect(run('replay')).rejects.toThrow(InputError)
    await expect(run('replay')).rejects.toThrow(file)
    writeFileSync(
      file,
      JSON.stringify({ version: 1, kind: 'gateway', key: 'other', request: {}, response: { status: 200, json: {} } }),
    )
    await expect(run('auto')).rejects.toThrow(/corrupt \(its key does not match/)
  })

  it('replays many calls with the server gone', async () => {
    const agent = agentWith('record')
    for (let trial = 0; trial < 50; trial++) await agent.run(task, ctx(trial))
    await server.stop()
    const replay = agentWith('replay', { maxServerRetries: 0 })
    const results = (await Promise.all(
      Array.from({ length: 50 }, (_, trial) => replay.run(task, ctx(trial))),
    )) as AgentRunResult[]
    expect(results.every((r) => r.usage!.cachedCalls === 1 && r.usage!.promptTokens === 0)).toBe(true)
    expect(results.map((r) => (r.fixes[0] as { newValue: string }).newValue)).toEqual(
      Array.from({ length: 50 }, (_, i) => `answer ${i}`),
    )
  })
})

describe('resolveCacheOptions', () => {
  it('defaults to off in .dataforge-cache', () => {
    expect(resolveCacheOptions({})).toEqual({ mode: 'off', dir: '.dataforge-cache' })
  })

  it('reads DATAFORGE_CACHE and DATAFORGE_CACHE_DIR; flags win', () => {
    const env = { DATAFORGE_CACHE: 'replay', DATAFORGE_CACHE_DIR: 'cassettes' }
    expect(resolveCacheOptions(env)).toEqual({ mode: 'replay', dir: 'cassettes' })
    expect(resolveCacheOptions(env, { cache: 'record', cacheDir: 'other' })).toEqual({ mode: 'record', dir: 'other' })
    expect(resolveCacheOptions(env, {}, '/work/x')).toEqual({ mode: 'replay', dir: '/work/x/cassettes' })
  })

  it('names the flag or variable holding a bad mode', () => {
    expect(() => resolveCacheOptions({}, { cache: 'sometimes' })).toThrow(/--cache: "sometimes"/)
    expect(() => resolveCacheOptions({ DATAFORGE_CACHE: 'yes' })).toThrow(/DATAFORGE_CACHE: "yes"/)
    expect(() => resolveCacheOptions({ DATAFORGE_CACHE: 'yes' })).toThrow(InputError)
  })
})
