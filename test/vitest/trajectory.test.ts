import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunRecord } from '../../src/core/run-record.js'
import { FakeProvider } from '../helpers/fake-llm-upstream.js'
import { SQL_ON_PLAN } from '../helpers/tool-model.js'
import { type FixtureRun, runFixture, TempDirs } from '../helpers/vitest-run.js'

// A real Vitest run of the trajectory fixture: evalCase trials whose agent gets a tool call from a loopback model
// through the gateway, graded on ctx.trajectory(); the reporter's `otel` option writes the run's traces.

const temp = new TempDirs()
const SECRET = 'sk-vitest-trajectory-SECRET'
let fake: FakeProvider
let run: FixtureRun
let records: RunRecord[]
let traces: string

beforeAll(async () => {
  fake = await new FakeProvider(SQL_ON_PLAN).start()
  process.env['TRAJ_KEY'] = SECRET
  const out = temp.make()
  run = await runFixture({
    fixture: 'trajectory',
    outputDir: out,
    cacheDir: temp.make(),
    env: { TRAJ_UPSTREAM: fake.baseUrl, TRAJ_KEY: SECRET },
    reporterOptions: { otel: join(out, 'traces.otlp.jsonl') },
  })
  records = run.reports.runs()
  traces = readFileSync(join(out, 'traces.otlp.jsonl'), 'utf8')
}, 120_000)
afterAll(async () => {
  await fake.stop()
  delete process.env['TRAJ_KEY']
  temp.removeAll()
})

describe('trajectory matchers in a Vitest run', () => {
  it('pass and fail on ctx.trajectory(), the verdicts in the records', () => {
    expect(run.tests.byName('trajectory holds [trial 1/1 · seed 1]').state).toBe('passed')
    const long = run.tests.byName('trajectory too long [trial 1/1 · seed 1]')
    expect(long.state).toBe('failed')
    expect(long.errors[0]).toBe('toUseAtMostSteps: 2 step(s), over the bound of 1')
    const held = records.find((r) => r.caseId === 'trajectory holds')!
    expect(held).toMatchObject({ correct: true, metrics: { toCallTools: 1, toUseAtMostSteps: 1, toUseAtMostCalls: 1 } })
    expect(held.toolCalls).toEqual([
      { name: 'sql', arguments: '{"query":"SELECT 1"}', resultChars: null, source: 'model', call: 0 },
    ])
    expect(records.find((r) => r.caseId === 'trajectory too long')).toMatchObject({
      correct: false,
      metrics: { toUseAtMostSteps: 0 },
    })
  })

  it("the reporter's otel option writes a trace per trial, timed from each trial's start", () => {
    const lines = traces
      .trimEnd()
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as {
            resourceSpans: Array<{ scopeSpans: Array<{ spans: Array<{ name: string; startTimeUnixNano: string }> }> }>
          },
      )
    expect(lines).toHaveLength(2)
    const spans = lines[0]!.resourceSpans[0]!.scopeSpans[0]!.spans
    expect(spans.map((s) => s.name).sort()).toEqual([
      'chat m-vitest',
      'chat m-vitest',
      'execute_tool sql',
      'invoke_agent tool-agent',
    ])
    const root = spans.find((s) => s.name.startsWith('invoke_agent'))!
    const record = records.find((r) => r.trial === 0 && r.caseId === 'trajectory holds')!
    expect(record.startedAt).not.toBeNull()
    expect(BigInt(root.startTimeUnixNano) / 1_000_000n).toBeLessThanOrEqual(BigInt(Date.parse(record.startedAt!)))
    expect(traces).not.toContain(SECRET)
  })
})
