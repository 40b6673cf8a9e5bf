import { redactSecrets } from '../../../src/gateway/redact.js'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  createChatClient,
  createProviderAgent,
  type ChatTool,
  type ProviderAgentOptions,
  ProviderFailure,
} from '../../../src/adapters/providers/index.js'
import { AgentFailure, InputError } from '../../../src/core/errors.js'
import type { AgentRunResult } from '../../../src/core/schemas.js'
import { FakeProvider, fixesReply, errorReply, heldAnswers, userMessageOf } from '../../helpers/fake-llm-upstream.js'
import { chatCompletion, NO_FIXES } from '../../helpers/tool-model.js'
import { ctx, FAKE_KEY, makeTask, numberedTask, tempDir, virtualClock } from '../../helpers/providers.js'

let server: FakeProvider
let logs: string[]
let clock: ReturnType<typeof virtualClock>

beforeEach(async () => {
  // Calls the test scripts no answer for find nothing to fix.
  server = await new FakeProvider(NO_FIXES).start()
  logs = []
  clock = virtualClock()
})
afterEach(async () => {
  await server.stop()
})

function options(extra: ProviderAgentOptions = {}): ProviderAgentOptions {
  return {
    baseUrl: server.baseUrl,
    env: { GROQ_API_KEY: FAKE_KEY, GEMINI_API_KEY: FAKE_KEY, OPENAI_API_KEY: FAKE_KEY },
    envFile: join(tempDir(), 'absent.env'),
    log: (line) => logs.push(line),
    clock,
    random: () => 0.5,
    // Spacing starts is tested on its own; here it would add limiter waits to the recorded sleeps.
    rpm: 0,
    ...extra,
  }
}

const task = makeTask(
  ['city', 'zip'],
  [
    ['Bostn', '02139'],
    ['Chicago', 'N/A'],
  ],
  'cities',
)

async function runAgent(name: string, extra: ProviderAgentOptions = {}, trial = 0): Promise<AgentRunResult> {
  return (await createProviderAgent(name, options(extra)).run(task, ctx(trial))) as AgentRunResult
}

async function failureOf(promise: Promise<unknown>): Promise<ProviderFailure> {
  try {
    await promise
  } catch (error) {
    if (error instanceof ProviderFailure) return error
    throw error
  }
  throw new Error('expected a ProviderFailure')
}

/** What a misbehaving server labels a body that is not JSON. */
const JSON_TYPE = { 'content-type': 'application/json' }

function expectNoKey(...texts: unknown[]): void {
  for (const text of texts) expect(JSON.stringify(text)).not.toContain(FAKE_KEY)
}

describe('provider agent against a chat-completions server', () => {
  it('returns the fixes with tokens, quota and cost of the call', async () => {
    server.queueReplies(
      fixesReply([{ row: 0, column: 'city', new_value: 'Boston' }], { promptTokens: 1_000, completionTokens: 50 }),
    )
    const result = await runAgent('groq-llama-70b', {
      model: 'llama-test',
      prices: { 'llama-test': { prompt: 0.000001, completion: 0.000002 } },
    })
    expect(result.fixes).toEqual([{ row: 0, column: 'city', newValue: 'Boston' }])
    expect(result.steps).toBe(1)
    expect(result.model).toBe('llama-test')
    expect(result.usage).toEqual({
      calls: 1,
      promptTokens: 1_000,
      completionTokens: 50,
      quotaUnits: 1 / 14_400,
      costUsd: 1_000 * 0.000001 + 50 * 0.000002,
      cachedCalls: 0,
      cachedPromptTokens: 0,
      cachedCompletionTokens: 0,
    })
    const body = server.requests[0]!.body as { model: string; messages: unknown[] }
    expect(body.model).toBe('llama-test')
    expect(userMessageOf(server.requests[0]!)).toContain('{"row":1,"city":"Chicago","zip":"N/A"}')
  })

  it('normalizes quota to each provider free tier, unrounded', async () => {
    for (const [name, perDay] of [
      ['gemini-flash', 1_500],
      ['openrouter', 1_000],
      ['cerebras-llama', 1_000],
    ] as const) {
      server.queueReplies(fixesReply([]), fixesReply([]), fixesReply([]))
      const agent = createProviderAgent(
        name,
        options({ env: { GEMINI_API_KEY: FAKE_KEY, OPENROUTER_API_KEY: FAKE_KEY, CEREBRAS_API_KEY: FAKE_KEY } }),
      )
      let quota = 0
      for (let trial = 0; trial < 3; trial++)
        quota += ((await agent.run(task, ctx(trial))) as AgentRunResult).usage!.quotaUnits!
      expect(quota).toBe(1 / perDay + 1 / perDay + 1 / perDay)
    }
    server.queueReplies(fixesReply([]))
    const local = await runAgent('local-ollama')
    expect(local.usage!.quotaUnits).toBe(0)
  })

  it('sends the key as a bearer header, never in the URL (Gemini)', async () => {
    server.queueReplies(fixesReply([]))
    await runAgent('gemini-flash')
    const request = server.requests[0]!
    expect(request.headers.authorization).toBe(`Bearer ${FAKE_KEY}`)
    expect(request.url).toBe('/v1/chat/completions')
    expect(request.url).not.toContain(FAKE_KEY)
    expect((request.body as { model: string }).model).toBe('gemini-2.0-flash')
  })

  it('rejects a base URL that carries credentials', () => {
    expect(() => createProviderAgent('gemini-flash', options({ baseUrl: `${server.baseUrl}?key=abc` }))).toThrow(
      InputError,
    )
  })

  it('fails before any call when the key is missing, naming the variable', () => {
    expect(() => createProviderAgent('groq-llama-70b', options({ env: {} }))).toThrow(/GROQ_API_KEY/)
    expect(() => createProviderAgent('groq-llama-70b', options({ env: { GROQ_API_KEY: '  ' } }))).toThrow(InputError)
    expect(() => createProviderAgent('openai-compatible', options({ model: 'm', apiKeyEnv: 'MY_KEY' }))).toThrow(
      /MY_KEY/,
    )
    expect(server.requests).toHaveLength(0)
  })

  it('reads the key from a .env file; the real environment wins', async () => {
    const dir = tempDir()
    writeFileSync(join(dir, '.env'), `# keys\nexport GROQ_API_KEY="from-file-key-1234"\nOTHER=x # comment\n`)
    server.queueReplies(fixesReply([]), fixesReply([]))
    await createProviderAgent('groq-llama-70b', options({ env: {}, envFile: undefined, cwd: dir })).run(task, ctx())
    expect(server.requests[0]!.headers.authorization).toBe('Bearer from-file-key-1234')
    await createProviderAgent(
      'groq-llama-70b',
      options({ env: { GROQ_API_KEY: FAKE_KEY }, envFile: join(dir, '.env') }),
    ).run(task, ctx())
    expect(server.requests[1]!.headers.authorization).toBe(`Bearer ${FAKE_KEY}`)
    writeFileSync(join(dir, 'bad.env'), `GOOD=1\nthis line has SECRET-VALUE-999 but no equals\n`)
    expect(() => createProviderAgent('groq-llama-70b', options({ env: {}, envFile: join(dir, 'bad.env') }))).toThrow(
      /bad\.env:2/,
    )
    try {
      createProviderAgent('groq-llama-70b', options({ env: {}, envFile: join(dir, 'bad.env') }))
    } catch (error) {
      expect((error as Error).message).not.toContain('SECRET-VALUE-999')
    }
  })

  it('openai-compatible needs --base-url and --model; --api-key-env names the variable', async () => {
    expect(() => createProviderAgent('openai-compatible', options({ baseUrl: undefined, model: 'm' }))).toThrow(
      /--base-url/,
    )
    expect(() => createProviderAgent('openai-compatible', options({}))).toThrow(/--model/)
    expect(() => createProviderAgent('no-such-agent', options())).toThrow(/unknown provider agent/)
    server.queueReplies(fixesReply([]))
    const agent = createProviderAgent(
      'openai-compatible',
      options({ model: 'my-model', apiKeyEnv: 'CUSTOM_KEY', env: { CUSTOM_KEY: 'custom-key-5678' } }),
    )
    expect(agent).toMatchObject({
      name: 'openai-compatible',
      kind: 'model',
      model: 'my-model',
      provider: 'openai-compatible',
    })
    await agent.run(task, ctx())
    expect(server.requests[0]!.headers.authorization).toBe('Bearer custom-key-5678')
  })

  it('accepts fenced JSON from the model', async () => {
    server.queueReplies(chatCompletion('```json\n[{"row": 1, "column": "zip", "new_value": "60601"}]\n```'))
    expect((await runAgent('groq-llama-70b')).fixes).toEqual([{ row: 1, column: 'zip', newValue: '60601' }])
  })

  it('fails truncated JSON as parse_failure and keeps the tokens it cost', async () => {
    server.queueReplies(
      chatCompletion('{"fixes": [{"row": 1, "column": "zip", "new_va', {
        finishReason: 'length',
        completionTokens: 4096,
      }),
    )
    const failure = await failureOf(runAgent('groq-llama-70b'))
    expect(failure).toBeInstanceOf(AgentFailure)
    expect(failure.kind).toBe('parse_failure')
    expect(failure.message).toMatch(/truncated JSON.*finish_reason length/)
    expect(failure.usage.completionTokens).toBe(4096)
    expect(failure.steps).toBe(1)
  })

  it('fails a refusal as refusal', async () => {
    server.queueReplies(chatCompletion("I'm sorry, I can't help with that."))
    expect((await failureOf(runAgent('groq-llama-70b'))).kind).toBe('refusal')
    server.queueReplies(chatCompletion(null, { refusal: 'Declined by policy' }))
    expect((await failureOf(runAgent('groq-llama-70b'))).kind).toBe('refusal')
  })

  it('skips malformed fixes with warnings', async () => {
    server.queueReplies(
      chatCompletion('{"fixes": [{"row": 0, "column": "city", "new_value": "Boston"}, {"row": "x"}]}'),
    )
    const result = await runAgent('groq-llama-70b')
    expect(result.fixes).toHaveLength(1)
    expect(result.warnings).toEqual([expect.stringMatching(/skipped fix #1/)])
  })
})

describe('429, server errors and timeouts', () => {
  it('honors Retry-After and logs the wait', async () => {
    server.queueReplies(errorReply(429, 'slow down', { 'retry-after': '7' }), fixesReply([]))
    const result = await runAgent('groq-llama-70b')
    expect(result.fixes).toEqual([])
    expect(clock.sleeps).toEqual([7_000])
    expect(logs).toEqual([expect.stringContaining('waiting 7 seconds for quota reset')])
    expect(server.requests).toHaveLength(2)
    expect(result.usage!.calls).toBe(1)
  })

  it('prefers retry-after-ms, and accepts an HTTP date', async () => {
    server.queueReplies(
      errorReply(429, 'slow down', { 'retry-after-ms': '1500', 'retry-after': '9' }),
      errorReply(429, 'slow down', { 'retry-after': new Date(Date.now() + 30_000).toUTCString() }),
      fixesReply([]),
    )
    await runAgent('groq-llama-70b')
    expect(clock.sleeps[0]).toBe(1_500)
    expect(logs[0]).toContain('waiting 1.5 seconds for quota reset')
    expect(clock.sleeps[1]).toBeGreaterThan(25_000)
    expect(clock.sleeps[1]).toBeLessThanOrEqual(30_000)
  })

  it('backs off exponentially with jitter when no Retry-After is given, capped', async () => {
    server.handler = () => errorReply(429, 'quota')
    let draw = 0
    const draws = [0, 1, 0.5, 0.999, 0, 1]
    const failure = await failureOf(
      runAgent('groq-llama-70b', {
        maxRetries: 6,
        backoff: { baseMs: 1_000, capMs: 8_000 },
        random: () => draws[draw++ % draws.length]!,
      }),
    )
    expect(failure.kind).toBe('rate_limited')
    expect(failure.message).toMatch(/after 6 retries/)
    // step = min(8 s, 1 s × 2^n); wait = step/2 + random × step/2
    expect(clock.sleeps).toEqual([500, 2_000, 3_000, 7_996, 4_000, 8_000])
    expect(logs).toHaveLength(6)
    for (const line of logs) expect(line).toMatch(/waiting [\d.]+ seconds for quota reset/)
    expect(server.requests).toHaveLength(7)
  })

  it('fails as rate_limited at once when the server asks for a wait over the limit', async () => {
    server.queueReplies(errorReply(429, 'daily quota', { 'retry-after': '86400' }))
    const failure = await failureOf(runAgent('groq-llama-70b', { maxRetryAfterMs: 60_000 }))
    expect(failure.kind).toBe('rate_limited')
    expect(failure.message).toMatch(/86400 seconds/)
    expect(clock.sleeps).toEqual([])
  })

  it('retries 5xx a few times, then fails as provider_error', async () => {
    server.queueReplies(errorReply(503, 'busy'), fixesReply([{ row: 0, column: 'city', new_value: 'Boston' }]))
    expect((await runAgent('groq-llama-70b')).fixes).toHaveLength(1)
    expect(logs[0]).toMatch(/HTTP 503 .*retrying in/)
    server.handler = () => errorReply(500, 'broken')
    const failure = await failureOf(runAgent('groq-llama-70b', { maxServerRetries: 2 }))
    expect(failure.kind).toBe('provider_error')
    expect(failure.message).toMatch(/HTTP 500 from \S+ after 2 retries/)
    expect(server.requests).toHaveLength(2 + 3)
  })

  it('retries a dropped connection', async () => {
    server.queueReplies({ dropConnection: true }, fixesReply([]))
    expect((await runAgent('groq-llama-70b')).fixes).toEqual([])
    expect(logs[0]).toMatch(/cannot reach .*retrying in/)
    expect(server.requests).toHaveLength(2)
  })

  it('does not retry other 4xx, and never echoes the key', async () => {
    server.queueReplies(errorReply(401, `Invalid API key: ${FAKE_KEY}`))
    const failure = await failureOf(runAgent('groq-llama-70b'))
    expect(failure.kind).toBe('provider_error')
    expect(failure.message).toMatch(/HTTP 401: the provider answered with an error$/)
    expect(failure.message).not.toMatch(/Invalid API key/)
    expectNoKey(failure.message, failure.stack, logs)
    expect(server.requests).toHaveLength(1)
  })

  it('never copies a body into a message: a 200 that is not JSON says so, with its size', async () => {
    // A misbehaving gateway echoes the Authorization header, labelled JSON; JSON.parse's error would quote its
    // first characters.
    server.queueReplies({ text: `Bearer ${FAKE_KEY}`, headers: JSON_TYPE })
    const failure = await failureOf(runAgent('groq-llama-70b'))
    expect(failure.kind).toBe('provider_error')
    expect(failure.message).toMatch(/answered HTTP 200 with a body that is not JSON \(\d+ characters\)$/)
    expect(failure.message).not.toContain('Bearer')
    expect(failure.message).not.toContain(FAKE_KEY.slice(0, 6))
    expect(server.requests).toHaveLength(1)
  })

  it('fails an answer that is not a chat completion as provider_error', async () => {
    server.queueReplies({ text: '<html>gateway</html>', headers: JSON_TYPE })
    expect((await failureOf(runAgent('groq-llama-70b'))).kind).toBe('provider_error')
    server.queueReplies({ json: { object: 'list', data: [] } })
    const failure = await failureOf(runAgent('groq-llama-70b'))
    expect(failure.kind).toBe('provider_error')
    expect(failure.message).toMatch(/not a chat completion/)
  })

  it('fails a call past its timeout as timeout', async () => {
    server.handler = heldAnswers().handler // the answer never comes
    const failure = await failureOf(runAgent('groq-llama-70b', { timeoutMs: 150, clock: undefined }))
    expect(failure.kind).toBe('timeout')
    expect(failure.message).toMatch(/no answer within 0.15 seconds/)
  })

  it('honors the run signal: an aborted trial fails as timeout', async () => {
    const controller = new AbortController()
    const held = heldAnswers()
    server.handler = held.handler
    const agent = createProviderAgent('groq-llama-70b', options())
    const running = agent.run(task, ctx(0, 7, controller.signal))
    // Abort while the call is in flight: once the server holds it, not after a guessed delay.
    await held.whenHolding(1)
    controller.abort(new Error('trial timed out'))
    const failure = await failureOf(Promise.resolve(running))
    expect(failure.kind).toBe('timeout')
    expect(failure.message).toMatch(/trial timed out/)
  })

  it('never falls back to another provider', async () => {
    const other = await new FakeProvider().start()
    try {
      server.handler = () => errorReply(429, 'quota')
      await failureOf(runAgent('groq-llama-70b', { maxRetries: 1 }))
      expect(other.requests).toHaveLength(0)
    } finally {
      await other.stop()
    }
  })
})

describe('chunks and limits', () => {
  it('splits a large table into chunks and merges their fixes in row order', async () => {
    server.handler = (request) => {
      const rows = [...userMessageOf(request).matchAll(/\{"row":(\d+),/g)].map((m) => Number(m[1]))
      return fixesReply(
        rows.map((row) => ({ row, column: 'zip', new_value: `z${row}` })),
        { promptTokens: 10, completionTokens: 5 },
      )
    }
    const big = numberedTask(120)
    const agent = createProviderAgent('groq-llama-70b', options({ chunkTokenBudget: 800, concurrency: 3, rpm: 0 }))
    const result = (await agent.run(big, ctx())) as AgentRunResult
    const chunks = server.requests.length
    expect(chunks).toBeGreaterThan(3)
    expect(result.steps).toBe(chunks)
    expect(result.usage).toMatchObject({ calls: chunks, promptTokens: 10 * chunks, completionTokens: 5 * chunks })
    expect(result.fixes).toEqual(Array.from({ length: 120 }, (_, row) => ({ row, column: 'zip', newValue: `z${row}` })))
    expect(server.maxInFlight).toBeLessThanOrEqual(3)
  })

  it('waits with many chunks on one signal without a listener-leak warning', async () => {
    const warnings: string[] = []
    const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`)
    process.on('warning', onWarning)
    try {
      const agent = createProviderAgent('groq-llama-70b', options({ chunkTokenBudget: 300, concurrency: 2, rpm: 0 }))
      await agent.run(numberedTask(200), ctx())
      expect(server.requests.length).toBeGreaterThan(20)
      // Node emits process warnings on the next tick.
      await new Promise((resolve) => setImmediate(resolve))
    } finally {
      process.off('warning', onWarning)
    }
    expect(warnings.filter((w) => w.startsWith('MaxListenersExceededWarning'))).toEqual([])
  })

  it('fails the run when one chunk fails, and says which rows', async () => {
    server.handler = (request) =>
      userMessageOf(request).includes('{"row":0,') ? chatCompletion('not json at all') : fixesReply([])
    const agent = createProviderAgent('groq-llama-70b', options({ chunkTokenBudget: 800 }))
    const failure = await failureOf(Promise.resolve(agent.run(numberedTask(120), ctx())))
    expect(failure.kind).toBe('parse_failure')
    expect(failure.message).toMatch(/^rows 0-\d+: /)
  })

  it('spaces calls to the requests-per-minute limit', async () => {
    const agent = createProviderAgent('groq-llama-70b', options({ rpm: 30, concurrency: 4, chunkTokenBudget: 400 }))
    await agent.run(numberedTask(60), ctx())
    const calls = server.requests.length
    expect(calls).toBeGreaterThan(3)
    // The first call starts at once; each later one waits for its slot, 60 s / 30 = 2 s after the previous.
    expect([...clock.wakes].sort((a, b) => a - b)).toEqual(Array.from({ length: calls - 1 }, (_, i) => (i + 1) * 2_000))
  })

  /** Holds every answer; releases one whenever `limit` calls are held (or all that remain): no latency, no race. */
  async function stepThrough(held: ReturnType<typeof heldAnswers>, total: number, limit: number): Promise<void> {
    for (let remaining = total; remaining > 0; remaining--) {
      await held.whenHolding(Math.min(limit, remaining))
      held.releaseOne()
    }
  }

  it('two agents for the same provider share its limits', async () => {
    const held = heldAnswers(() => fixesReply([]))
    server.handler = held.handler
    const opts = options({ concurrency: 2, rpm: 0, clock: undefined })
    const first = createProviderAgent('groq-llama-70b', opts)
    const second = createProviderAgent('groq-llama-70b', { ...opts, model: 'other-model' })
    const runs = Promise.all([0, 1, 2].flatMap((trial) => [first.run(task, ctx(trial)), second.run(task, ctx(trial))]))
    await stepThrough(held, 6, 2)
    await runs
    expect(server.requests).toHaveLength(6)
    expect(server.maxInFlight).toBe(2)
  })

  it('keeps calls in flight within the concurrency limit', async () => {
    const opts = options({ concurrency: 2, rpm: 0, chunkTokenBudget: 400 })
    await createProviderAgent('groq-llama-70b', opts).run(numberedTask(120), ctx())
    const chunks = server.requests.length
    expect(chunks).toBeGreaterThan(4)
    const counted = await new FakeProvider().start()
    try {
      const held = heldAnswers()
      counted.handler = held.handler
      const running = createProviderAgent('groq-llama-70b', { ...opts, baseUrl: counted.baseUrl }).run(
        numberedTask(120),
        ctx(),
      )
      await stepThrough(held, chunks, 2)
      await running
      expect(counted.requests).toHaveLength(chunks)
      expect(counted.maxInFlight).toBe(2)
    } finally {
      await counted.stop()
    }
  })
})

describe('chat with tools', () => {
  const tools: ChatTool[] = [
    {
      type: 'function',
      function: {
        name: 'sql',
        description: 'run SQL',
        parameters: { type: 'object', properties: { query: { type: 'string' } } },
      },
    },
  ]

  it('returns tool calls and continues the conversation with their results', async () => {
    server.queueReplies(
      chatCompletion(null, {
        toolCalls: [{ id: 'call_1', name: 'sql', arguments: '{"query": "select count(*) from t"}' }],
      }),
      chatCompletion('There are 42 rows.', { promptTokens: 30, completionTokens: 6 }),
    )
    const client = createChatClient('groq-llama-70b', options())
    try {
      const messages = [{ role: 'user' as const, content: 'How many rows?' }]
      const first = await client.chatWithTools(messages, tools, { trial: 0, seed: 1 })
      expect(first.finishReason).toBe('tool_calls')
      expect(first.toolCalls).toEqual([
        {
          id: 'call_1',
          name: 'sql',
          arguments: '{"query": "select count(*) from t"}',
          parsedArguments: { query: 'select count(*) from t' },
        },
      ])
      const second = await client.chatWithTools(
        [...messages, first.message, { role: 'tool', tool_call_id: 'call_1', content: '42' }],
        tools,
        { trial: 0, seed: 1 },
      )
      expect(second.content).toBe('There are 42 rows.')
      expect(second.toolCalls).toEqual([])
      expect(second.usage).toMatchObject({ calls: 1, promptTokens: 30, completionTokens: 6 })
      const sent = server.requests[1]!.body as { tools: unknown; messages: Array<Record<string, unknown>> }
      expect(sent.tools).toEqual(tools)
      expect(sent.messages[1]).toMatchObject({ role: 'assistant', tool_calls: [{ id: 'call_1', type: 'function' }] })
      expect(sent.messages[2]).toEqual({ role: 'tool', tool_call_id: 'call_1', content: '42' })
    } finally {
      await client.close()
    }
  })

  it('reports tool arguments that are not JSON', async () => {
    server.queueReplies(chatCompletion(null, { toolCalls: [{ id: 'c', name: 'sql', arguments: '{"query": ' }] }))
    const client = createChatClient('groq-llama-70b', options())
    try {
      const reply = await client.chatWithTools([{ role: 'user', content: 'q' }], tools, { trial: 0, seed: 1 })
      expect(reply.toolCalls[0]!.parsedArguments).toBeUndefined()
      expect(reply.toolCalls[0]!.argumentsError).toMatch(/not valid JSON/)
    } finally {
      await client.close()
    }
  })
})

describe('redactSecrets', () => {
  it('redacts a key holding quotes or backslashes in every escaped form', () => {
    const key = 'sk-"quo\\te"-1234'
    const text = [
      key,
      JSON.stringify(key),
      JSON.stringify(JSON.stringify(key)),
      JSON.stringify({ message: `auth ${key}` }),
      encodeURIComponent(key),
    ].join(' | ')
    const out = redactSecrets(text, [key])
    expect(out).not.toContain('quo')
    expect(out.match(/\[redacted\]/g)).toHaveLength(5)
  })
})
