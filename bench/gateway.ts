/**
 * The model gateway's cost, on loopback against a fake provider (test/helpers/fake-llm-upstream.ts):
 * 1. a chat-completion JSON call through the gateway vs the same call straight to the provider: median added per call
 *    (goal ≤ 1 ms);
 * 2. a streamed call: time to the first streamed byte, gateway vs direct (goal ≤ 2 ms added);
 * 3. 1,000 replayed calls (recorded first, then answered from the cassettes with the provider down): total time
 *    (goal < 1 s).
 * Calls are sequential, each with keep-alive (Node's fetch). Run alone: `node --import jiti/register bench/gateway.ts`.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { resolveUpstream, startGateway } from '../src/gateway/index.js'
import { FakeProvider } from '../test/helpers/fake-llm-upstream.js'
import { median } from './median.js'

const WARMUP = 100
const CALLS = 1_000
const REPLAYS = 1_000

const body = (i: number, stream = false) =>
  JSON.stringify({
    model: 'bench',
    messages: [{ role: 'user', content: `question ${i}` }],
    ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
  })

async function timeCall(url: string, token: string, i: number): Promise<number> {
  const started = performance.now()
  const res = await fetch(`${url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: body(i),
  })
  await res.arrayBuffer()
  return performance.now() - started
}

async function timeFirstByte(url: string, token: string, i: number): Promise<number> {
  const started = performance.now()
  const res = await fetch(`${url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: body(i, true),
  })
  const reader = res.body!.getReader()
  await reader.read()
  const first = performance.now() - started
  while (!(await reader.read()).done) {}
  return first
}

const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 })

/** The lightest client there is (node:http, keep-alive): what the gateway itself costs, without fetch's own overhead. */
function timeHttpCall(url: string, token: string, i: number): Promise<number> {
  const started = performance.now()
  const payload = body(i)
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}/chat/completions`,
      {
        method: 'POST',
        agent: keepAlive,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          authorization: `Bearer ${token}`,
        },
      },
      (res) => {
        res.on('data', () => undefined)
        res.on('end', () => resolve(performance.now() - started))
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(payload)
  })
}

/** Alternates direct and gateway calls so load on the machine hits both alike. */
async function paired(
  measure: (url: string, token: string, i: number) => Promise<number>,
  direct: string,
  gateway: string,
  token: string,
  n: number,
) {
  const d: number[] = []
  const g: number[] = []
  for (let i = 0; i < WARMUP; i++) {
    await measure(direct, 'k', i)
    await measure(gateway, token, i)
  }
  for (let i = 0; i < n; i++) {
    d.push(await measure(direct, 'k', i))
    g.push(await measure(gateway, token, i))
  }
  return { direct: median(d), gateway: median(g) }
}

export default async function run(): Promise<string> {
  const fake = await new FakeProvider().start()
  const gateway = await startGateway({ log: () => undefined })
  const dir = mkdtempSync(join(tmpdir(), 'dfg-gw-bench-'))
  const rows: string[] = []
  try {
    const upstream = resolveUpstream(fake.baseUrl, { env: { OPENAI_API_KEY: 'bench-key' } })
    const live = gateway.openTrial({ caseId: 'bench', trial: 0, seed: 1, upstream, cache: { mode: 'off', dir } })
    const json = await paired(timeCall, fake.baseUrl, live.llm.baseURL, live.llm.apiKey, CALLS)
    const added = json.gateway - json.direct
    rows.push(
      `| JSON call, median (direct ${json.direct.toFixed(2)} ms, gateway ${json.gateway.toFixed(2)} ms) | +${added.toFixed(2)} ms | ≤ 1 ms | ${added <= 1 ? 'met' : 'NOT met'} |`,
    )
    const sse = await paired(timeFirstByte, fake.baseUrl, live.llm.baseURL, live.llm.apiKey, CALLS)
    const addedFirst = sse.gateway - sse.direct
    rows.push(
      `| first streamed byte, median (direct ${sse.direct.toFixed(2)} ms, gateway ${sse.gateway.toFixed(2)} ms) | +${addedFirst.toFixed(2)} ms | ≤ 2 ms | ${addedFirst <= 2 ? 'met' : 'NOT met'} |`,
    )
    live.finish()

    const record = gateway.openTrial({ caseId: 'bench', trial: 0, seed: 1, upstream, cache: { mode: 'record', dir } })
    for (let i = 0; i < REPLAYS; i++) await timeCall(record.llm.baseURL, record.llm.apiKey, i)
    record.finish()
    await fake.stop()
    for (const [client, measure] of [
      ['node:http client', timeHttpCall],
      ['fetch client', timeCall],
    ] as const) {
      const replay = gateway.openTrial({ caseId: 'bench', trial: 0, seed: 1, upstream, cache: { mode: 'replay', dir } })
      const started = performance.now()
      for (let i = 0; i < REPLAYS; i++) await measure(replay.llm.baseURL, replay.llm.apiKey, i)
      const total = performance.now() - started
      const ledger = replay.finish()
      if (ledger.usage.cachedCalls !== REPLAYS || ledger.failure)
        throw new Error(
          `replay bench: ${ledger.usage.cachedCalls} of ${REPLAYS} calls replayed (${ledger.failure?.message ?? 'no failure'})`,
        )
      const served = median(ledger.calls.map((c) => c.latencyMs))
      rows.push(
        `| ${REPLAYS.toLocaleString('en-US')} replayed calls, provider down, ${client} (gateway's own median ${served.toFixed(2)} ms a call) | ${(total / 1000).toFixed(2)} s (${(total / REPLAYS).toFixed(2)} ms a call) | < 1 s | ${total < 1000 ? 'met' : 'NOT met'} |`,
      )
    }
  } finally {
    keepAlive.destroy()
    await gateway.close()
    await fake.stop()
    rmSync(dir, { recursive: true, force: true })
  }
  return [
    '## Model gateway (loopback, sequential calls, keep-alive)',
    '',
    '| benchmark | result | goal | status |',
    '| --- | --- | --- | --- |',
    ...rows,
    '',
  ].join('\n')
}

const invokedPath = process.argv[1] ?? ''
if (/bench[\\/]gateway\.(ts|js|mjs)$/.test(invokedPath) || process.argv.slice(2).includes('--gateway-bench')) {
  run().then(
    (markdown) => process.stdout.write(`${markdown}\n`),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`)
      process.exitCode = 1
    },
  )
}
