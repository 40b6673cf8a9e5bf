import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import type { TrialSpec } from '../../src/gateway/index.js'
import type { ProviderRequest } from '../helpers/fake-llm-upstream.js'
import { gatewayFixture } from '../helpers/gateway-fixture.js'

// Issue 36, item 12: an upstream that echoes the key back must not hand it to the agent, in any encoding, whole
// or split across stream events, nor leave it in a cassette.

const SECRET = 'sk-echo-test-SECRET-a1B2c3D4e5F6g7'
const fx = gatewayFixture(SECRET, {}, 'echo')
const spec = (over: Partial<TrialSpec> = {}): TrialSpec => fx.spec({ cache: { mode: 'record', dir: fx.dir }, ...over })
const keyOf = (request: ProviderRequest) =>
  String(request.headers['authorization'] ?? request.headers['x-api-key']).replace(/^Bearer /, '')
const sse = (data: unknown, event?: string) =>
  `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`
const chunk = (content: string, finish: string | null = null) =>
  sse({
    id: 'c',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [{ index: 0, delta: { content }, finish_reason: finish }],
  })
const completion = (content: string) => ({
  id: 'x',
  object: 'chat.completion',
  created: 1,
  model: 'm',
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
})
const unicodeEscaped = (text: string, every = 1) =>
  [...text].map((c, i) => (i % every === 0 ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c)).join('')

/** Every way this test's upstream encodes the key, decoded back: none may give the key. */
function decodings(text: string): string[] {
  const base64Runs = text.match(/[A-Za-z0-9+/_-]{8,}/g) ?? []
  return [
    text,
    text.replace(/\\+u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    text.replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    ...base64Runs.flatMap((run) =>
      [0, 1, 2, 3].map((skip) =>
        Buffer.from(run.slice(skip).replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('latin1'),
      ),
    ),
    ...(text.match(/[0-9a-fA-F]{16,}/g) ?? []).flatMap((run) =>
      [0, 1].map((skip) => Buffer.from(run.slice(skip), 'hex').toString('latin1')),
    ),
  ]
}
const expectNoKey = (text: string) => {
  for (const decoded of decodings(text)) expect(decoded).not.toContain(SECRET)
}

async function cassetteTexts(): Promise<string[]> {
  return Promise.all((await readdir(fx.dir)).map((f) => readFile(join(fx.dir, f), 'utf8')))
}

describe('the key never reaches the agent or a cassette, whatever the upstream does with it', () => {
  it('JSON answers echoing it \\u-escaped, URL-encoded, base64 (three alignments, both alphabets) or hex', async () => {
    const echoes: Array<(key: string) => string> = [
      (key) => `raw ${key}`,
      (key) => `escaped ${unicodeEscaped(key)}`,
      (key) => `half escaped ${unicodeEscaped(key, 2)}`,
      (key) => `url ${encodeURIComponent(key).replace(/[-e]/g, (c) => `%${c.charCodeAt(0).toString(16)}`)}`,
      ...['', 'B', 'Be'].map((pad) => (key: string) => `base64 ${Buffer.from(`${pad}${key}!`).toString('base64')}`),
      (key) => `base64url ${Buffer.from(`x${key}?>`).toString('base64url')}`,
      (key) => `hex ${Buffer.from(key).toString('hex')}`,
      (key) => `bearer header ${Buffer.from(`Authorization: Bearer ${key}`).toString('base64')}`,
    ]
    const trial = fx.gateway.openTrial(spec())
    const client = new OpenAI({ baseURL: trial.llm.baseURL, apiKey: trial.llm.apiKey, maxRetries: 0 })
    for (const [i, echo] of echoes.entries()) {
      // The content holds the escapes as written: the JSON is built by hand so a \u stays a JSON escape.
      fx.fake.handler = (request) => {
        const content = echo(keyOf(request))
        return {
          text: JSON.stringify(completion('CONTENT')).replace(
            'CONTENT',
            content.includes('\\u') ? content : JSON.stringify(content).slice(1, -1),
          ),
          headers: { 'content-type': 'application/json' },
        }
      }
      const reply = await client.chat.completions.create({
        model: 'm',
        messages: [{ role: 'user', content: `echo ${i}` }],
      })
      const content = reply.choices[0]!.message.content!
      expect(content).toContain('[redacted]')
      expectNoKey(content)
    }
    expect(trial.finish().failure).toBeNull()
    for (const text of await cassetteTexts()) expectNoKey(text)
  })

  it('an OpenAI stream splitting the key across events, at any point, even one character an event', async () => {
    const splits = [1, 3, 10, SECRET.length - 1, 'each' as const]
    for (const split of splits) {
      fx.fake.handler = (request) => {
        const key = keyOf(request)
        const pieces = split === 'each' ? [...key] : [key.slice(0, split), key.slice(split)]
        return {
          events: [
            chunk('your key: '),
            ...pieces.map((p) => chunk(p)),
            chunk(' (done)'),
            chunk('', 'stop'),
            sse('[DONE]'),
          ],
        }
      }
      const trial = fx.gateway.openTrial(spec({ caseId: `split ${split}` }))
      const client = new OpenAI({ baseURL: trial.llm.baseURL, apiKey: trial.llm.apiKey, maxRetries: 0 })
      const stream = await client.chat.completions.create({
        model: 'm',
        messages: [{ role: 'user', content: 'k' }],
        stream: true,
      })
      let text = ''
      for await (const part of stream) text += part.choices[0]?.delta.content ?? ''
      expect(text).toBe('your key: [redacted] (done)')
      expect(trial.finish().failure).toBeNull()
    }
    for (const text of await cassetteTexts()) {
      expectNoKey(text)
      const entry = JSON.parse(text) as { response: { events?: string[] } }
      const joined = (entry.response.events ?? []).map((e) => /"content":"([^"]*)"/.exec(e)?.[1] ?? '').join('')
      expectNoKey(joined)
    }
  })

  it('an Anthropic stream splitting it across text deltas with a ping between; base64 split across events too', async () => {
    const delta = (text: string) =>
      sse({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }, 'content_block_delta')
    const stream = (pieces: string[]) => [
      sse(
        {
          type: 'message_start',
          message: {
            id: 'msg',
            type: 'message',
            role: 'assistant',
            model: 'c',
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: 3, output_tokens: 1 },
          },
        },
        'message_start',
      ),
      sse({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, 'content_block_start'),
      delta('key='),
      ...pieces.flatMap((p, i) => (i === 0 ? [delta(p)] : [sse({ type: 'ping' }, 'ping'), delta(p)])),
      delta('.'),
      sse({ type: 'content_block_stop', index: 0 }, 'content_block_stop'),
      sse(
        { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 9 } },
        'message_delta',
      ),
      sse({ type: 'message_stop' }, 'message_stop'),
    ]
    for (const encode of [(key: string) => key, (key: string) => Buffer.from(key).toString('base64')]) {
      fx.fake.handler = (request) => {
        const echoed = encode(keyOf(request))
        return { events: stream([echoed.slice(0, 7), echoed.slice(7, 20), echoed.slice(20)]) }
      }
      const trial = fx.gateway.openTrial(spec({ caseId: 'anthropic split' }))
      const message = await new Anthropic({
        baseURL: trial.llm.anthropicBaseURL,
        apiKey: trial.llm.apiKey,
        maxRetries: 0,
      }).messages
        .stream({ model: 'c', max_tokens: 20, messages: [{ role: 'user', content: 'k' }] })
        .finalMessage()
      const text = message.content.map((b) => (b.type === 'text' ? b.text : '')).join('')
      expect(text).toMatch(/^key=.*\[redacted\].*\.$/)
      expectNoKey(text)
      const ledger = trial.finish()
      expect(ledger.usage.completionTokens).toBe(9)
      expect(ledger.failure).toBeNull()
    }
    for (const text of await cassetteTexts()) expectNoKey(text)
  })

  it('an ordinary stream passes unchanged: the same events, none held back past its text', async () => {
    const trial = fx.gateway.openTrial(spec({ caseId: 'plain', cache: { mode: 'off', dir: '' } }))
    const response = await fetch(`${trial.llm.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${trial.llm.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'sk-s plain' }], stream: true }),
    })
    const received = await response.text()
    const direct = await fetch(`${fx.fake.url}/v1/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'sk-s plain' }], stream: true }),
    })
    expect(received).toBe(await direct.text())
    trial.finish()
  })
})
