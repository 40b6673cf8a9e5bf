import { readFileSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Transcript, TranscriptSchema } from '../../src/core/transcript.js'
import type { RunRecord } from '../../src/core/run-record.js'
import { FakeProvider } from '../helpers/fake-llm-upstream.js'
import { SQL_ON_PLAN } from '../helpers/tool-model.js'
import { type JestRun, runJest, toJest, writeJestTsconfig } from '../helpers/jest-project.js'
import { repoRoot } from '../helpers/vitest-run.js'
import { installPacked } from '../helpers/packed-project.js'

// The trajectory fixture of test/vitest/trajectory.test.ts under real Jest 30 (ts-jest, CommonJS), the package
// installed from its packed tarball
// with the OpenTelemetry packages beside it: ctx.trajectory() of an evalCase whose agent calls a loopback provider
// through the gateway and gets a tool call back, passing and failing verdicts in the report, and the run's traces
// written by the Jest reporter under DATAFORGE_OTEL.

const EVAL = toJest(readFileSync(join(repoRoot, 'test/fixtures/vitest/trajectory/evals/trajectory.eval.ts'), 'utf8'))

let work: string
let fake: FakeProvider
let run: JestRun
let records: RunRecord[]
let traces: string

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'dataforge-jest-trajectory-'))
  // The `plan` call of each trial answers with a tool call, the `answer` call with text.
  fake = await new FakeProvider(SQL_ON_PLAN).start()
  const otel = [
    '@opentelemetry/api',
    '@opentelemetry/sdk-trace-base',
    '@opentelemetry/resources',
    '@opentelemetry/otlp-transformer',
    '@opentelemetry/exporter-trace-otlp-http',
    '@opentelemetry/semantic-conventions',
  ]
  await installPacked(work, work, {
    beside: ['jest', 'ts-jest', 'typescript', ...otel],
    manifest: { name: 'jest-trajectory' },
  })
  await mkdir(join(work, 'evals'))
  await writeFile(join(work, 'evals', 'trajectory.eval.ts'), EVAL)
  await writeJestTsconfig(work)
  await writeFile(
    join(work, 'jest.config.js'),
    `module.exports = {
  testMatch: ['**/evals/**/*.eval.ts'],
  transform: { '^.+\\\\.ts$': ['ts-jest', {}] },
  setupFilesAfterEnv: ['dataforge-evals/jest/setup'],
  reporters: ['default', ['dataforge-evals/jest-reporter', { outputDir: 'reports' }]],
}\n`,
  )
  run = await runJest(work, work, [], {
    TRAJ_UPSTREAM: fake.baseUrl,
    TRAJ_KEY: 'sk-jest-trajectory-SECRET',
    DATAFORGE_OTEL: 'traces.otlp.jsonl',
  })
  records = JSON.parse(await readFile(join(work, 'reports', 'report.json'), 'utf8')).records as RunRecord[]
  traces = await readFile(join(work, 'traces.otlp.jsonl'), 'utf8')
}, 600_000)
afterAll(async () => {
  await fake?.stop()
  await rm(work, { recursive: true, force: true })
})

describe('trajectory matchers under Jest, from the packed tarball', () => {
  it('grade ctx.trajectory(): the model calls and the tool call the gateway read, a failing bound failing its test', () => {
    expect(run.output).toContain('✓ trajectory holds')
    expect(run.output).toContain('✕ trajectory too long')
    expect(run.output).toContain('toUseAtMostSteps: 2 step(s), over the bound of 1')
    const held = records.find((r) => r.caseId === 'trajectory holds')!
    expect(held).toMatchObject({ correct: true, usageSource: 'gateway' })
    expect(held.llmCalls.map((c) => c.model)).toEqual(['m-vitest', 'm-vitest'])
    expect(held.metrics).toMatchObject({ toCallTools: 1, toUseAtMostSteps: 1, toUseAtMostCalls: 1 })
    expect(held.toolCalls).toEqual([
      { name: 'sql', arguments: '{"query":"SELECT 1"}', resultChars: null, source: 'model', call: 0 },
    ])
    const long = records.find((r) => r.caseId === 'trajectory too long')!
    expect(long).toMatchObject({ correct: false, validationError: expect.stringContaining('toUseAtMostSteps') })
    expect(long.metrics).toMatchObject({ toUseAtMostSteps: 0 })
  })

  it('the Jest reporter writes the transcript of each trial, found by its record, with no key', async () => {
    const text = await readFile(join(work, 'reports', 'transcripts.jsonl'), 'utf8')
    const transcripts = text
      .trimEnd()
      .split('\n')
      .map((l) => TranscriptSchema.parse(JSON.parse(l)))
    const ids = records.map((r) => r.transcriptId)
    expect(ids.every((id) => typeof id === 'string')).toBe(true)
    expect([...new Set(ids)].sort()).toEqual(transcripts.map((t) => t.id).sort())
    for (const t of transcripts) {
      expect(t.calls.map((c) => c.response?.toolCalls.map((call) => call.name) ?? [])[0]).toEqual(['sql'])
      expect(t.calls).toHaveLength(2)
    }
    // Each call as written says what its record's llmCalls entry says, in its order, all but its start time: the
    // bytes the Vitest reporter and the CLI write (the side files' parse keeps them).
    for (const line of text.trimEnd().split('\n')) {
      const written = JSON.parse(line) as Transcript
      const record = records.find((r) => r.transcriptId === written.id)!
      expect(written.calls.map((call) => JSON.stringify(call))).toEqual(
        written.calls.map(({ index, request, response }) => {
          const { startedAtMs: _, ...fields } = record.llmCalls[index]!
          return JSON.stringify({ index, ...fields, request, response })
        }),
      )
    }
    expect(text).not.toContain('sk-jest-trajectory-SECRET')
  })

  it('the Jest reporter writes a trace per trial under DATAFORGE_OTEL, with no key', () => {
    const lines = traces
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: Array<{ name: string }> }> }> })
    expect(lines).toHaveLength(2)
    for (const line of lines) {
      expect(line.resourceSpans[0]!.scopeSpans[0]!.spans.map((s) => s.name).sort()).toEqual([
        'chat m-vitest',
        'chat m-vitest',
        'execute_tool sql',
        'invoke_agent tool-agent',
      ])
    }
    expect(traces).not.toContain('sk-jest-trajectory-SECRET')
  })
})
