/**
 * Data agent benchmarks over a seeded 100,000-row `events` table shaped like the `large` question suite's
 * (event_id, user_id, country, device, amount, status; the first 1,000 rows an unrepresentative snapshot):
 * 1. loading the table into a session's DuckDB database;
 * 2. each of the suite's queries through the engine (the `sql` tool's path: read-only check, run, convert);
 * 3. the whole suite through the agent and a scripted loopback model (describe → sql → answer per question):
 *    what the harness and engine add per tool call, loopback HTTP included (goal: under 50 ms).
 * Run alone: `node --import jiti/register bench/data-agent.ts`.
 */
import { createDataAgent, DataEngine } from '../src/adapters/data-agent/index.js'
import { createChatClient } from '../src/adapters/providers/index.js'
import { Random } from '../src/core/random.js'
import type { Table } from '../src/core/schemas.js'
import { FakeProvider } from '../test/helpers/fake-llm-upstream.js'
import { chatCompletion } from '../test/helpers/tool-model.js'
import { median } from './median.js'

const ROWS = 100_000
const QUERY_REPEATS = 20
const SUITE_ROUNDS = 5
const GOAL_MS = 50

/** The `large` suite's questions as the SQL a model would send. */
const QUERIES: Array<[string, string]> = [
  ['total amount', 'SELECT sum(amount) FROM events'],
  ['mean amount', 'SELECT round(avg(amount), 2) FROM events'],
  ['distinct users', 'SELECT count(DISTINCT user_id) FROM events'],
  ['events from BR', "SELECT count(*) FROM events WHERE country = 'BR'"],
  ['top country by amount', 'SELECT country FROM events GROUP BY country ORDER BY sum(amount) DESC LIMIT 1'],
  ['mobile share %', "SELECT round(100.0 * avg(CASE WHEN device = 'mobile' THEN 1 ELSE 0 END), 1) FROM events"],
  ['refunded amount', "SELECT sum(amount) FROM events WHERE status = 'refunded'"],
  [
    'per-country median and count',
    'SELECT country, median(amount), count(*) FROM events GROUP BY country ORDER BY country',
  ],
  ['all rows (truncated to 50, counted)', 'SELECT * FROM events'],
]

function eventsTable(seed: number): Table {
  const rng = new Random(seed)
  const countries = ['US', 'DE', 'BR', 'IN', 'JP', 'FR']
  const devices = ['mobile', 'desktop', 'tablet']
  const rows: string[][] = new Array(ROWS)
  for (let i = 0; i < ROWS; i++) {
    const head = i < 1_000
    const cents = head ? 5_000 + rng.int(0, 4_999) : 100 + rng.int(0, 5_999)
    rows[i] = [
      String(i + 1),
      String(head ? 1 + (i % 7) : rng.int(1, 40_000)),
      head ? 'US' : rng.pick(countries),
      head ? 'desktop' : rng.pick(devices),
      (cents / 100).toFixed(2),
      !head && rng.chance(0.05) ? 'refunded' : 'paid',
    ]
  }
  return { columns: ['event_id', 'user_id', 'country', 'device', 'amount', 'status'], rows }
}

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const started = performance.now()
  const value = await fn()
  return [performance.now() - started, value]
}

async function engineBenchmark(table: Table): Promise<string[]> {
  const loads: number[] = []
  for (let i = 0; i < 3; i++) {
    const [ms, engine] = await timed(() => DataEngine.open({ events: table }))
    loads.push(ms)
    engine.close()
  }
  const engine = await DataEngine.open({ events: table })
  const lines = [
    `| open a session: load and type ${ROWS.toLocaleString('en-US')} rows (median of 3) | ${median(loads).toFixed(1)} ms | — | — |`,
  ]
  try {
    for (const [label, sql] of QUERIES) {
      await engine.query(sql, 50)
      const times: number[] = []
      for (let i = 0; i < QUERY_REPEATS; i++) times.push((await timed(() => engine.query(sql, 50)))[0])
      const ms = median(times)
      lines.push(
        `| \`sql\`: ${label} (median of ${QUERY_REPEATS}) | ${ms.toFixed(2)} ms | < ${GOAL_MS} ms | ${ms < GOAL_MS ? 'met' : 'MISSED'} |`,
      )
    }
  } finally {
    engine.close()
  }
  return lines
}

/** A model that, for each question, describes the table, runs the question's query and answers with its first cell. */
function scriptedSuiteModel() {
  let step = 0
  return (request: { body: unknown }) => {
    const question = step++ % 3
    const q = Math.floor((step - 1) / 3) % QUERIES.length
    const call = (name: string, args: unknown) =>
      chatCompletion(null, { toolCalls: [{ id: `c${step}`, name, arguments: JSON.stringify(args) }] })
    if (question === 0) return call('describe', { table: 'events' })
    if (question === 1) return call('sql', { query: QUERIES[q]![1] })
    const messages = (request.body as { messages: Array<{ role: string; content: string }> }).messages
    const last = JSON.parse(messages.at(-1)!.content) as { rows: unknown[][] }
    return call('answer', { value: last.rows[0]?.[0] ?? null, text: 'computed' })
  }
}

async function scriptedAgent() {
  const server = await new FakeProvider().start()
  server.handler = scriptedSuiteModel()
  const client = createChatClient({
    agent: 'bench',
    provider: 'fake',
    baseUrl: server.baseUrl,
    model: 'fake-model',
    apiKey: 'bench-key-not-secret',
    quotaPerDay: 0,
    log: () => {},
  })
  return { server, agent: createDataAgent({ client }) }
}

async function suiteBenchmark(table: Table): Promise<string[]> {
  const rounds: Array<{ ms: number; openMs: number; askMs: number; toolCalls: number; modelCalls: number }> = []
  for (let round = 0; round < SUITE_ROUNDS + 1; round++) {
    const { server, agent } = await scriptedAgent()
    try {
      let openMs = 0
      let askMs = 0
      let toolCalls = 0
      const [ms] = await timed(async () => {
        // One session per question, as the suite runs single-shot cases: each loads the table into its own database.
        for (let q = 0; q < QUERIES.length; q++) {
          const [opened, session] = await timed(() => agent.session({ events: table }, { seed: 1 }))
          const [asked, answer] = await timed(() => session.ask(`question ${q}`))
          openMs += opened
          askMs += asked
          toolCalls += answer.metrics?.['toolCalls'] ?? 0
          await session.close()
        }
      })
      // The first round warms up the JIT, the connection pool and DuckDB.
      if (round > 0) rounds.push({ ms, openMs, askMs, toolCalls, modelCalls: server.requests.length })
    } finally {
      await agent.close()
      await server.stop()
    }
  }
  const { toolCalls, modelCalls } = rounds[0]!
  const wall = median(rounds.map((r) => r.ms))
  const open = median(rounds.map((r) => r.openMs)) / QUERIES.length
  const perCall = median(rounds.map((r) => r.askMs)) / toolCalls
  return [
    `| whole suite: ${QUERIES.length} questions, a session each, ${modelCalls} model calls and ${toolCalls} tool calls (median of ${SUITE_ROUNDS}) | ${(wall / 1000).toFixed(2)} s | — | — |`,
    `| of which opening a session (load ${ROWS.toLocaleString('en-US')} rows into its own database), per question | ${open.toFixed(1)} ms | — | — |`,
    `| harness + engine per tool call (model call over loopback HTTP, the tool, bookkeeping) | ${perCall.toFixed(1)} ms | < ${GOAL_MS} ms | ${perCall < GOAL_MS ? 'met' : 'MISSED'} |`,
  ]
}

async function sessionReuseBenchmark(table: Table): Promise<string[]> {
  const { server, agent } = await scriptedAgent()
  const session = await agent.session({ events: table }, { seed: 1 })
  try {
    await session.ask('warm-up')
    const [ms, calls] = await timed(async () => {
      let n = 0
      for (let q = 1; q < QUERIES.length; q++) n += (await session.ask(`question ${q}`)).metrics?.['toolCalls'] ?? 0
      return n
    })
    const perCall = ms / calls
    return [
      `| one session, ${QUERIES.length - 1} questions in a row (${calls} tool calls; the history grows each question) | ${perCall.toFixed(1)} ms per tool call | < ${GOAL_MS} ms | ${perCall < GOAL_MS ? 'met' : 'MISSED'} |`,
    ]
  } finally {
    await session.close()
    await agent.close()
    await server.stop()
  }
}

export default async function run(): Promise<string> {
  const [buildMs, table] = await timed(async () => eventsTable(7))
  const lines = [
    `## Data agent (DuckDB engine, ${ROWS.toLocaleString('en-US')}-row events table built in ${buildMs.toFixed(0)} ms)`,
    '',
    '| benchmark | result | goal | status |',
    '| --- | --- | --- | --- |',
    ...(await engineBenchmark(table)),
    ...(await suiteBenchmark(table)),
    ...(await sessionReuseBenchmark(table)),
    '',
  ]
  return lines.join('\n')
}

const invokedPath = process.argv[1] ?? ''
if (/bench[\\/]data-agent\.(ts|js|mjs)$/.test(invokedPath)) {
  run().then(
    (markdown) => process.stdout.write(`${markdown}\n`),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`)
      process.exitCode = 1
    },
  )
}
