/**
 * Provider client benchmarks against the loopback chat-completions server, every call through the model gateway
 * (started before the timed part, as a run starts it with its first trial):
 * 1. the achieved request rate under a requests-per-minute cap, with 50 ms server latency (goal: ≥ 90% of the cap);
 * 2. replaying 1,000 cached calls (goal: under a second).
 * Run alone: `npx jiti bench/providers.ts`.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import { type ChatClientConfig, createChatClient } from '../src/adapters/providers/index.js'
import { sharedGateway } from '../src/gateway/shared.js'
import { FakeProvider, fixesReply } from '../test/helpers/fake-llm-upstream.js'

const LATENCY_MS = 50
const RPM_CAP = 1_200
const RATE_CALLS = 60
const REPLAY_CALLS = 1_000

function config(baseUrl: string, extra: Partial<ChatClientConfig> = {}): ChatClientConfig {
  return {
    agent: 'bench',
    provider: 'fake',
    baseUrl,
    model: 'fake-model',
    apiKey: 'bench-key-not-secret',
    quotaPerDay: 14_400,
    log: () => {},
    ...extra,
  }
}

function request(i: number) {
  return { messages: [{ role: 'user' as const, content: `bench request ${i}` }] }
}

async function rateBenchmark(): Promise<string[]> {
  const server = await new FakeProvider().start()
  server.handler = async () => {
    await delay(LATENCY_MS)
    return fixesReply([])
  }
  const client = createChatClient(config(server.baseUrl, { rpm: RPM_CAP, concurrency: 8 }))
  try {
    const started = performance.now()
    await Promise.all(Array.from({ length: RATE_CALLS }, (_, i) => client.chat(request(i), { trial: 0, seed: 1 })))
    const elapsedS = (performance.now() - started) / 1000
    const achievedRpm = (RATE_CALLS / elapsedS) * 60
    const arrivals = server.requests.map((r) => r.receivedAt).sort((a, b) => a - b)
    const gaps = arrivals
      .slice(1)
      .map((t, i) => t - arrivals[i]!)
      .sort((a, b) => a - b)
    const medianGapMs = gaps[Math.floor(gaps.length / 2)]!
    const share = achievedRpm / RPM_CAP
    return [
      `| rate under a cap: ${RATE_CALLS} calls, cap ${RPM_CAP} rpm, ${LATENCY_MS} ms latency, concurrency 8 | ` +
        `${achievedRpm.toFixed(0)} rpm end to end (${(share * 100).toFixed(1)}% of cap; median gap between arrivals ${medianGapMs.toFixed(1)} ms, cap spacing ${(60_000 / RPM_CAP).toFixed(1)} ms), ` +
        `${elapsedS.toFixed(2)} s | ≥ 90% of cap | ${share >= 0.9 ? 'met' : 'MISSED'} |`,
    ]
  } finally {
    await client.close()
    await server.stop()
  }
}

async function replayBenchmark(): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'dataforge-bench-cache-'))
  const server = await new FakeProvider().start()
  server.handler = (_r, i) => fixesReply([{ row: i, column: 'city', new_value: `v${i}` }])
  try {
    const recorder = createChatClient(config(server.baseUrl, { cache: { mode: 'record', dir }, concurrency: 16 }))
    await Promise.all(Array.from({ length: REPLAY_CALLS }, (_, i) => recorder.chat(request(i), { trial: 0, seed: 1 })))
    await recorder.close()
    await server.stop()
    const player = createChatClient(config(server.baseUrl, { cache: { mode: 'replay', dir } }))
    const started = performance.now()
    let cached = 0
    for (let i = 0; i < REPLAY_CALLS; i++) {
      const reply = await player.chat(request(i), { trial: 0, seed: 1 })
      cached += reply.usage.cachedCalls
    }
    const sequentialS = (performance.now() - started) / 1000
    const parallelStart = performance.now()
    await Promise.all(Array.from({ length: REPLAY_CALLS }, (_, i) => player.chat(request(i), { trial: 0, seed: 1 })))
    const parallelS = (performance.now() - parallelStart) / 1000
    await player.close()
    if (cached !== REPLAY_CALLS) throw new Error(`only ${cached} of ${REPLAY_CALLS} replays came from the cache`)
    return [
      `| replay ${REPLAY_CALLS} cached calls, one after another | ${sequentialS.toFixed(3)} s (${((sequentialS / REPLAY_CALLS) * 1e3).toFixed(3)} ms a call) | < 1 s | ${sequentialS < 1 ? 'met' : 'MISSED'} |`,
      `| replay ${REPLAY_CALLS} cached calls, all at once | ${parallelS.toFixed(3)} s | < 1 s | ${parallelS < 1 ? 'met' : 'MISSED'} |`,
    ]
  } finally {
    await server.stop().catch(() => {})
    rmSync(dir, { recursive: true, force: true })
  }
}

export default async function run(): Promise<string> {
  await sharedGateway()
  const lines = [
    '## Model providers (loopback chat-completions server)',
    '',
    '| benchmark | result | goal | status |',
    '| --- | --- | --- | --- |',
    ...(await rateBenchmark()),
    ...(await replayBenchmark()),
    '',
  ]
  return lines.join('\n')
}

const invokedPath = process.argv[1] ?? ''
if (/bench[\\/]providers\.(ts|js|mjs)$/.test(invokedPath) || process.argv.slice(2).includes('--providers-bench')) {
  run().then(
    (markdown) => process.stdout.write(`${markdown}\n`),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`)
      process.exitCode = 1
    },
  )
}
