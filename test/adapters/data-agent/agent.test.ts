import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  createDataAgent,
  DataAgentFailure,
  dataAgentFromCli,
  toolDefinitions,
  type ToolDataAgent,
} from '../../../src/adapters/data-agent/index.js'
import { InputError } from '../../../src/core/errors.js'
import type { DataAgentSession } from '../../../src/adapters/data-agent/session.js'
import type { Answer } from '../../../src/core/answer.js'
import { chartProduced, contains, numeric } from '../../../src/grading/answers/index.js'
import { FakeProvider, errorReply, heldAnswers } from '../../helpers/fake-llm-upstream.js'
import { chatCompletion } from '../../helpers/tool-model.js'
import { FAKE_KEY, manualClock, tempDir, virtualClock } from '../../helpers/providers.js'
import {
  callTool,
  callTools,
  firstCell,
  lastToolResult,
  messagesOf,
  scriptedModel,
  shopTables,
  testClient,
  trapTable,
} from '../../helpers/scripted-model.js'

let server: FakeProvider
let agent: ToolDataAgent | undefined
let session: DataAgentSession | undefined

beforeEach(async () => {
  server = await new FakeProvider().start()
})
afterEach(async () => {
  await session?.close()
  await agent?.close()
  session = undefined
  agent = undefined
  await server.stop()
})

async function failureOf(promise: Promise<unknown>): Promise<DataAgentFailure> {
  try {
    await promise
  } catch (error) {
    if (error instanceof DataAgentFailure) return error
    throw error
  }
  throw new Error('expected a DataAgentFailure')
}

const JOIN_SQL = "SELECT sum(o.amount) FROM orders o JOIN customers c ON c.id = o.customer_id WHERE c.region = 'North'"

describe('data agent: tool calling over DuckDB', () => {
  it('answers a join question through sql, seeing only the sample rows', async () => {
    server.handler = scriptedModel([
      callTool('list_tables'),
      callTools(['describe', { table: 'customers' }], ['describe', { table: 'orders' }]),
      callTool('sql', { query: JOIN_SQL }),
      (request) => callTool('answer', { value: firstCell(request), text: 'North spent this much' }),
    ])
    agent = createDataAgent({ client: testClient(server), maxTokensPerStep: 256 })
    session = await agent.session(shopTables(), { seed: 3 })
    const answer = await session.ask('How much did customers in the North region spend in all?')

    // 120.50 + 7.25 (Ada) + 42.25 + 10 (Cara)
    expect(answer.value).toBe(180)
    expect(numeric(180)(answer).passed).toBe(true)
    expect(answer.steps).toBe(4)
    expect(answer.model).toBe('fake-model')
    expect(answer.usage).toMatchObject({ calls: 4, promptTokens: 400, completionTokens: 80 })
    expect(answer.metrics).toEqual({
      toolCalls: 5,
      'toolCalls.answer': 1,
      'toolCalls.describe': 2,
      'toolCalls.list_tables': 1,
      'toolCalls.sql': 1,
      toolErrors: 0,
      malformedToolCalls: 0,
      textReplies: 0,
    })

    // What the model was sent: the tools, the token cap, types sniffed by DuckDB, at most five sample rows.
    const first = server.requests[0]!.body as { tools: Array<{ function: { name: string } }>; max_tokens: number }
    expect(first.tools.map((t) => t.function.name)).toEqual([
      'list_tables',
      'describe',
      'sql',
      'save',
      'chart',
      'answer',
    ])
    expect(first.max_tokens).toBe(256)
    expect(lastToolResult(server.requests[1]!)).toEqual({
      tables: [
        { name: 'customers', kind: 'table', rows: 4, columns: 3 },
        { name: 'orders', kind: 'table', rows: 6, columns: 3 },
      ],
    })
    const described = messagesOf(server.requests[2]!)
      .filter((m) => m.role === 'tool')
      .map((m) => JSON.parse(m.content!))
    expect(described[2]).toMatchObject({
      table: 'orders',
      rows: 6,
      columns: [
        { name: 'order_id', type: 'BIGINT' },
        { name: 'customer_id', type: 'BIGINT' },
        { name: 'amount', type: 'DOUBLE' },
      ],
    })
    expect(described[2].sample).toHaveLength(5)
    expect(described[2].sample[0]).toEqual([10, 1, 120.5])
  })

  it('keeps state across questions: a result saved in one turn is queried in the next', async () => {
    const revenueSql =
      'SELECT c.name, sum(o.amount) AS revenue FROM orders o JOIN customers c ON c.id = o.customer_id GROUP BY c.name'
    server.handler = scriptedModel([
      callTool('save', { name: 'cust_rev', query: revenueSql }),
      callTool('sql', { query: 'SELECT count(*) FROM cust_rev' }),
      // The value as JSON text, as the tool declares it: "4" is the number 4.
      (request) => callTool('answer', { value: JSON.stringify(firstCell(request)), text: 'customers with orders' }),
      callTool('sql', { query: 'SELECT name FROM cust_rev ORDER BY revenue DESC LIMIT 1' }),
      (request) => callTool('answer', { value: firstCell(request), text: `${firstCell(request)} spent most` }),
      callTool('answer', { result: 'cust_rev', text: 'the saved table' }),
    ])
    agent = createDataAgent({ client: testClient(server) })
    session = await agent.session(shopTables(), { seed: 1 })

    const first = await session.ask('Revenue per customer, save it as cust_rev. How many customers?')
    expect(first.value).toBe(4)
    expect(lastToolResult(server.requests[1]!)).toMatchObject({ saved: 'cust_rev', rows: 4 })

    const second = await session.ask('Using cust_rev, who spent most?')
    expect(second.value).toBe('Dev')
    expect(contains('Dev')(second).passed).toBe(true)
    // The second question's calls carry the first question's whole exchange.
    const history = messagesOf(server.requests[3]!)
    expect(history.filter((m) => m.role === 'user').map((m) => m.content)).toEqual([
      'Revenue per customer, save it as cust_rev. How many customers?',
      'Using cust_rev, who spent most?',
    ])
    expect(second.metrics?.['toolCalls.save']).toBeUndefined()
    expect(second.steps).toBe(2)

    const third = await session.ask('Show me cust_rev.')
    const table = third.value as { columns: string[]; rows: string[][] }
    expect(table.columns).toEqual(['name', 'revenue'])
    expect(table.rows).toHaveLength(4)
    expect(table.rows.find((r) => r[0] === 'Ada')).toEqual(['Ada', '127.75'])
    expect(session.engine.list().map((r) => `${r.name}:${r.kind}`)).toEqual([
      'customers:table',
      'orders:table',
      'cust_rev:saved',
    ])
    expect(second.text).toBe('Dev spent most')
  })

  it('snapshot trap: computing over 100,000 rows passes, answering from the sample rows fails', async () => {
    const { table, sampleMean, trueMean } = trapTable(100_000)
    const grader = numeric(trueMean, { relTol: 0.01 })
    expect(Math.abs(sampleMean - trueMean) / trueMean).toBeGreaterThan(10)

    // The computing model averages over the whole table.
    server.handler = scriptedModel([
      callTool('describe', { table: 'sales' }),
      callTool('sql', { query: 'SELECT avg(amount) FROM sales' }),
      (request) => callTool('answer', { value: firstCell(request), text: 'mean sale' }),
      // The sampling model reads describe's rows and averages those.
      callTool('describe', { table: 'sales' }),
      (request) => {
        const sample = lastToolResult(request)['sample'] as number[][]
        const mean = sample.reduce((a, r) => a + r[2]!, 0) / sample.length
        return callTool('answer', { value: mean, text: 'mean of what I saw' })
      },
    ])
    agent = createDataAgent({ client: testClient(server) })
    session = await agent.session({ sales: table }, { seed: 1 })
    const described = await session.ask('What is the mean sale amount?')
    expect(described.value).toBeCloseTo(trueMean, 9)
    expect(grader(described).passed).toBe(true)
    expect(lastToolResult(server.requests[1]!)).toMatchObject({
      rows: 100_000,
      note: 'the sample is the first 5 of 100000 rows; compute answers with sql',
    })

    const fromSample = await session.ask('What is the mean sale amount? (again)')
    expect(fromSample.value).toBe(sampleMean)
    expect(grader(fromSample).passed).toBe(false)
  })

  it('caps sql results at maxRows with a note giving the full count', async () => {
    const { table } = trapTable(1_000)
    server.handler = scriptedModel([
      callTool('sql', { query: 'SELECT * FROM sales' }),
      callTool('answer', { value: 0, text: 'done' }),
    ])
    agent = createDataAgent({ client: testClient(server), maxRows: 20 })
    session = await agent.session({ sales: table }, { seed: 1 })
    await session.ask('Show all sales')
    const result = lastToolResult(server.requests[1]!)
    expect(result['rows']).toHaveLength(20)
    expect(result).toMatchObject({
      rowCount: 1_000,
      truncated: true,
      note: 'showing the first 20 of 1000 rows; aggregate or filter in SQL, or save the result and query it',
    })
  })

  it('draws a chart validated against the data, after a spec naming a missing field is refused', async () => {
    const perRegion =
      'SELECT c.region, sum(o.amount) AS revenue FROM orders o JOIN customers c ON c.id = o.customer_id GROUP BY c.region ORDER BY c.region'
    const spec = (y: string) => ({
      $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
      mark: 'bar',
      encoding: { x: { field: 'region', type: 'nominal' }, y: { field: y, type: 'quantitative' } },
    })
    server.handler = scriptedModel([
      callTool('chart', { spec: spec('total'), query: perRegion }),
      callTool('chart', { spec: '"a bar chart"', query: perRegion }),
      // As JSON text, the form the tool declares (portable across providers' schema rules).
      callTool('chart', { spec: JSON.stringify(spec('revenue')), query: perRegion }),
      callTool('answer', { text: 'revenue per region, as a bar chart' }),
    ])
    agent = createDataAgent({ client: testClient(server) })
    session = await agent.session(shopTables(), { seed: 1 })
    const answer = await session.ask('Chart revenue per region.')

    const refused = JSON.parse(messagesOf(server.requests[1]!).at(-1)!.content!)
    expect(refused.error).toContain('spec.encoding.y.field "total" is not in the data')
    expect(JSON.parse(messagesOf(server.requests[2]!).at(-1)!.content!).error).toBe(
      'chart: spec must be a Vega-Lite spec, a JSON object (as text or as an object)',
    )
    expect(answer.charts).toHaveLength(1)
    expect(chartProduced({ mark: 'bar', encodings: ['x', 'y'] })(answer).passed).toBe(true)
    expect((answer.charts![0]!['data'] as { values: unknown[] }).values).toEqual([
      { region: 'East', revenue: 300 },
      { region: 'North', revenue: 180 },
      { region: 'South', revenue: 80 },
    ])
    expect(answer.metrics).toMatchObject({ 'toolCalls.chart': 3, toolErrors: 2, malformedToolCalls: 0 })
  })

  it('refuses writes, attaches and file reads with a tool error the model recovers from', async () => {
    const dir = tempDir('dataforge-data-agent-outside-')
    const attempts = [
      'DROP TABLE orders',
      'INSERT INTO orders VALUES (99, 1, 1000)',
      `ATTACH '${dir}/other.db'`,
      `COPY orders TO '${dir}/leak.csv'`,
      "SELECT * FROM read_csv('/etc/passwd')",
      'SET enable_external_access = true',
      'SELECT 1; DROP TABLE orders',
    ]
    server.handler = scriptedModel([
      ...attempts.map((query) => callTool('sql', { query })),
      callTool('save', { name: 'sneaky', query: 'DELETE FROM orders' }),
      callTool('sql', { query: 'SELECT count(*) FROM orders' }),
      (request) => callTool('answer', { value: firstCell(request), text: 'orders counted' }),
    ])
    agent = createDataAgent({ client: testClient(server) })
    session = await agent.session(shopTables(), { seed: 1 })
    const answer = await session.ask('How many orders are there?')

    const errors = server.requests.slice(1, attempts.length + 2).map((r) => String(lastToolResult(r)['error']))
    expect(errors[0]).toBe(
      'refused: DROP statements are not allowed; the tables are read-only and only SELECT queries run (use save(name, query) to keep a result for later)',
    )
    expect(errors[1]).toContain('refused: INSERT statements are not allowed')
    expect(errors[2]).toContain('refused: ATTACH statements are not allowed')
    expect(errors[3]).toMatch(/refused: COPY statements are not allowed|file system operations are disabled/)
    expect(errors[4]).toContain('file system operations are disabled by configuration')
    expect(errors[5]).toContain('refused: SET statements are not allowed')
    expect(errors[6]).toBe('send exactly one statement per call (this query has 2)')
    expect(errors[7]).toContain('refused: DELETE statements are not allowed')
    expect(answer.value).toBe(6)
    expect(answer.metrics).toMatchObject({
      toolErrors: 8,
      malformedToolCalls: 0,
      'toolCalls.sql': 8,
      'toolCalls.save': 1,
    })
    expect(readdirSync(dir)).toEqual([])
  })

  it('returns malformed tool calls to the model as counted tool errors', async () => {
    server.handler = scriptedModel([
      callTool('sql', '{"query": "SELECT 1"'),
      callTool('drop_everything', {}),
      callTool('describe', { name: 'orders' }),
      callTool('describe', { table: 'nope' }),
      callTool('answer', { value: { a: 1 }, text: 'an object' }),
      chatCompletion('The answer is 6.'),
      callTool('answer', { value: 6, text: 'six orders' }),
    ])
    agent = createDataAgent({ client: testClient(server) })
    session = await agent.session(shopTables(), { seed: 1 })
    const answer = await session.ask('How many orders?')
    const results = server.requests.slice(1, 6).map((r) => messagesOf(r).at(-1)!.content!)
    expect(JSON.parse(results[0]!).error).toMatch(/^arguments of sql are not valid JSON/)
    expect(JSON.parse(results[1]!).error).toBe(
      'unknown tool "drop_everything"; the tools are list_tables, describe, sql, save, chart, answer',
    )
    expect(JSON.parse(results[2]!).error).toMatch(/^describe: table: /)
    expect(JSON.parse(results[3]!).error).toBe('no table or saved result named "nope"; known: customers, orders')
    expect(JSON.parse(results[4]!).error).toBe(
      'answer: an object value must be a table {columns: [...], rows: [[...], ...]}',
    )
    // A prose reply is answered with a reminder to call answer.
    expect(messagesOf(server.requests[6]!).at(-1)).toMatchObject({
      role: 'user',
      content: expect.stringContaining('Call the answer tool'),
    })
    expect(answer.value).toBe(6)
    expect(answer.metrics).toMatchObject({
      toolErrors: 5,
      malformedToolCalls: 3,
      textReplies: 1,
      'toolCalls.describe': 2,
    })
    expect(answer.steps).toBe(7)
  })

  it('sends the per-step token cap and warns when a provider goes past it', async () => {
    const over = callTool('answer', { value: 6, text: 'six' })
    ;(over.json as { usage: Record<string, number> }).usage['completion_tokens'] = 500
    server.handler = scriptedModel([over])
    agent = createDataAgent({ client: testClient(server), maxTokensPerStep: 100 })
    session = await agent.session(shopTables(), { seed: 1 })
    const answer = await session.ask('How many orders?')
    expect((server.requests[0]!.body as { max_tokens: number }).max_tokens).toBe(100)
    expect(answer.usage).toMatchObject({ completionTokens: 500 })
    expect(session.lastStats?.warnings).toEqual(['step 1: 500 completion tokens, over the cap of 100'])
  })

  it('fails a model that never answers as no_answer, with what it spent, and the session goes on', async () => {
    server.handler = scriptedModel([
      callTool('list_tables'),
      chatCompletion('I think it is about 5.'),
      callTool('sql', { query: 'SELECT count(*) FROM orders' }),
      callTool('answer', { value: 6, text: 'six' }),
    ])
    agent = createDataAgent({ client: testClient(server), maxSteps: 3 })
    session = await agent.session(shopTables(), { seed: 1 })
    const failure = await failureOf(session.ask('How many orders?'))
    expect(failure.kind).toBe('no_answer')
    expect(failure.message).toBe(
      'data-agent (fake-model): no answer after 3 steps (2 tool calls, 0 tool errors, 1 replies without a tool call)',
    )
    expect(failure.steps).toBe(3)
    expect(failure.usage).toMatchObject({ calls: 3, promptTokens: 300 })
    expect(failure.metrics).toMatchObject({
      toolCalls: 2,
      'toolCalls.list_tables': 1,
      'toolCalls.sql': 1,
      textReplies: 1,
    })
    expect(session.lastStats?.steps).toBe(3)

    // The next question starts from a valid history that records the failed one.
    const next = await session.ask('How many orders, really?')
    expect(next.value).toBe(6)
    const history = messagesOf(server.requests[3]!)
    expect(history.slice(1, 3)).toEqual([
      { role: 'user', content: 'How many orders?' },
      { role: 'assistant', content: '(no answer: no_answer)' },
    ])
  })

  it('rides out a 429 mid-loop, waiting Retry-After on the virtual clock', async () => {
    const clock = virtualClock()
    const logs: string[] = []
    server.queueReplies(
      callTool('sql', { query: 'SELECT count(*) FROM orders' }),
      errorReply(429, 'slow down', { 'retry-after': '7' }),
    )
    server.handler = scriptedModel([(request) => callTool('answer', { value: firstCell(request), text: 'six orders' })])
    agent = createDataAgent({
      client: testClient(server, { clock, log: (line) => logs.push(line), random: () => 0.5 }),
    })
    session = await agent.session(shopTables(), { seed: 1 })
    const answer = await session.ask('How many orders?')
    expect(answer.value).toBe(6)
    expect(clock.sleeps).toEqual([7_000])
    expect(logs).toEqual([
      'gateway: HTTP 429 from http://127.0.0.1:*/v1 for case "question 1: How many orders?" trial 1 (seed 1); waiting 7 seconds for quota reset (retry 1 of 5)',
    ])
    expect(server.requests).toHaveLength(3)
    // The retried call is the same request, and the rejected attempt is not a step.
    expect(server.requests[2]!.raw).toBe(server.requests[1]!.raw)
    expect(answer.steps).toBe(2)
    expect(answer.usage).toMatchObject({ calls: 2 })
  })

  it('fails as rate_limited when 429s outlast the retries, keeping the usage of earlier steps', async () => {
    const clock = virtualClock()
    server.queueReplies(callTool('list_tables'))
    server.handler = () => errorReply(429, 'quota', { 'retry-after': '1' })
    agent = createDataAgent({ client: testClient(server, { clock, maxRetries: 2 }) })
    session = await agent.session(shopTables(), { seed: 1 })
    const failure = await failureOf(session.ask('How many orders?'))
    expect(failure.kind).toBe('rate_limited')
    expect(failure.message).toContain('still rate limited after 2 retries')
    expect(failure.usage).toMatchObject({ calls: 1, promptTokens: 100 })
    expect(failure.metrics).toMatchObject({ 'toolCalls.list_tables': 1 })
    expect(clock.sleeps).toEqual([1_000, 1_000])
    expect(JSON.stringify(failure)).not.toContain(FAKE_KEY)
  })

  it('interrupts a long query when the question runs out of time', async () => {
    server.handler = scriptedModel([
      callTool('sql', { query: 'SELECT count(*) FROM range(1000000000000) a WHERE a.range % 7 = 3' }),
    ])
    const clock = manualClock()
    agent = createDataAgent({ client: testClient(server), timeoutMs: 300, clock })
    session = await agent.session(shopTables(), { seed: 1 })
    // The question's time runs out the moment the query is sent: before DuckDB has even prepared it.
    const engine = session.engine
    const query = engine.query.bind(engine)
    engine.query = (sql, maxRows) => {
      const running = query(sql, maxRows)
      clock.fire()
      return running
    }
    const failure = await failureOf(session.ask('Count forever'))
    expect(failure.kind).toBe('timeout')
    expect(failure.metrics).toMatchObject({ 'toolCalls.sql': 1, toolErrors: 1 })
    // The session is still usable after the interrupt.
    expect((await session.engine.query('SELECT count(*) FROM orders', 5)).rows).toEqual([[6]])
  })

  it('fails a question past its time as timeout while waiting for the model', async () => {
    const held = heldAnswers()
    const script = scriptedModel([callTool('list_tables')])
    server.handler = (request, index) => (index === 0 ? script(request, index) : held.handler())
    const clock = manualClock()
    agent = createDataAgent({ client: testClient(server), timeoutMs: 200, clock })
    session = await agent.session(shopTables(), { seed: 1 })
    const asking = session.ask('How many orders?')
    // Time runs out while the model holds its second answer.
    await held.whenHolding(1)
    clock.fire()
    const failure = await failureOf(asking)
    expect(failure.kind).toBe('timeout')
    expect(failure.steps).toBe(1)
    expect(failure.message).toContain('no answer within 0.2 seconds')
  })

  it('replays a whole tool-calling run from the record/replay cache without calling the server', async () => {
    const dir = tempDir('dataforge-data-agent-cache-')
    const steps = () =>
      scriptedModel([
        callTool('sql', { query: JOIN_SQL }),
        (request) => callTool('answer', { value: firstCell(request), text: 'North' }),
      ])
    server.handler = steps()
    const recorder = createDataAgent({ client: testClient(server, { cache: { mode: 'record', dir } }) })
    const recorded = await recorder.session(shopTables(), { seed: 5, trial: 2 })
    const live = await recorded.ask('North revenue?')
    await recorded.close()
    await recorder.close()
    expect(server.requests).toHaveLength(2)

    server.handler = () => errorReply(500, 'the server must not be called in replay')
    agent = createDataAgent({ client: testClient(server, { cache: { mode: 'replay', dir } }) })
    session = await agent.session(shopTables(), { seed: 5, trial: 2 })
    const replayed: Answer = await session.ask('North revenue?')
    expect(server.requests).toHaveLength(2)
    expect(replayed.value).toBe(live.value)
    expect(replayed.usage).toMatchObject({ calls: 2, cachedCalls: 2, promptTokens: 0, cachedPromptTokens: 200 })

    // Another trial is another sample: a miss, named as such.
    const other = await agent.session(shopTables(), { seed: 5, trial: 3 })
    const miss = await failureOf(other.ask('North revenue?'))
    await other.close()
    expect(miss.kind).toBe('cache_miss')
    expect(miss.message).toContain('no recorded answer for case "question 1: North revenue?" trial 4')
  })
})

describe('tool definitions', () => {
  it('give every property a scalar type and no empty object schema (providers such as Gemini reject them)', () => {
    for (const tool of toolDefinitions({ maxRows: 50, sampleRows: 5 })) {
      const parameters = tool.function.parameters as { type: string; properties: Record<string, { type?: string }> }
      expect(parameters.type, tool.function.name).toBe('object')
      expect(Object.keys(parameters.properties).length, tool.function.name).toBeGreaterThan(0)
      for (const [name, property] of Object.entries(parameters.properties)) {
        expect(['string', 'boolean', 'number', 'integer'], `${tool.function.name}.${name}`).toContain(property.type)
      }
    }
  })

  it('list_tables can leave out saved results', async () => {
    server.handler = scriptedModel([
      callTool('save', { name: 'n', query: 'SELECT 1 AS one' }),
      callTool('list_tables', { include_saved: false }),
      (request) => callTool('answer', { value: JSON.stringify(lastToolResult(request)['tables']), text: 'tables' }),
    ])
    agent = createDataAgent({ client: testClient(server) })
    session = await agent.session(shopTables(), { seed: 1 })
    const answer = await session.ask('Which tables are there?')
    expect((answer.value as Array<{ name: string }>).map((t) => t.name)).toEqual(['customers', 'orders'])
  })
})

describe('dataAgentFromCli', () => {
  const base = () => ({
    envFile: join(tempDir(), 'absent.env'),
    cache: { mode: 'off' as const, dir: tempDir() },
    rpm: 0,
  })

  it('builds the agent from the provider flags and answers through the server', async () => {
    server.handler = scriptedModel([
      callTool('sql', { query: 'SELECT count(*) FROM customers' }),
      (r) => callTool('answer', { value: firstCell(r), text: 'four' }),
    ])
    agent = dataAgentFromCli({
      ...base(),
      baseUrl: server.baseUrl,
      model: 'm-1',
      apiKeyEnv: 'MY_KEY',
      env: { MY_KEY: FAKE_KEY },
      maxSteps: 3,
      maxTokensPerStep: 77,
    })
    expect(agent).toMatchObject({ name: 'data-agent', kind: 'model', model: 'm-1', provider: 'openai-compatible' })
    session = await agent.session(shopTables(), { seed: 1 })
    expect((await session.ask('How many customers?')).value).toBe(4)
    expect(server.requests[0]!.headers['authorization']).toBe(`Bearer ${FAKE_KEY}`)
    expect((server.requests[0]!.body as { max_tokens: number }).max_tokens).toBe(77)
  })

  it('takes a preset or a provider name, and names what is missing', () => {
    agent = dataAgentFromCli({ ...base(), provider: 'groq', baseUrl: server.baseUrl, env: { GROQ_API_KEY: FAKE_KEY } })
    expect(agent).toMatchObject({ model: 'llama-3.3-70b-versatile', provider: 'groq' })
    expect(
      dataAgentFromCli({ ...base(), provider: 'openrouter', env: { OPENROUTER_API_KEY: FAKE_KEY } }).provider,
    ).toBe('openrouter')
    expect(() => dataAgentFromCli({ ...base(), env: {} })).toThrow(
      new InputError(
        'agent data-agent needs --provider (one of groq-llama-70b, cerebras-llama, openrouter, gemini-flash, local-ollama, openai-compatible) or --base-url',
      ),
    )
    expect(() => dataAgentFromCli({ ...base(), provider: 'acme', env: {} })).toThrow(
      '--provider: unknown provider "acme"',
    )
    expect(() => dataAgentFromCli({ ...base(), provider: 'gemini', env: {} })).toThrow(/GEMINI_API_KEY/)
    expect(() => dataAgentFromCli({ ...base(), baseUrl: server.baseUrl, env: { OPENAI_API_KEY: FAKE_KEY } })).toThrow(
      /--model/,
    )
    expect(() => createDataAgent({ client: testClient(server), maxSteps: 0 })).toThrow(
      'createDataAgent(): option maxSteps must be a positive integer, got 0',
    )
    expect(() => createDataAgent({ client: testClient(server), model: 'other' })).toThrow(
      'createDataAgent(): option model "other" differs from the client\'s model "fake-model"',
    )
  })
})
