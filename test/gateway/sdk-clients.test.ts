import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type Gateway, resolveUpstream, startGateway, type TrialSpec, type Upstream } from '../../src/gateway/index.js'
import { FakeProvider } from '../helpers/fake-llm-upstream.js'
import { echoText } from '../helpers/tool-model.js'

const SECRET = 'sk-gateway-test-SECRET-0123456789'
let fake: FakeProvider
let gateway: Gateway
let upstream: Upstream
const logs: string[] = []
const dirs: string[] = []

beforeAll(async () => {
  fake = await new FakeProvider().start()
  gateway = await startGateway({ log: (line) => logs.push(line), backoff: { baseMs: 5, capMs: 20 } })
  upstream = resolveUpstream({ baseUrl: fake.baseUrl, keyEnv: 'GW_TEST_KEY' }, { env: { GW_TEST_KEY: SECRET } })
})
afterAll(async () => {
  await gateway.close()
  await fake.stop()
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
})
afterEach(() => {
  fake.handler = undefined
  logs.length = 0
})

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'dfg-gw-'))
  dirs.push(dir)
  return dir
}

function spec(over: Partial<TrialSpec> = {}): TrialSpec {
  return { caseId: 'case-a', trial: 0, seed: 1, upstream, cache: { mode: 'off', dir: '' }, ...over }
}

type ApiError = InstanceType<typeof OpenAI.APIError>
const apiError = (e: unknown): ApiError => e as ApiError
const unexpected = (): never => {
  throw new Error('expected the call to fail')
}
const openaiOf = (llm: { baseURL: string; apiKey: string }) =>
  new OpenAI({ baseURL: llm.baseURL, apiKey: llm.apiKey, maxRetries: 0 })
const anthropicOf = (llm: { anthropicBaseURL: string; apiKey: string }) =>
  new Anthropic({ baseURL: llm.anthropicBaseURL, apiKey: llm.apiKey, maxRetries: 0 })

describe('the gateway with the real SDKs', () => {
  it('forwards OpenAI chat completions with the real key and counts usage from the answer', async () => {
    const trial = gateway.openTrial(spec())
    const reply = await openaiOf(trial.llm).chat.completions.create({
      model: 'm1',
      messages: [{ role: 'user', content: 'hello' }],
    })
    expect(reply.choices[0]!.message.content).toBe('echo:olleh')
    const seen = fake.requests.at(-1)!
    expect(seen.url).toBe('/v1/chat/completions')
    expect(seen.headers['authorization']).toBe(`Bearer ${SECRET}`)
    const ledger = trial.finish()
    expect(ledger.failure).toBeNull()
    expect(ledger.usage).toMatchObject({
      calls: 1,
      promptTokens: reply.usage!.prompt_tokens,
      completionTokens: 10,
      cachedCalls: 0,
    })
    expect(ledger.calls).toEqual([
      expect.objectContaining({
        protocol: 'openai-chat',
        path: '/chat/completions',
        model: 'm1',
        stream: false,
        cache: 'live',
        status: 200,
        error: null,
      }),
    ])
  })

  it('streams OpenAI chunks and reads the include_usage chunk', async () => {
    const trial = gateway.openTrial(spec())
    const stream = await openaiOf(trial.llm).chat.completions.create({
      model: 'm1',
      messages: [{ role: 'user', content: 'stream me' }],
      stream: true,
      stream_options: { include_usage: true },
    })
    let text = ''
    let usage: OpenAI.CompletionUsage | null | undefined
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? ''
      if (chunk.usage) usage = chunk.usage
    }
    expect(text).toBe(echoText('stream me'))
    const ledger = trial.finish()
    expect(ledger.usage.promptTokens).toBe(usage!.prompt_tokens)
    expect(ledger.usage.completionTokens).toBe(usage!.completion_tokens)
    expect(ledger.calls[0]).toMatchObject({ stream: true, cache: 'live', status: 200 })
  })

  it('serves Anthropic messages, JSON and streamed, with x-api-key and message_start/message_delta usage', async () => {
    const trial = gateway.openTrial(spec())
    const client = anthropicOf(trial.llm)
    const message = await client.messages.create({
      model: 'claude-x',
      max_tokens: 50,
      messages: [{ role: 'user', content: 'hi there' }],
    })
    expect(message.content[0]).toMatchObject({ type: 'text', text: 'echo:ereht ih' })
    expect(fake.requests.at(-1)!.headers['x-api-key']).toBe(SECRET)
    expect(fake.requests.at(-1)!.headers['authorization']).toBeUndefined()
    const streamed = await client.messages
      .stream({ model: 'claude-x', max_tokens: 50, messages: [{ role: 'user', content: 'abc' }] })
      .finalMessage()
    expect(streamed.content[0]).toMatchObject({ type: 'text', text: 'echo:cba' })
    const ledger = trial.finish()
    expect(ledger.usage.calls).toBe(2)
    expect(ledger.usage.promptTokens).toBe(message.usage.input_tokens + streamed.usage.input_tokens)
    expect(ledger.usage.completionTokens).toBe(message.usage.output_tokens + streamed.usage.output_tokens)
    expect(ledger.calls.map((c) => [c.protocol, c.stream])).toEqual([
      ['anthropic-messages', false],
      ['anthropic-messages', true],
    ])
  })

  it('forwards other paths (models, embeddings) and reads usage where the answer has it', async () => {
    const trial = gateway.openTrial(spec())
    const client = openaiOf(trial.llm)
    const models = await client.models.list()
    expect(models.data[0]!.id).toBe('fake-model')
    const embedding = await client.embeddings.create({ model: 'emb', input: 'x', encoding_format: 'float' })
    expect(embedding.data[0]!.embedding).toEqual([0.1, 0.2])
    const ledger = trial.finish()
    expect(ledger.calls.map((c) => [c.protocol, c.path, c.promptTokens])).toEqual([
      ['other', '/models', 0],
      ['other', '/embeddings', 7],
    ])
  })

  it('ctx.llm.fetch sends an SDK on its default base URL through the gateway with the trial token', async () => {
    const trial = gateway.openTrial(spec())
    const client = new OpenAI({ apiKey: 'not-a-key', fetch: trial.llm.fetch, maxRetries: 0 })
    const reply = await client.chat.completions.create({
      model: 'm1',
      messages: [{ role: 'user', content: 'via fetch' }],
    })
    expect(reply.choices[0]!.message.content).toBe(echoText('via fetch'))
    expect(trial.finish().usage.calls).toBe(1)
  })
})

describe('record and replay', () => {
  it('replays JSON and streams chunk for chunk with the upstream down: same answers, same usage, marked cached', async () => {
    const dir = await tempDir()
    const own = await new FakeProvider().start()
    const ownUpstream = resolveUpstream(
      { baseUrl: own.baseUrl, keyEnv: 'GW_TEST_KEY' },
      { env: { GW_TEST_KEY: SECRET } },
    )
    const run = async (mode: 'record' | 'replay') => {
      const trial = gateway.openTrial(spec({ upstream: ownUpstream, cache: { mode, dir } }))
      const client = openaiOf(trial.llm)
      const json = await client.chat.completions.create({
        model: 'm1',
        messages: [{ role: 'user', content: 'fix it' }],
      })
      const chunks: string[] = []
      const stream = await client.chat.completions.create({
        model: 'm1',
        messages: [{ role: 'user', content: 'fix it' }],
        stream: true,
        stream_options: { include_usage: true },
      })
      for await (const chunk of stream) chunks.push(JSON.stringify(chunk))
      const message = await anthropicOf(trial.llm)
        .messages.stream({ model: 'c', max_tokens: 9, messages: [{ role: 'user', content: 'q' }] })
        .finalMessage()
      return { json, chunks, message, ledger: trial.finish() }
    }
    const recorded = await run('record')
    await own.stop()
    const replayed = await run('replay')
    expect(replayed.json).toEqual(recorded.json)
    expect(replayed.chunks).toEqual(recorded.chunks)
    expect(replayed.chunks.length).toBeGreaterThan(3)
    expect(replayed.message).toEqual(recorded.message)
    const live = recorded.ledger.usage
    const cached = replayed.ledger.usage
    expect(cached).toMatchObject({
      calls: 3,
      cachedCalls: 3,
      promptTokens: 0,
      completionTokens: 0,
      costUsd: 0,
      quotaUnits: 0,
    })
    expect(cached.cachedPromptTokens).toBe(live.promptTokens)
    expect(cached.cachedCompletionTokens).toBe(live.completionTokens)
    expect(replayed.ledger.calls.every((c) => c.cache === 'hit')).toBe(true)
    expect(replayed.ledger.failure).toBeNull()
    for (const file of await readdir(dir)) expect(await readFile(join(dir, file), 'utf8')).not.toContain(SECRET)
  })

  it('a recording on one loopback port replays against another (the port is masked in the key)', async () => {
    const dir = await tempDir()
    const first = await new FakeProvider().start()
    const a = resolveUpstream(first.baseUrl, { env: {} })
    const t1 = gateway.openTrial(spec({ upstream: a, cache: { mode: 'record', dir } }))
    await openaiOf(t1.llm).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'p' }] })
    t1.finish()
    await first.stop()
    const b = resolveUpstream('http://127.0.0.1:1/v1', { env: {} })
    expect(b.id).toBe(a.id)
    expect(a.id).toBe('http://127.0.0.1:*/v1')
    const t2 = gateway.openTrial(spec({ upstream: b, cache: { mode: 'replay', dir } }))
    await openaiOf(t2.llm).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'p' }] })
    expect(t2.finish().usage.cachedCalls).toBe(1)
  })

  it('a replay miss is an HTTP error to the agent and a cache_miss naming the case', async () => {
    const dir = await tempDir()
    const trial = gateway.openTrial(spec({ caseId: 'never recorded', cache: { mode: 'replay', dir } }))
    const error = await openaiOf(trial.llm)
      .chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] })
      .then(unexpected, apiError)
    expect(error).toBeInstanceOf(OpenAI.APIError)
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(404)
    const ledger = trial.finish()
    expect(ledger.failure?.kind).toBe('cache_miss')
    expect(ledger.failure?.message).toContain('case "never recorded" trial 1')
  })
})

describe('limits', () => {
  it('waits out a 429 (Retry-After) and logs it; the agent sees only the answer', async () => {
    fake.handler = (_, i) =>
      i < fake.requests.length && rateLimitedLeft-- > 0
        ? { status: 429, headers: { 'retry-after-ms': '15' }, json: { error: { message: 'slow down' } } }
        : undefined
    let rateLimitedLeft = 2
    const trial = gateway.openTrial(spec())
    const reply = await openaiOf(trial.llm).chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'r' }],
    })
    expect(reply.choices[0]!.message.content).toBe('echo:r')
    expect(logs.filter((l) => l.includes('HTTP 429'))).toHaveLength(2)
    expect(logs[0]).toContain('retry 1 of 5')
    expect(trial.finish().failure).toBeNull()
  })

  it('a 429 that outlasts the retries is a 429 to the agent (no SDK retry) and rate_limited for the trial', async () => {
    const g = await startGateway({ log: (line) => logs.push(line), maxRetries: 1, backoff: { baseMs: 1, capMs: 2 } })
    fake.handler = () => ({ status: 429, json: { error: { message: 'no' } } })
    const before = fake.requests.length
    const trial = g.openTrial(spec())
    const error = await new OpenAI({
      baseURL: trial.llm.baseURL,
      apiKey: trial.llm.apiKey,
      maxRetries: 3,
    }).chat.completions
      .create({ model: 'm', messages: [{ role: 'user', content: 'r' }] })
      .then(unexpected, apiError)
    expect(error.status).toBe(429)
    expect(fake.requests.length - before).toBe(2)
    expect(trial.finish().failure?.kind).toBe('rate_limited')
    await g.close()
  })

  it('refuses the call past the budget with a clear error and fails the trial as budget_exceeded', async () => {
    const trial = gateway.openTrial(spec({ budget: { calls: 2 } }))
    const client = openaiOf(trial.llm)
    await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: '1' }] })
    await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: '2' }] })
    const before = fake.requests.length
    const error = await client.chat.completions
      .create({ model: 'm', messages: [{ role: 'user', content: '3' }] })
      .then(unexpected, apiError)
    expect(error.status).toBe(403)
    expect(error.message).toContain('budget exceeded: this would be call 3 of at most 2')
    expect(fake.requests.length).toBe(before)
    const ledger = trial.finish()
    expect(ledger.failure?.kind).toBe('budget_exceeded')
    expect(ledger.usage.calls).toBe(2)
    expect(ledger.calls.at(-1)).toMatchObject({ cache: 'refused', status: 403 })
    const tokens = gateway.openTrial(spec({ budget: { tokens: 5 } }))
    await openaiOf(tokens.llm).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'big' }] })
    await expect(
      openaiOf(tokens.llm).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'more' }] }),
    ).rejects.toThrow(/tokens spent of at most 5/)
    expect(tokens.finish().failure?.kind).toBe('budget_exceeded')
  })

  it('attributes concurrent trials each to its own ledger', async () => {
    const trials = Array.from({ length: 6 }, (_, i) => gateway.openTrial(spec({ caseId: `c${i}`, trial: i })))
    const prompts = trials.map((_, i) => 'x'.repeat(i + 1))
    await Promise.all(
      trials.map(async (t, i) => {
        const client = i % 2 ? anthropicOf(t.llm) : openaiOf(t.llm)
        for (let k = 0; k <= i % 3; k++) {
          if (client instanceof Anthropic)
            await client.messages.create({
              model: 'c',
              max_tokens: 5,
              messages: [{ role: 'user', content: prompts[i]! }],
            })
          else await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: prompts[i]! }] })
        }
      }),
    )
    trials.forEach((t, i) => {
      const ledger = t.finish()
      expect(ledger.usage.calls).toBe((i % 3) + 1)
      expect(ledger.usage.completionTokens).toBe(((i % 3) + 1) * ('echo:'.length + i + 1))
    })
  })
})

describe('bad input', () => {
  const raw = (url: string, init: RequestInit) =>
    fetch(url, init).then(async (r) => ({
      status: r.status,
      retry: r.headers.get('x-should-retry'),
      body: (await r.json()) as { error: { code: string; message: string } },
    }))

  it('refuses a finished trial token, an unknown token and no token (401), with messages that say why', async () => {
    const trial = gateway.openTrial(spec({ caseId: 'done case' }))
    trial.finish()
    const error = await openaiOf(trial.llm)
      .chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'late' }] })
      .then(unexpected, apiError)
    expect(error.status).toBe(401)
    expect(error.message).toContain('the token of case "done case" trial 1 (seed 1) expired when that trial finished')
    const wrong = await raw(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer dfg-t-nope' },
      body: '{}',
    })
    expect(wrong).toMatchObject({ status: 401, retry: 'false', body: { error: { code: 'invalid_token' } } })
    const none = await raw(`${gateway.url}/v1/models`, { method: 'GET' })
    expect(none.body.error.code).toBe('missing_token')
  })

  it('a malformed body or an unknown path is a 4xx to the agent and an invalid_request of the trial', async () => {
    for (const [path, body, status, code] of [
      ['/v1/chat/completions', '{not json', 400, 'malformed_body'],
      ['/v1/chat/completions', '{"model":"m"}', 400, 'malformed_body'],
      ['/v1/messages', '{"model":"m","messages":[]}', 400, 'malformed_body'],
      ['/nowhere', '{}', 404, 'unknown_path'],
    ] as const) {
      const trial = gateway.openTrial(spec())
      const answer = await raw(`${gateway.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${trial.llm.apiKey}` },
        body,
      })
      expect(answer.status).toBe(status)
      expect(answer.body.error.code).toBe(code)
      const ledger = trial.finish()
      expect(ledger.failure?.kind).toBe('invalid_request')
      expect(ledger.failure?.message).toBe(answer.body.error.message)
    }
  })

  it('an upstream that is down or answers garbage is a 502 and a provider_error', async () => {
    const g = await startGateway({ log: () => undefined, maxServerRetries: 1, backoff: { baseMs: 1, capMs: 2 } })
    const down = g.openTrial(spec({ upstream: resolveUpstream('http://127.0.0.1:1/v1', { env: {} }) }))
    const e1 = await openaiOf(down.llm)
      .chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] })
      .then(unexpected, apiError)
    expect(e1.status).toBe(502)
    expect(down.finish().failure).toMatchObject({
      kind: 'provider_error',
      message: expect.stringContaining('cannot reach http://127.0.0.1:*/v1'),
    })
    fake.handler = () => ({ text: `garbage ${SECRET}` })
    const garbage = g.openTrial(spec())
    const e2 = await openaiOf(garbage.llm)
      .chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] })
      .then(unexpected, apiError)
    expect(e2.status).toBe(502)
    expect(e2.message).not.toContain(SECRET)
    expect(garbage.finish().failure?.message).toContain('not JSON')
    fake.handler = () => ({ json: { unexpected: true } })
    const wrongShape = g.openTrial(spec())
    await expect(
      openaiOf(wrongShape.llm).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toThrow(/not a chat completion/)
    expect(wrongShape.finish().failure?.kind).toBe('provider_error')
    await g.close()
  })
})
