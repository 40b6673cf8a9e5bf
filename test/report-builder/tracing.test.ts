import { stripVTControlCharacters } from 'node:util'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { caseAgent, type EvalCaseOptions, runTrial, trialMeta } from '../../src/cases/eval-trial.js'
import type { RepairAgent } from '../../src/core/agent.js'
import type { RunRecord } from '../../src/core/run-record.js'
import { exportTraces } from '../../src/report-builder/tracing/export.js'
import { exportRunTraces } from '../../src/report-builder/tracing/run-traces.js'
import { traceTarget } from '../../src/report-builder/tracing/target.js'
import { recordFromTest } from '../../src/test-meta/to-run-record.js'
import { runCli } from '../helpers/cli-harness.js'
import { FakeProvider } from '../helpers/fake-llm-upstream.js'

// OpenTelemetry out: RunRecords of a real evalCase trial through the gateway (two model calls to a loopback
// provider) exported as OTLP/JSON, to a file and to a real OTLP/HTTP receiver on 127.0.0.1; spans decoded.

const SECRET = 'sk-otel-SECRET-5544332211'
const EXPECTED = 'Bostonia-the-clean-value'

interface OtlpValue {
  stringValue?: string
  intValue?: number | string
  boolValue?: boolean
  doubleValue?: number
}
interface OtlpSpan {
  traceId: string
  spanId: string
  parentSpanId?: string
  name: string
  kind: number
  startTimeUnixNano: string
  endTimeUnixNano: string
  attributes: Array<{ key: string; value: OtlpValue }>
  events?: Array<{ name: string; attributes: Array<{ key: string; value: OtlpValue }> }>
  status?: { code?: number; message?: string }
}
interface OtlpRequest {
  resourceSpans: Array<{
    resource: { attributes: Array<{ key: string; value: OtlpValue }> }
    scopeSpans: Array<{ scope: { name: string }; spans: OtlpSpan[] }>
  }>
}

const otlpValue = (v: OtlpValue) =>
  v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : (v.boolValue ?? v.doubleValue))
const attrs = (list: Array<{ key: string; value: OtlpValue }>) =>
  Object.fromEntries(list.map((a) => [a.key, otlpValue(a.value)]))
const spansOf = (request: OtlpRequest) => request.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans))

let fake: FakeProvider
let work: string
let records: RunRecord[]

const twoCalls: RepairAgent = {
  name: 'two-calls',
  async run(task, ctx) {
    const client = new OpenAI({ baseURL: ctx.llm!.baseURL, apiKey: ctx.llm!.apiKey, maxRetries: 0 })
    await client.chat.completions.create({ model: 'm-otel', messages: [{ role: 'user', content: 'first' }] })
    await client.chat.completions
      .create({ model: 'm-otel', messages: [{ role: 'user', content: 'second' }], stream: true })
      .then(async (s) => {
        for await (const _ of s) void _
      })
    return [{ row: 0, column: task.columns[1]!, newValue: EXPECTED }]
  },
}

beforeAll(async () => {
  fake = await new FakeProvider().start()
  process.env['OTEL_TEST_KEY'] = SECRET
  work = await mkdtemp(join(tmpdir(), 'dataforge-otel-'))
  const options: EvalCaseOptions = {
    dataset: { id: 'synthetic', rows: 4 },
    agent: twoCalls,
    llm: { baseUrl: fake.baseUrl, keyEnv: 'OTEL_TEST_KEY' },
  }
  const live = trialMeta('otel case', options, 0)
  await runTrial(
    live,
    options,
    caseAgent(options),
    { trial: 0, timeoutMs: 10_000 },
    async (ctx) => void (await ctx.agent.run()),
  )
  const record = recordFromTest(
    { fullName: 'otel case', state: 'passed', errors: [], durationMs: 250, meta: live },
    { projectCommit: null, runDateUtc: new Date().toISOString() },
  )
  // Tool calls as the gateway and the data agent record them (core/transcript.ts): one the model asked for in its first answer, one the agent ran.
  records = [
    {
      ...record,
      toolCalls: [
        { name: 'sql', arguments: `{"query":"SELECT '${EXPECTED}'"}`, resultChars: 40, source: 'model', call: 0 },
        { name: 'describe', arguments: '{"table":"t"}', resultChars: 120, source: 'agent', call: null },
      ],
    },
    {
      ...record,
      trial: 1,
      seed: 2,
      status: 'failed',
      failureKind: 'timeout',
      failureMessage: `expected ${EXPECTED}`,
      correct: null,
      llmCalls: [],
      toolCalls: [],
    },
  ]
}, 30_000)
afterAll(async () => {
  await fake.stop()
  delete process.env['OTEL_TEST_KEY']
  await rm(work, { recursive: true, force: true })
})

function checkTrace(request: OtlpRequest): void {
  const resource = attrs(request.resourceSpans[0]!.resource.attributes)
  expect(resource['service.name']).toBe('dataforge-evals')
  const spans = spansOf(request)
  expect(spans.map((s) => s.name).sort()).toEqual([
    'chat m-otel',
    'chat m-otel',
    'execute_tool describe',
    'execute_tool sql',
    'invoke_agent two-calls',
  ])
  const root = spans.find((s) => s.name.startsWith('invoke_agent'))!
  expect(root.parentSpanId ?? '').toBe('')
  for (const child of spans.filter((s) => s !== root)) {
    expect(child.parentSpanId).toBe(root.spanId)
    expect(child.traceId).toBe(root.traceId)
    // Children lie within the trial's span.
    expect(BigInt(child.startTimeUnixNano)).toBeGreaterThanOrEqual(BigInt(root.startTimeUnixNano))
    expect(BigInt(child.endTimeUnixNano)).toBeLessThanOrEqual(BigInt(root.endTimeUnixNano))
  }
  expect(attrs(root.attributes)).toMatchObject({
    'gen_ai.operation.name': 'invoke_agent',
    'gen_ai.agent.name': 'two-calls',
    'dataforge.case.id': 'otel case',
    'dataforge.trial': 0,
    'dataforge.seed': 1,
    'dataforge.status': 'ok',
    'dataforge.correct': true,
    'gen_ai.usage.input_tokens': records[0]!.usage.promptTokens,
  })
  expect(root.events?.map((e) => [e.name, attrs(e.attributes)])).toEqual([
    [
      'gen_ai.evaluation.result',
      {
        'gen_ai.evaluation.name': 'dataforge.correct',
        'gen_ai.evaluation.score.value': 1,
        'gen_ai.evaluation.score.label': 'correct',
      },
    ],
  ])
  const chats = spans
    .filter((s) => s.name === 'chat m-otel')
    .sort(
      (a, b) =>
        (attrs(a.attributes)['dataforge.call.index'] as number) -
        (attrs(b.attributes)['dataforge.call.index'] as number),
    )
  expect(chats.map((s) => s.kind)).toEqual([3, 3]) // CLIENT
  expect(attrs(chats[1]!.attributes)).toMatchObject({
    'gen_ai.operation.name': 'chat',
    'gen_ai.request.model': 'm-otel',
    'gen_ai.provider.name': 'openai',
    'gen_ai.request.stream': true,
    'gen_ai.usage.input_tokens': records[0]!.llmCalls[1]!.promptTokens,
    'gen_ai.usage.output_tokens': records[0]!.llmCalls[1]!.completionTokens,
    'http.response.status_code': 200,
    'dataforge.call.cache': 'live',
  })
  // The calls were made one after the other: the second starts after the first ended, as the gateway timed them.
  expect(BigInt(chats[1]!.startTimeUnixNano)).toBeGreaterThanOrEqual(BigInt(chats[0]!.endTimeUnixNano) - 1_000_000n)
  const sql = spans.find((s) => s.name === 'execute_tool sql')!
  expect(attrs(sql.attributes)).toEqual({
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': 'sql',
    'gen_ai.tool.type': 'function',
    'dataforge.tool.index': 0,
    'dataforge.tool.source': 'model',
    'dataforge.tool.model_call': 0,
    'dataforge.tool.result_chars': 40,
  })
  // The tool ran between the model call that asked for it and the next one.
  expect(BigInt(sql.startTimeUnixNano)).toBe(BigInt(chats[0]!.endTimeUnixNano))
}

function checkFailedTrace(request: OtlpRequest): void {
  const [root] = spansOf(request)
  expect(spansOf(request)).toHaveLength(1)
  expect(root!.status).toMatchObject({ code: 2, message: 'timeout' })
  expect(attrs(root!.attributes)).toMatchObject({
    'dataforge.status': 'failed',
    'dataforge.failure.kind': 'timeout',
    'error.type': 'timeout',
    'dataforge.trial': 1,
  })
}

describe('OpenTelemetry out', () => {
  it('DATAFORGE_OTEL as a file path: one OTLP/JSON ExportTraceServiceRequest line per run, appended', async () => {
    const file = join(work, 'traces', 'run.otlp.jsonl')
    const warnings: string[] = []
    await exportRunTraces(undefined, records, { cwd: work, env: { DATAFORGE_OTEL: 'traces/run.otlp.jsonl' } }, (w) =>
      warnings.push(w),
    )
    expect(warnings).toEqual([])
    const text = await readFile(file, 'utf8')
    const lines = text.trimEnd().split('\n')
    expect(lines).toHaveLength(2)
    checkTrace(JSON.parse(lines[0]!) as OtlpRequest)
    checkFailedTrace(JSON.parse(lines[1]!) as OtlpRequest)
    // Nothing a span must not hold: the key, the gateway's token, an expected value (in a failure message or a tool's arguments).
    for (const banned of [SECRET, EXPECTED, 'Bearer', 'authorization']) expect(text).not.toContain(banned)
    await exportRunTraces(undefined, records.slice(1), { cwd: work, env: { DATAFORGE_OTEL: file } }, (w) =>
      warnings.push(w),
    )
    expect((await readFile(file, 'utf8')).trimEnd().split('\n')).toHaveLength(3)
  })

  describe('to an OTLP/HTTP receiver on 127.0.0.1', () => {
    let server: Server
    let base: string
    const received: Array<{ url: string; headers: IncomingHttpHeaders; body: string }> = []
    beforeAll(async () => {
      server = createServer((req, res) => {
        let body = ''
        req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')))
        req.on('end', () => {
          received.push({ url: req.url ?? '', headers: req.headers, body })
          res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
        })
      })
      await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    })
    afterAll(() => new Promise<void>((done) => server.close(() => done())))

    it('POSTs OTLP/HTTP JSON to URL/v1/traces, the spans decoded as the file holds them', async () => {
      const result = await exportTraces(records, traceTarget(`${base}/otlp/`, {}, work)!)
      expect(result).toEqual({ traces: 2, spans: 6, warning: null })
      expect(received).toHaveLength(1)
      expect(received[0]!.url).toBe('/otlp/v1/traces')
      expect(received[0]!.headers['content-type']).toBe('application/json')
      const request = JSON.parse(received[0]!.body) as OtlpRequest
      const spans = spansOf(request)
      const roots = spans.filter((s) => s.name.startsWith('invoke_agent'))
      expect(roots).toHaveLength(2)
      checkTrace({
        ...request,
        resourceSpans: [
          {
            ...request.resourceSpans[0]!,
            scopeSpans: [
              {
                ...request.resourceSpans[0]!.scopeSpans[0]!,
                spans: spans.filter((s) => s.traceId === roots[0]!.traceId),
              },
            ],
          },
        ],
      })
      for (const banned of [SECRET, EXPECTED]) expect(received[0]!.body).not.toContain(banned)
    })

    it('an unreachable receiver is a warning naming it, never an error', async () => {
      const closed = createServer()
      await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done))
      const port = (closed.address() as AddressInfo).port
      await new Promise<void>((done) => closed.close(() => done()))
      // A short timeout: the exporter retries a refused connection with backoff until it runs out.
      const result = await exportTraces(
        records,
        traceTarget(`http://user:pw@127.0.0.1:${port}/?token=t0k`, {}, work)!,
        { timeoutMs: 1_000 },
      )
      expect(result.warning).toMatch(
        new RegExp(
          `^traces not sent to http://127\\.0\\.0\\.1:${port}/v1/traces: .+ \\(2 of 2 traces lost; the report is written\\)$`,
        ),
      )
      expect(result.warning).not.toMatch(/pw|t0k/)
      // The run's end prints it as a warning and goes on (a target that is no URL nor path, too).
      const warnings: string[] = []
      await exportRunTraces('http://[bad', records, { cwd: work, env: {} }, (w) => warnings.push(w))
      expect(warnings).toEqual([
        expect.stringContaining(
          'traces not exported: DATAFORGE_OTEL (or --otel, otel) is neither a file path nor an http(s) URL',
        ),
      ])
    })
  })

  it('no target: nothing is exported and nothing of OpenTelemetry is needed', async () => {
    expect(traceTarget(undefined, {}, work)).toBeNull()
    expect(traceTarget('  ', { DATAFORGE_OTEL: 'x' }, work)).toBeNull()
    expect(traceTarget(undefined, { DATAFORGE_OTEL: 'https://otel.example/v1/traces' }, work)).toMatchObject({
      kind: 'http',
      url: 'https://otel.example/v1/traces',
    })
  })

  describe('the CLI: run --otel and qa under DATAFORGE_OTEL', () => {
    it('run --otel FILE writes a trace per trial beside its report', async () => {
      const file = join(work, 'cli-run.otlp.jsonl')
      const result = await runCli(
        [
          'run',
          '--agent',
          'baseline',
          '--dataset',
          'synthetic',
          '--trials',
          '2',
          '--quiet',
          '--output',
          join(work, 'run-report', 'r.md'),
          '--otel',
          file,
        ],
        work,
      )
      expect(result.code).toBe(0)
      const lines = (await readFile(file, 'utf8'))
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as OtlpRequest)
      expect(lines.map((l) => spansOf(l).map((s) => [s.name, attrs(s.attributes)['dataforge.trial']]))).toEqual([
        [['invoke_agent baseline', 0]],
        [['invoke_agent baseline', 1]],
      ])
      const root = spansOf(lines[0]!)[0]!
      // The trial's span spans its run: from startedAt for runtimeS.
      expect(Number(BigInt(root.endTimeUnixNano) - BigInt(root.startTimeUnixNano))).toBeGreaterThan(0)
    })

    it('qa with DATAFORGE_OTEL set to an unreachable receiver: a warning on stderr, the report written, exit 0', async () => {
      const closed = createServer()
      await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done))
      const port = (closed.address() as AddressInfo).port
      await new Promise<void>((done) => closed.close(() => done()))
      const out = join(work, 'qa-report')
      const result = await runCli(
        ['qa', '--agent', 'mock-qa', '--suite', 'bespoke', '--limit', '2', '--quiet', '--output', join(out, 'q.md')],
        work,
        {
          DATAFORGE_OTEL: `http://127.0.0.1:${port}`,
        },
      )
      expect(result.code).toBe(0)
      // Under CI=true the warning is colored: its words are read without the color codes.
      expect(stripVTControlCharacters(result.stderr)).toContain(
        `warning: traces not sent to http://127.0.0.1:${port}/v1/traces: `,
      )
      expect(JSON.parse(await readFile(join(out, 'q.json'), 'utf8')).records).toHaveLength(2)
    }, 30_000)
  })
})
