import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import type { TrialSpec } from '../../src/gateway/index.js'
import { gatewayFixture } from '../helpers/gateway-fixture.js'

// Issue 36, item 13: a replay must answer only a request that was sent upstream the same way, headers included.

const SECRET = 'sk-cache-key-SECRET-5566778899'
const fx = gatewayFixture(SECRET, {}, 'hdr')
const spec = (mode: 'record' | 'replay', over: Partial<TrialSpec> = {}): TrialSpec =>
  fx.spec({ cache: { mode, dir: fx.dir }, ...over })
const openai = (apiKey: string, baseURL: string, headers: Record<string, string> = {}) =>
  new OpenAI({ baseURL, apiKey, maxRetries: 0, defaultHeaders: headers })
const ask = (client: OpenAI) =>
  client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'same body' }] })

describe('the cache key covers every forwarded header', () => {
  it('a recording made with one openai-beta does not answer a request with another (or none)', async () => {
    fx.fake.handler = (request) => ({
      json: {
        id: 'x',
        object: 'chat.completion',
        created: 1,
        model: 'm',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: `beta=${String(request.headers['openai-beta'])}` },
            finish_reason: 'stop',
          },
        ],
      },
    })
    const recorded = fx.gateway.openTrial(spec('record'))
    const live = await ask(openai(recorded.llm.apiKey, recorded.llm.baseURL, { 'openai-beta': 'assistants=v2' }))
    expect(live.choices[0]!.message.content).toBe('beta=assistants=v2')
    expect(fx.fake.requests.at(-1)!.headers['openai-beta']).toBe('assistants=v2')
    recorded.finish()

    for (const headers of [{ 'openai-beta': 'assistants=v1' }, {}] as Record<string, string>[]) {
      const poisoned = fx.gateway.openTrial(spec('replay'))
      const error = await ask(openai(poisoned.llm.apiKey, poisoned.llm.baseURL, headers)).then(
        () => null,
        (e: unknown) => e as InstanceType<typeof OpenAI.APIError>,
      )
      expect(error?.status).toBe(404)
      expect(poisoned.finish().failure?.kind).toBe('cache_miss')
    }
    const same = fx.gateway.openTrial(spec('replay'))
    expect(
      (await ask(openai(same.llm.apiKey, same.llm.baseURL, { 'openai-beta': 'assistants=v2' }))).choices[0]!.message
        .content,
    ).toBe('beta=assistants=v2')
    expect(same.finish().usage.cachedCalls).toBe(1)
  })

  it("anthropic-beta and the SDK's anthropic-version are keyed; accept: application/json is not; the token never enters it", async () => {
    const record = fx.gateway.openTrial(spec('record', { caseId: 'anth' }))
    const client = (apiKey: string, headers: Record<string, string> = {}) =>
      new Anthropic({ baseURL: record.llm.anthropicBaseURL, apiKey, maxRetries: 0, defaultHeaders: headers })
    const params = { model: 'c', max_tokens: 5, messages: [{ role: 'user' as const, content: 'q' }] }
    await client(record.llm.apiKey, { 'anthropic-beta': 'tools-2024' }).messages.create(params)
    expect(fx.fake.requests.at(-1)!.headers['anthropic-beta']).toBe('tools-2024')
    await client(record.llm.apiKey).messages.create(params)
    record.finish()
    const files = await readdir(fx.dir)
    const entries = await Promise.all(
      files.map(
        async (f) =>
          JSON.parse(await readFile(join(fx.dir, f), 'utf8')) as {
            request: { caseId?: string; headers?: Record<string, string> }
          },
      ),
    )
    const anthropic = entries.filter((e) => (e.request as { body?: { model?: string } }).body?.model === 'c')
    const version = String(fx.fake.requests.at(-1)!.headers['anthropic-version'])
    expect(
      anthropic.map((e) => e.request.headers).sort((a, b) => Object.keys(b!).length - Object.keys(a!).length),
    ).toEqual([{ 'anthropic-beta': 'tools-2024', 'anthropic-version': version }, { 'anthropic-version': version }])
    // The OpenAI SDK sends accept: application/json, the default: its call is keyed by openai-beta alone.
    expect(entries.filter((e) => !anthropic.includes(e)).map((e) => e.request.headers)).toEqual([
      { 'openai-beta': 'assistants=v2' },
    ])
    for (const file of files) {
      const text = await readFile(join(fx.dir, file), 'utf8')
      expect(text).not.toContain(SECRET)
      expect(text).not.toContain(record.llm.apiKey)
    }
    // Another token (another trial of the same case and seed) replays both.
    const replay = fx.gateway.openTrial(spec('replay', { caseId: 'anth' }))
    const again = (headers: Record<string, string> = {}) =>
      new Anthropic({
        baseURL: replay.llm.anthropicBaseURL,
        apiKey: replay.llm.apiKey,
        maxRetries: 0,
        defaultHeaders: headers,
      })
    await again({ 'anthropic-beta': 'tools-2024' }).messages.create(params)
    await again().messages.create(params)
    await expect(again({ 'anthropic-beta': 'other' }).messages.create(params)).rejects.toThrow(/no recorded answer/)
    expect(replay.finish().usage.cachedCalls).toBe(2)
  })

  it('accept: */* (what fetch sends), none and application/json are one default; another accept is keyed', async () => {
    const send = (token: string, accept: string | null) =>
      fetch(`${fx.gateway.url}/v1/chat/completions`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          ...(accept ? { accept } : {}),
        },
        body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'accept' }] }),
      }).then((r) => r.status)
    const record = fx.gateway.openTrial(spec('record', { caseId: 'accept' }))
    expect(await send(record.llm.apiKey, null)).toBe(200)
    expect(fx.fake.requests.at(-1)!.headers['accept']).toBe('application/json')
    record.finish()
    const replay = fx.gateway.openTrial(spec('replay', { caseId: 'accept' }))
    expect(await send(replay.llm.apiKey, '*/*')).toBe(200)
    expect(await send(replay.llm.apiKey, 'application/json')).toBe(200)
    expect(await send(replay.llm.apiKey, 'text/plain')).toBe(404)
    expect(replay.finish().usage.cachedCalls).toBe(2)
  })
})
