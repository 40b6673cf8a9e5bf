import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import OpenAI from 'openai'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type Gateway, resolveUpstream, startGateway, type TrialSpec, type Upstream } from '../../src/gateway/index.js'
import { FakeProvider } from '../helpers/fake-llm-upstream.js'
import { finalText, READ_THEN_REPAIR, TOOL_ARGS } from '../helpers/tool-model.js'

// The OpenAI Responses API (POST /v1/responses) through the gateway, driven by the real openai SDK: read field by
// field like chat completions (usage, streamed response.completed, answer shape), recorded and replayed, budgeted
// and priced; what it cannot read is a classified trial failure.

const SECRET = 'sk-responses-test-SECRET-5566778899'
let fake: FakeProvider
let gateway: Gateway
let upstream: Upstream
const dirs: string[] = []

beforeAll(async () => {
  fake = await new FakeProvider(READ_THEN_REPAIR).start()
  gateway = await startGateway({ log: () => undefined, maxServerRetries: 0 })
  upstream = resolveUpstream({ baseUrl: fake.baseUrl, keyEnv: 'GW_RESP_KEY' }, { env: { GW_RESP_KEY: SECRET } })
})
afterEach(() => {
  fake.handler = undefined
})
afterAll(async () => {
  await gateway.close()
  await fake.stop()
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
})

const spec = (over: Partial<TrialSpec> = {}): TrialSpec => ({
  caseId: 'resp',
  trial: 0,
  seed: 1,
  upstream,
  cache: { mode: 'off', dir: '' },
  ...over,
})
const client = (llm: { baseURL: string; apiKey: string }) =>
  new OpenAI({ baseURL: llm.baseURL, apiKey: llm.apiKey, maxRetries: 0 })
const TOOLS: OpenAI.Responses.Tool[] = [
  {
    type: 'function',
    name: 'read_rows',
    strict: false,
    parameters: { type: 'object', properties: { offset: { type: 'number' }, limit: { type: 'number' } } },
  },
]
const ROWS = JSON.stringify([{ row: 2, city: 'Berlni' }])

/** One tool round trip: the model calls read_rows, gets ROWS back, answers. Streamed or not. */
async function toolLoop(llm: { baseURL: string; apiKey: string }, stream: boolean) {
  const openai = client(llm)
  const ask = async (input: OpenAI.Responses.ResponseInput) =>
    stream
      ? openai.responses.stream({ model: 'gpt-r', input, tools: TOOLS }).finalResponse()
      : openai.responses.create({ model: 'gpt-r', input, tools: TOOLS })
  const input: OpenAI.Responses.ResponseInput = [{ role: 'user', content: 'repair the table' }]
  const first = await ask(input)
  const call = first.output.find((item) => item.type === 'function_call') as OpenAI.Responses.ResponseFunctionToolCall
  const next: OpenAI.Responses.ResponseInput = [
    ...input,
    call,
    { type: 'function_call_output', call_id: call.call_id, output: ROWS },
  ]
  const second = await ask(next)
  return { first, call, second }
}

describe('POST /v1/responses', () => {
  it.each([false, true])(
    'reads a tool loop as openai-responses calls with their usage (streamed: %s)',
    async (stream) => {
      const trial = gateway.openTrial(spec())
      const { first, call, second } = await toolLoop(trial.llm, stream)
      expect(call).toMatchObject({ name: 'read_rows', arguments: JSON.stringify(TOOL_ARGS) })
      expect(second.output_text).toBe(finalText(ROWS))
      expect(fake.requests.at(-1)!.headers['authorization']).toBe(`Bearer ${SECRET}`)
      const ledger = trial.finish()
      expect(ledger.failure).toBeNull()
      expect(ledger.calls.map((c) => [c.protocol, c.path, c.model, c.stream, c.cache, c.status])).toEqual([
        ['openai-responses', '/responses', 'gpt-r', stream, 'live', 200],
        ['openai-responses', '/responses', 'gpt-r', stream, 'live', 200],
      ])
      expect(ledger.usage).toMatchObject({
        calls: 2,
        promptTokens: first.usage!.input_tokens + second.usage!.input_tokens,
        completionTokens: first.usage!.output_tokens + second.usage!.output_tokens,
      })
      expect(ledger.usage.completionTokens).toBeGreaterThan(0)
    },
  )

  it('records and replays both streamed and JSON loops with the upstream down: same answers, counted as cached', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dfg-resp-'))
    dirs.push(dir)
    const own = await new FakeProvider(READ_THEN_REPAIR).start()
    const ownUpstream = resolveUpstream(
      { baseUrl: own.baseUrl, keyEnv: 'GW_RESP_KEY' },
      { env: { GW_RESP_KEY: SECRET } },
    )
    const run = async (mode: 'record' | 'replay') => {
      const trial = gateway.openTrial(spec({ upstream: ownUpstream, cache: { mode, dir } }))
      const json = await toolLoop(trial.llm, false)
      const streamed = await toolLoop(trial.llm, true)
      return { answers: [json.second.output_text, streamed.second.output_text], ledger: trial.finish() }
    }
    const recorded = await run('record')
    await own.stop()
    const replayed = await run('replay')
    expect(replayed.answers).toEqual(recorded.answers)
    expect(replayed.ledger.failure).toBeNull()
    expect(replayed.ledger.calls.map((c) => [c.protocol, c.cache])).toEqual(Array(4).fill(['openai-responses', 'hit']))
    expect(replayed.ledger.usage).toMatchObject({
      calls: 4,
      cachedCalls: 4,
      promptTokens: 0,
      cachedPromptTokens: recorded.ledger.usage.promptTokens,
      cachedCompletionTokens: recorded.ledger.usage.completionTokens,
    })
    for (const file of await readdir(dir)) expect(await readFile(join(dir, file), 'utf8')).not.toContain(SECRET)
  })

  it('prices the response by the model it names, and a budget reserves max_output_tokens', async () => {
    const priced = { ...upstream, prices: { 'gpt-r': { prompt: 0.000001, completion: 0.000002 } } }
    const trial = gateway.openTrial(spec({ upstream: priced }))
    const reply = await client(trial.llm).responses.create({ model: 'gpt-r', input: 'hello' })
    expect(reply.output_text).toBe('echo:olleh')
    const { usage } = trial.finish()
    expect(usage.costUsd).toBeCloseTo(reply.usage!.input_tokens * 0.000001 + reply.usage!.output_tokens * 0.000002, 12)
    // The first call is held upstream while the second asks: the first's 5,000 reserved tokens refuse it.
    let release: () => void = () => undefined
    fake.handler = () => new Promise((resolve) => (release = () => resolve(undefined)))
    const limited = gateway.openTrial(spec({ budget: { tokens: 1000 } }))
    const openai = client(limited.llm)
    const first = openai.responses.create({ model: 'gpt-r', input: 'x', max_output_tokens: 5000 })
    while (fake.inFlight === 0) await new Promise((resolve) => setTimeout(resolve, 5))
    const before = fake.requests.length
    await expect(openai.responses.create({ model: 'gpt-r', input: 'y' })).rejects.toThrow(/budget exceeded/)
    expect(fake.requests.length).toBe(before)
    release()
    expect((await first).output_text).toBe('echo:x')
    expect(limited.finish().failure?.kind).toBe('budget_exceeded')
  })

  it('forwards the other /v1/responses paths (retrieve) as other calls', async () => {
    fake.handler = (request) =>
      request.method === 'GET' ? { json: { id: 'resp_t', object: 'response', output: [], usage: null } } : undefined
    const trial = gateway.openTrial(spec())
    const got = await client(trial.llm).responses.retrieve('resp_t')
    expect(got.id).toBe('resp_t')
    expect(trial.finish().calls.map((c) => [c.protocol, c.path])).toEqual([['other', '/responses/resp_t']])
  })
})

describe('a /v1/responses call the gateway cannot read', () => {
  const raw = (llm: { baseURL: string; apiKey: string }, body: string) =>
    fetch(`${llm.baseURL}/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${llm.apiKey}` },
      body,
    }).then(async (r) => ({
      status: r.status,
      body: (await r.json()) as { error: { code: string; message: string } },
    }))

  it('a malformed request is a 400 naming the field and an invalid_request of the trial', async () => {
    for (const [body, field] of [
      ['{"input":"x"}', 'field "model" must be a non-empty string'],
      ['{"model":"m","input":7}', 'field "input" must be a string or an array of items'],
      ['{"model":"m","input":["x"]}', 'field "input[0]" must be an object'],
      ['{"model":"m","input":"x","stream":"yes"}', 'field "stream" must be true or false'],
    ] as const) {
      const trial = gateway.openTrial(spec())
      const answer = await raw(trial.llm, body)
      expect(answer.status).toBe(400)
      expect(answer.body.error.message).toBe(`/v1/responses: ${field}`)
      expect(trial.finish().failure).toEqual({ kind: 'invalid_request', message: `/v1/responses: ${field}` })
    }
    const stored = gateway.openTrial(spec())
    expect((await raw(stored.llm, '{"prompt":{"id":"pmpt_1"},"input":"x"}')).status).toBe(200)
    expect(stored.finish().failure).toBeNull()
  })

  it('a 2xx that is not a response is a 502 and a provider_error', async () => {
    fake.handler = () => ({ json: { choices: [] } })
    const trial = gateway.openTrial(spec())
    await expect(client(trial.llm).responses.create({ model: 'm', input: 'x' })).rejects.toThrow(
      /not a response \(no output\)/,
    )
    expect(trial.finish().failure?.kind).toBe('provider_error')
  })

  it('a stream that fails or is cut off fails the trial as provider_error and is not recorded', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dfg-resp-bad-'))
    dirs.push(dir)
    const events = (...types: Array<[string, object]>) =>
      types.map(([type, data]) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`)
    const created: [string, object] = [
      'response.created',
      { response: { id: 'r', object: 'response', status: 'in_progress', output: [] } },
    ]
    for (const [reply, problem] of [
      [
        events(created, [
          'response.failed',
          { response: { id: 'r', status: 'failed', output: [], error: { code: 'server_error', message: 'boom' } } },
        ]),
        'ended with a response.failed event (server_error)',
      ],
      [
        events(created, ['error', { code: 'rate_limit_exceeded', message: 'slow' }]),
        'ended with a error event (rate_limit_exceeded)',
      ],
      [events(created), 'ended before its response.completed event'],
    ] as const) {
      fake.handler = () => ({ events: [...reply] })
      const trial = gateway.openTrial(spec({ cache: { mode: 'record', dir } }))
      await client(trial.llm)
        .responses.stream({ model: 'm', input: 'x' })
        .finalResponse()
        .catch(() => undefined)
      const ledger = trial.finish()
      expect(ledger.failure).toEqual({
        kind: 'provider_error',
        message: `case "resp" trial 1 (seed 1): http://127.0.0.1:*/v1 answered /responses with a stream that ${problem}`,
      })
      expect(ledger.calls[0]).toMatchObject({ protocol: 'openai-responses', stream: true, cache: 'live' })
    }
    expect(await readdir(dir)).toEqual([])
  })
})
