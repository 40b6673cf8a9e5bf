/**
 * What keeping transcripts costs (docs/transcripts.md):
 * 1. bytes a call on disk (the transcripts file's line over its calls) of tool-calling trials through the gateway,
 *    JSON and streamed, before the size policy cuts anything (goal ≤ 2 KB a typical call);
 * 2. the capture's CPU a call (the request flattened, the answer read, the trial's transcript built and cut),
 *    against a whole loopback call through the gateway (goal: ≤ 10% of a call);
 * 3. the README pattern (evalCase with a no-LLM agent) runs no transcript code: without `llm` the gateway is not
 *    loaded, records carry `transcriptId: null` and no file is written, so its cost is nil by construction.
 * Run alone: `node --import jiti/register bench/transcripts.ts`.
 */
import { pathToFileURL } from 'node:url'
import OpenAI from 'openai'
import { buildTranscript } from '../src/core/transcript-build.js'
import { resolveUpstream, startGateway } from '../src/gateway/index.js'
import type { TranscriptCall } from '../src/core/transcript.js'
import { answerOfJson, StreamAnswer, type TranscriptAnswer, transcriptCall } from '../src/gateway/transcript-capture.js'
import { outcomeSince } from '../src/gateway/trial-llm.js'
import { eventData } from '../src/gateway/sse.js'
import { parseCall } from '../src/gateway/protocol.js'
import { FakeProvider } from '../test/helpers/fake-llm-upstream.js'
import { SQL_AND_DESCRIBE } from '../test/helpers/tool-model.js'
import { median } from './median.js'

const tools = [
  {
    type: 'function' as const,
    function: {
      name: 'sql',
      description: 'run one SELECT over the tables (DuckDB SQL)',
      parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
    },
  },
  {
    type: 'function' as const,
    function: {
      name: 'describe',
      description: 'the columns of a table',
      parameters: { type: 'object', properties: { table: { type: 'string' } } },
    },
  },
]

/** One tool loop: a question, the tool calls, their results, the answer (two calls). */
async function toolTrial(client: OpenAI, stream: boolean, i: number): Promise<void> {
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
    { role: 'system', content: 'You answer questions about the tables with SQL. Call tools; answer in one sentence.' },
    { role: 'user', content: `How many orders did customer ${i} place in March?` },
  ]
  const ask = async () =>
    stream
      ? (
          await client.chat.completions
            .stream({ model: 'bench', messages, tools, stream_options: { include_usage: true } })
            .finalChatCompletion()
        ).choices[0]!.message
      : (await client.chat.completions.create({ model: 'bench', messages, tools })).choices[0]!.message
  const first = await ask()
  messages.push({ role: 'assistant', content: first.content ?? null, tool_calls: first.tool_calls ?? [] })
  for (const call of first.tool_calls ?? [])
    messages.push({ role: 'tool', tool_call_id: call.id, content: '{"columns":["n"],"rows":[[3]]}' })
  await ask()
}

export default async function run(): Promise<string> {
  const fake = await new FakeProvider(SQL_AND_DESCRIBE).start()
  const gateway = await startGateway({ log: () => undefined })
  const rows: string[] = []
  try {
    const upstream = resolveUpstream(fake.baseUrl, { env: { OPENAI_API_KEY: 'bench-key' } })
    const spec = (i: number) => ({
      caseId: `bench-${i}`,
      trial: 0,
      seed: i,
      upstream,
      cache: { mode: 'off' as const, dir: '' },
    })
    // 1. Bytes a call, and the gateway call's own time (for 2).
    const callMs: number[] = []
    for (const stream of [false, true]) {
      let bytes = 0
      let calls = 0
      for (let i = 0; i < 200; i++) {
        const trial = gateway.openTrial(spec(i))
        const client = new OpenAI({ baseURL: trial.llm.baseURL, apiKey: trial.llm.apiKey, maxRetries: 0 })
        const started = performance.now()
        await toolTrial(client, stream, i)
        if (!stream && i >= 20) callMs.push((performance.now() - started) / 2)
        trial.finish()
        const { transcript } = outcomeSince(trial)
        bytes += Buffer.byteLength(`${JSON.stringify(transcript)}\n`)
        calls += transcript!.calls.length
      }
      const perCall = bytes / calls
      rows.push(
        `| bytes a call on disk, tool-calling trials (2 calls: tools offered, tool calls, results), ${stream ? 'streamed' : 'JSON'} | ${Math.round(perCall)} B | ≤ 2 KB | ${perCall <= 2048 ? 'met' : 'NOT met'} |`,
      )
    }

    // 2. The capture's CPU a call, on the same shapes, without the HTTP hop.
    const call = parseCall(
      'POST',
      '/v1/chat/completions',
      JSON.stringify({
        model: 'bench',
        messages: [
          { role: 'system', content: 'You answer with SQL.' },
          { role: 'user', content: 'How many orders?' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_1',
                type: 'function',
                function: { name: 'sql', arguments: '{"query":"SELECT count(*) FROM orders"}' },
              },
            ],
          },
          { role: 'tool', tool_call_id: 'call_1', content: '{"rows":[[3]]}' },
        ],
        tools,
      }),
    )
    const json = (await (
      await fetch(`${fake.baseUrl}/chat/completions`, {
        method: 'POST',
        body: JSON.stringify({ model: 'bench', messages: [{ role: 'user', content: 'q' }], tools }),
      })
    ).json()) as unknown
    const events = (
      await (
        await fetch(`${fake.baseUrl}/chat/completions`, {
          method: 'POST',
          body: JSON.stringify({ model: 'bench', stream: true, messages: [{ role: 'user', content: 'q' }], tools }),
        })
      ).text()
    )
      .split('\n\n')
      .filter((e) => e.trim())
      .map((e) => `${e}\n\n`)
    const trace = {
      protocol: 'openai-chat' as const,
      path: '/chat/completions',
      model: 'bench',
      stream: false,
      promptTokens: 11,
      completionTokens: 7,
      latencyMs: 1,
      cache: 'live' as const,
      status: 200,
      error: null,
      startedAtMs: null,
    }
    const N = 20_000
    const capture = (stream: boolean) => {
      const samples: number[] = []
      for (let round = 0; round < 7; round++) {
        const started = performance.now()
        const kept: TranscriptCall[] = []
        for (let i = 0; i < N; i++) {
          let answer: TranscriptAnswer | null
          if (stream) {
            const reader = new StreamAnswer()
            for (const event of events) reader.onData(eventData(event)!)
            answer = reader.result()
          } else answer = answerOfJson(json)
          kept.push(transcriptCall(i % 2, trace, call, answer))
          if (kept.length === 2) {
            buildTranscript(`bench ${i}`, kept, [])
            kept.length = 0
          }
        }
        samples.push(((performance.now() - started) / N) * 1000)
      }
      return median(samples)
    }
    const gatewayCall = median(callMs)
    for (const stream of [false, true]) {
      const us = capture(stream)
      const share = us / 1000 / gatewayCall
      rows.push(
        `| capture CPU a call, ${stream ? 'streamed (6 events)' : 'JSON'} (median of 7 × ${N}), against a loopback tool call through the gateway (${gatewayCall.toFixed(2)} ms) | ${us.toFixed(1)} µs (${(share * 100).toFixed(1)}%) | ≤ 10% of a call | ${share <= 0.1 ? 'met' : 'NOT met'} |`,
      )
    }
    rows.push(
      '| README pattern (no `llm`): transcript code run, bytes written | none (the gateway is not loaded; `transcriptId` null, no file) | ≤ 10% wall time | met |',
    )
  } finally {
    await gateway.close()
    await fake.stop()
  }
  return `## Transcripts (bench/transcripts.ts)\n\n| benchmark | result | goal | status |\n| --- | --- | --- | --- |\n${rows.join('\n')}\n`
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.stdout.write(`${await run()}\n`)
