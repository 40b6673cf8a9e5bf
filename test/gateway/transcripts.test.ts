import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TranscriptSchema, type Transcript } from '../../src/core/transcript.js'
import { MAX_VALUE_CHARS } from '../../src/core/value-cap.js'
import { buildTranscript, MAX_TRANSCRIPT_MESSAGE_CHARS } from '../../src/core/transcript-build.js'
import { noteAgentTool } from '../../src/gateway/agent-tools.js'
import { type Gateway, resolveUpstream, startGateway, type TrialSpec, type Upstream } from '../../src/gateway/index.js'
import { type LlmOutcome, outcomeSince } from '../../src/gateway/trial-llm.js'
import { FakeProvider } from '../helpers/fake-llm-upstream.js'
import { echoText, SQL_AND_DESCRIBE, type ToolModelOptions } from '../helpers/tool-model.js'

const SECRET = 'sk-transcript-test-SECRET-0123456789'
/** The model of these tests: it says a sentence beside two parallel tool calls, on every protocol. */
const MODEL: ToolModelOptions = { ...SQL_AND_DESCRIBE, say: 'Let me count.' }
let fake: FakeProvider
let gateway: Gateway
let upstream: Upstream
const dirs: string[] = []

beforeAll(async () => {
  fake = await new FakeProvider(MODEL).start()
  gateway = await startGateway({ log: () => undefined, backoff: { baseMs: 5, capMs: 20 } })
  upstream = resolveUpstream({ baseUrl: fake.baseUrl, keyEnv: 'TR_TEST_KEY' }, { env: { TR_TEST_KEY: SECRET } })
})
afterAll(async () => {
  await gateway.close()
  await fake.stop()
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
})

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'dfg-tr-'))
  dirs.push(dir)
  return dir
}

function spec(over: Partial<TrialSpec> = {}): TrialSpec {
  return { caseId: 'case-t', trial: 0, seed: 1, upstream, cache: { mode: 'off', dir: '' }, ...over }
}

const sqlTool = {
  type: 'function' as const,
  function: {
    name: 'sql',
    description: 'run one SELECT',
    parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
  },
}
const describeTool = {
  type: 'function' as const,
  function: {
    name: 'describe',
    description: 'columns of a table',
    parameters: { type: 'object', properties: { table: { type: 'string' } } },
  },
}

/** A tool loop with the OpenAI SDK: ask, run each tool call (its result a fixed text), ask again. */
async function openAiLoop(llm: { baseURL: string; apiKey: string }, stream: boolean): Promise<string> {
  const client = new OpenAI({ baseURL: llm.baseURL, apiKey: llm.apiKey, maxRetries: 0 })
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
    { role: 'system', content: 'You answer with SQL.' },
    { role: 'user', content: 'How many rows?' },
  ]
  const ask = async () => {
    if (!stream)
      return (await client.chat.completions.create({ model: 'm1', messages, tools: [sqlTool, describeTool] }))
        .choices[0]!.message
    const runner = client.chat.completions.stream({
      model: 'm1',
      messages,
      tools: [sqlTool, describeTool],
      stream_options: { include_usage: true },
    })
    return (await runner.finalChatCompletion()).choices[0]!.message
  }
  const first = await ask()
  messages.push({ role: 'assistant', content: first.content ?? null, tool_calls: first.tool_calls ?? [] })
  for (const call of first.tool_calls ?? []) {
    if (call.type !== 'function') continue
    messages.push({
      role: 'tool',
      tool_call_id: call.id,
      content: call.function.name === 'sql' ? '[{"count":3}]' : '{"columns":["a","b"]}',
    })
  }
  return (await ask()).content ?? ''
}

async function anthropicLoop(llm: { anthropicBaseURL: string; apiKey: string }, stream: boolean): Promise<string> {
  const client = new Anthropic({ baseURL: llm.anthropicBaseURL, apiKey: llm.apiKey, maxRetries: 0 })
  const tools: Anthropic.Tool[] = [
    {
      name: 'sql',
      description: 'run one SELECT',
      input_schema: { type: 'object', properties: { query: { type: 'string' } } },
    },
  ]
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'How many rows?' }]
  const ask = async () => {
    const params = { model: 'claude-x', max_tokens: 100, system: 'Use the sql tool.', messages, tools }
    return stream ? await client.messages.stream(params).finalMessage() : await client.messages.create(params)
  }
  const first = await ask()
  messages.push({ role: 'assistant', content: first.content })
  const uses = first.content.filter((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use')
  messages.push({
    role: 'user',
    content: uses.map((u) => ({ type: 'tool_result' as const, tool_use_id: u.id, content: '[{"1":1}]' })),
  })
  const second = await ask()
  return second.content.map((b) => (b.type === 'text' ? b.text : '')).join('')
}

async function responsesLoop(llm: { baseURL: string; apiKey: string }, stream: boolean): Promise<string> {
  const client = new OpenAI({ baseURL: llm.baseURL, apiKey: llm.apiKey, maxRetries: 0 })
  const tools: OpenAI.Responses.Tool[] = [
    {
      type: 'function',
      name: 'sql',
      description: 'run one SELECT',
      parameters: { type: 'object', properties: { query: { type: 'string' } } },
      strict: false,
    },
  ]
  const input: OpenAI.Responses.ResponseInputItem[] = [{ role: 'user', content: 'How many rows?' }]
  const ask = async () => {
    const params = { model: 'gpt-r', instructions: 'Answer with SQL.', input, tools }
    return stream ? await client.responses.stream(params).finalResponse() : await client.responses.create(params)
  }
  const first = await ask()
  for (const item of first.output) {
    if (item.type !== 'function_call') continue
    input.push({ type: 'function_call', call_id: item.call_id, name: item.name, arguments: item.arguments })
    input.push({ type: 'function_call_output', call_id: item.call_id, output: '[{"n":3}]' })
  }
  return (await ask()).output_text
}

/**
 * The outcome, once checked to say each thing once: a reporter that parses the transcript (Jest's side files,
 * merge-shards, --resume) writes the bytes one that does not (run, Vitest) writes, and each call says what the
 * record's `llmCalls` entry says, in its order, all but its start time.
 */
function checked(outcome: LlmOutcome): LlmOutcome {
  const { transcript, calls } = outcome
  expect(JSON.stringify(TranscriptSchema.parse(transcript))).toBe(JSON.stringify(transcript))
  expect(transcript!.calls.map((call) => JSON.stringify(call))).toEqual(
    transcript!.calls.map(({ index, request, response }) => {
      const { startedAtMs: _, ...fields } = calls[index]!
      return JSON.stringify({ index, ...fields, request, response })
    }),
  )
  return outcome
}

/** What a transcript says apart from timing and where the answer came from. */
const content = (t: Transcript) => t.calls.map(({ latencyMs: _l, cache: _c, ...rest }) => rest)

describe('transcripts of the calls the gateway served', () => {
  for (const stream of [false, true]) {
    it(`OpenAI chat with tool calls (${stream ? 'streamed' : 'JSON'}): request, tools, answer and tool results`, async () => {
      const trial = gateway.openTrial(spec({ caseId: `chat-${stream}` }))
      // The answer echoes the last tool result: the results reached the model.
      expect(await openAiLoop(trial.llm, stream)).toBe(echoText('{"columns":["a","b"]}'))
      trial.finish()
      const { transcript, toolCalls } = checked(outcomeSince(trial))
      const [first, second] = transcript!.calls
      expect(first).toMatchObject({
        index: 0,
        protocol: 'openai-chat',
        path: '/chat/completions',
        model: 'm1',
        stream,
        cache: 'live',
        status: 200,
        promptTokens: 11,
        completionTokens: 7,
        error: null,
      })
      expect(first!.request.system).toBe('You answer with SQL.')
      expect(first!.request.messages).toEqual([
        { role: 'user', content: 'How many rows?', toolCalls: [], toolCallId: null },
      ])
      expect(first!.request.tools).toEqual([
        { name: 'sql', description: 'run one SELECT', parameters: JSON.stringify(sqlTool.function.parameters) },
        {
          name: 'describe',
          description: 'columns of a table',
          parameters: JSON.stringify(describeTool.function.parameters),
        },
      ])
      expect(first!.response).toEqual({
        text: 'Let me count.',
        toolCalls: [
          { id: 'call_1', name: 'sql', arguments: '{"query":"SELECT count(*) FROM t"}' },
          { id: 'call_2', name: 'describe', arguments: '{"table":"t"}' },
        ],
        finishReason: 'tool_calls',
      })
      expect(second!.request.messages.filter((m) => m.role === 'tool')).toEqual([
        { role: 'tool', content: '[{"count":3}]', toolCalls: [], toolCallId: 'call_1' },
        { role: 'tool', content: '{"columns":["a","b"]}', toolCalls: [], toolCallId: 'call_2' },
      ])
      expect(second!.response).toMatchObject({ finishReason: 'stop' })
      expect(second!.response!.text).toBe(echoText('{"columns":["a","b"]}'))
      expect(toolCalls).toEqual([
        { name: 'sql', arguments: '{"query":"SELECT count(*) FROM t"}', resultChars: 13, source: 'model', call: 0 },
        { name: 'describe', arguments: '{"table":"t"}', resultChars: 21, source: 'model', call: 0 },
      ])
      expect(JSON.stringify(transcript)).not.toContain(SECRET)
    })

    it(`Anthropic messages with tool_use (${stream ? 'streamed' : 'JSON'})`, async () => {
      const trial = gateway.openTrial(spec({ caseId: `anthropic-${stream}` }))
      expect(await anthropicLoop(trial.llm, stream)).toBe(echoText('[{"1":1}]'))
      trial.finish()
      const { transcript, toolCalls } = checked(outcomeSince(trial))
      const [first, second] = transcript!.calls
      expect(first).toMatchObject({
        protocol: 'anthropic-messages',
        path: '/messages',
        stream,
        promptTokens: 11,
        completionTokens: 7,
      })
      expect(first!.request.system).toBe('Use the sql tool.')
      expect(first!.request.tools).toEqual([
        {
          name: 'sql',
          description: 'run one SELECT',
          parameters: '{"type":"object","properties":{"query":{"type":"string"}}}',
        },
      ])
      expect(first!.response!.text).toBe('Let me count.')
      expect(first!.response!.finishReason).toBe('tool_use')
      expect(first!.response!.toolCalls).toHaveLength(2)
      expect(first!.response!.toolCalls.map(({ id, name }) => ({ id, name }))).toEqual([
        { id: 'toolu_1', name: 'sql' },
        { id: 'toolu_2', name: 'describe' },
      ])
      expect(first!.response!.toolCalls.map((c) => JSON.parse(c.arguments))).toEqual([
        { query: 'SELECT count(*) FROM t' },
        { table: 't' },
      ])
      expect(second!.request.messages.map((m) => [m.role, m.toolCalls.map((c) => c.name), m.toolCallId])).toEqual([
        ['user', [], null],
        ['assistant', ['sql', 'describe'], null],
        ['tool', [], 'toolu_1'],
        ['tool', [], 'toolu_2'],
      ])
      expect(toolCalls).toEqual(
        first!.response!.toolCalls.map((c) => ({
          name: c.name,
          arguments: c.arguments,
          resultChars: 9,
          source: 'model',
          call: 0,
        })),
      )
    })

    it(`the Responses API with a function call (${stream ? 'streamed' : 'JSON'})`, async () => {
      const trial = gateway.openTrial(spec({ caseId: `responses-${stream}` }))
      expect(await responsesLoop(trial.llm, stream)).toBe(echoText('[{"n":3}]'))
      trial.finish()
      const { transcript, toolCalls } = checked(outcomeSince(trial))
      const [first, second] = transcript!.calls
      expect(first).toMatchObject({ protocol: 'openai-responses', path: '/responses', stream })
      expect(first!.request).toEqual({
        system: 'Answer with SQL.',
        messages: [{ role: 'user', content: 'How many rows?', toolCalls: [], toolCallId: null }],
        tools: [
          {
            name: 'sql',
            description: 'run one SELECT',
            parameters: '{"type":"object","properties":{"query":{"type":"string"}}}',
          },
        ],
      })
      const calls = [
        { id: 'call_1', name: 'sql', arguments: '{"query":"SELECT count(*) FROM t"}' },
        { id: 'call_2', name: 'describe', arguments: '{"table":"t"}' },
      ]
      expect(first!.response).toEqual({ text: 'Let me count.', toolCalls: calls, finishReason: 'completed' })
      expect(second!.request.messages.slice(1)).toEqual(
        calls.flatMap((call) => [
          { role: 'assistant', content: '', toolCalls: [call], toolCallId: null },
          { role: 'tool', content: '[{"n":3}]', toolCalls: [], toolCallId: call.id },
        ]),
      )
      expect(second!.response!.text).toBe(echoText('[{"n":3}]'))
      expect(toolCalls).toEqual(
        calls.map(({ name, arguments: args }) => ({ name, arguments: args, resultChars: 9, source: 'model', call: 0 })),
      )
    })
  }

  it('a replay with the provider down keeps the same transcript and tool calls, marked cached, chunk for chunk', async () => {
    const dir = await tempDir()
    const provider = await new FakeProvider(MODEL).start()
    const live = resolveUpstream({ baseUrl: provider.baseUrl, keyEnv: 'TR_TEST_KEY' }, { env: { TR_TEST_KEY: SECRET } })
    const run = async (mode: 'record' | 'replay') => {
      const out: Array<{ answers: string[]; transcript: Transcript; toolCalls: unknown }> = []
      for (const stream of [false, true]) {
        const trial = gateway.openTrial(spec({ caseId: `replay-${stream}`, upstream: live, cache: { mode, dir } }))
        const answers = [await openAiLoop(trial.llm, stream), await anthropicLoop(trial.llm, stream)]
        trial.finish()
        const { transcript, toolCalls } = checked(outcomeSince(trial))
        out.push({ answers, transcript: transcript!, toolCalls })
      }
      return out
    }
    const recorded = await run('record')
    await provider.stop()
    const replayed = await run('replay')
    for (let i = 0; i < recorded.length; i++) {
      expect(replayed[i]!.answers).toEqual(recorded[i]!.answers)
      expect(content(replayed[i]!.transcript)).toEqual(content(recorded[i]!.transcript))
      expect(replayed[i]!.toolCalls).toEqual(recorded[i]!.toolCalls)
      expect(recorded[i]!.transcript.calls.every((c) => c.cache === 'live')).toBe(true)
      expect(replayed[i]!.transcript.calls.every((c) => c.cache === 'hit')).toBe(true)
    }
    // No key in the cassettes or the transcripts.
    for (const name of await readdir(dir, { recursive: true })) {
      const path = join(dir, String(name))
      const text = await readFile(path, 'utf8').catch(() => '')
      expect(text).not.toContain(SECRET)
    }
    expect(JSON.stringify([recorded, replayed])).not.toContain(SECRET)
  })

  it('cuts long strings to the size policy and notes each cut; the id differs per trial', async () => {
    const trial = gateway.openTrial(spec({ caseId: 'long' }))
    const client = new OpenAI({ baseURL: trial.llm.baseURL, apiKey: trial.llm.apiKey, maxRetries: 0 })
    const long = 'x'.repeat(MAX_VALUE_CHARS + 5)
    await client.chat.completions.create({
      model: 'm1',
      messages: [
        { role: 'user', content: long },
        { role: 'user', content: 'short' },
      ],
    })
    trial.finish()
    const { transcript } = outcomeSince(trial)
    expect(transcript!.calls[0]!.request.messages[0]!.content).toHaveLength(MAX_VALUE_CHARS)
    expect(transcript!.notes).toEqual([
      expect.stringMatching(
        /^value cut: calls\[0\]\.request\.messages\[0\]\.content has 10005 characters \(sha256 [0-9a-f]{64}\); the transcript keeps the first 10000$/,
      ),
    ])
    const other = gateway.openTrial(spec({ caseId: 'long', trial: 1 }))
    await new OpenAI({ baseURL: other.llm.baseURL, apiKey: other.llm.apiKey, maxRetries: 0 }).chat.completions.create({
      model: 'm1',
      messages: [
        { role: 'user', content: long },
        { role: 'user', content: 'short' },
      ],
    })
    other.finish()
    expect(outcomeSince(other).transcript!.id).not.toBe(transcript!.id)
  })

  it("an agent's own tool steps join the transcript and take the place of the model's call they ran", async () => {
    const trial = gateway.openTrial(spec({ caseId: 'agent-steps' }))
    const client = new OpenAI({ baseURL: trial.llm.baseURL, apiKey: trial.llm.apiKey, maxRetries: 0 })
    const first = (
      await client.chat.completions.create({
        model: 'm1',
        messages: [{ role: 'user', content: 'q' }],
        tools: [sqlTool, describeTool],
      })
    ).choices[0]!.message
    const sqlCall = first.tool_calls!.find((c) => c.type === 'function' && c.function.name === 'sql')!
    noteAgentTool(trial.llm, {
      name: 'sql',
      input: 'SELECT count(*) FROM t',
      result: 'count\n3',
      error: null,
      ms: 1.5,
      callId: sqlCall.id,
    })
    noteAgentTool(trial.llm, { name: 'load', input: 'data.csv', result: 'r'.repeat(5000), error: null, ms: null })
    trial.finish()
    noteAgentTool(trial.llm, { name: 'late', input: '', result: '', error: null, ms: null })
    const { transcript, toolCalls } = outcomeSince(trial)
    expect(transcript!.agentTools).toEqual([
      {
        index: 0,
        name: 'sql',
        input: 'SELECT count(*) FROM t',
        resultPreview: 'count\n3',
        resultChars: 7,
        error: null,
        ms: 1.5,
      },
      {
        index: 1,
        name: 'load',
        input: 'data.csv',
        resultPreview: 'r'.repeat(2000),
        resultChars: 5000,
        error: null,
        ms: null,
      },
    ])
    expect(toolCalls).toEqual([
      { name: 'sql', arguments: 'SELECT count(*) FROM t', resultChars: 7, source: 'agent', call: null },
      { name: 'describe', arguments: '{"table":"t"}', resultChars: null, source: 'model', call: 0 },
      { name: 'load', arguments: 'data.csv', resultChars: 5000, source: 'agent', call: null },
    ])
  })

  it('a provider that echoes the key gets it redacted in the transcript, streamed and not (redact.ts)', async () => {
    const echo = await new FakeProvider().start()
    echo.handler = (request) => {
      const leak = `your key is ${String(request.headers['authorization']).slice('Bearer '.length)}`
      if (request.body?.['stream'] !== true)
        return {
          json: {
            id: 'x',
            object: 'chat.completion',
            created: 1,
            model: 'm1',
            choices: [{ index: 0, message: { role: 'assistant', content: leak }, finish_reason: 'stop' }],
          },
        }
      const chunk = (content: string) =>
        `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 1, model: 'm1', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`
      // The key split across two events: the stream redactor holds the first piece back until it knows.
      return { events: [chunk(leak.slice(0, 20)), chunk(leak.slice(20)), 'data: [DONE]\n\n'] }
    }
    const leaky = resolveUpstream({ baseUrl: echo.baseUrl, keyEnv: 'TR_TEST_KEY' }, { env: { TR_TEST_KEY: SECRET } })
    try {
      const trial = gateway.openTrial(spec({ caseId: 'echo', upstream: leaky }))
      const client = new OpenAI({ baseURL: trial.llm.baseURL, apiKey: trial.llm.apiKey, maxRetries: 0 })
      await client.chat.completions.create({ model: 'm1', messages: [{ role: 'user', content: 'q' }] })
      const stream = await client.chat.completions.create({
        model: 'm1',
        messages: [{ role: 'user', content: 'q' }],
        stream: true,
      })
      for await (const _ of stream) {
      }
      trial.finish()
      const { transcript } = outcomeSince(trial)
      expect(transcript!.calls.map((c) => c.response!.text)).toEqual([
        'your key is [redacted]',
        'your key is [redacted]',
      ])
      expect(JSON.stringify(transcript)).not.toContain(SECRET)
    } finally {
      await echo.stop()
    }
  })

  it('a trial without calls or tools keeps no transcript', () => {
    const trial = gateway.openTrial(spec({ caseId: 'none' }))
    trial.finish()
    expect(outcomeSince(trial)).toMatchObject({ transcript: null, toolCalls: [] })
  })
})

describe('the size policy over a whole transcript', () => {
  it('past the message budget, later calls keep only their last message, noted', () => {
    const trace = {
      protocol: 'openai-chat' as const,
      path: '/chat/completions',
      model: 'm',
      stream: false,
      promptTokens: 0,
      completionTokens: 0,
      latencyMs: 0,
      cache: 'live' as const,
      status: 200,
      error: null,
    }
    const message = (i: number) => ({ role: 'user', content: 'y'.repeat(9_000) + i, toolCalls: [], toolCallId: null })
    // Each request resends the history: call i holds i + 1 messages of 9 KB.
    const calls = Array.from({ length: 40 }, (_, i) => ({
      ...trace,
      index: i,
      request: { system: null, messages: Array.from({ length: i + 1 }, (_, j) => message(j)), tools: [] },
      response: null,
    }))
    const { transcript } = buildTranscript('budget', calls, [])
    const kept = transcript!.calls.map((c) => c.request.messages.length)
    const first = kept.findIndex((n, i) => n !== i + 1)
    expect(first).toBeGreaterThan(0)
    expect(kept.slice(first).every((n) => n === 1)).toBe(true)
    expect(transcript!.calls.at(-1)!.request.messages[0]!.content).toBe(message(39).content)
    expect(transcript!.notes).toEqual([
      `calls[${first}] on keep only their request's last message: the requests' messages passed ${MAX_TRANSCRIPT_MESSAGE_CHARS} characters`,
    ])
    expect(JSON.stringify(transcript).length).toBeLessThan(MAX_TRANSCRIPT_MESSAGE_CHARS + 1_000_000)
  })
})
