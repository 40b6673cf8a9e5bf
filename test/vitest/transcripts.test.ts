import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunRecord } from '../../src/core/run-record.js'
import { type Transcript, TranscriptSchema } from '../../src/core/transcript.js'
import { filesUnder, jsonLines } from '../helpers/report-files.js'
import { runCli } from '../helpers/cli-harness.js'
import { FakeProvider } from '../helpers/fake-llm-upstream.js'
import { SQL_AND_DESCRIBE } from '../helpers/tool-model.js'
import { runFixture, TempDirs } from '../helpers/vitest-run.js'

// Transcripts through the runner doors: a real Vitest run of an evalCase whose agent object calls tools through
// the gateway (the transcript crosses from the worker on the test's meta), then the same lines as Jest's
// workers write them, split into two shards and merged by merge-shards.

const KEY = 'sk-vitest-transcripts-SECRET-777'
const temp = new TempDirs()
let fake: FakeProvider

beforeAll(async () => {
  fake = await new FakeProvider(SQL_AND_DESCRIBE).start()
})
afterAll(async () => {
  await fake.stop()
  temp.removeAll()
})

describe('transcripts in the reporters', () => {
  it('Vitest writes transcripts.jsonl for the trials with model calls', async () => {
    const outputDir = temp.make()
    const run = await runFixture({
      fixture: 'transcripts',
      outputDir,
      cacheDir: temp.make(),
      env: { TR_BASE_URL: fake.baseUrl, TR_KEY: KEY },
    })
    expect(run.exitCode ?? 0, run.output).toBe(0)
    const records = jsonLines<RunRecord>(join(outputDir, 'runs.jsonl'))
    const transcripts = jsonLines<Transcript>(join(outputDir, 'transcripts.jsonl'))
    const tools = records.filter((r) => r.agent === 'tool-object')
    expect(tools).toHaveLength(2)
    expect(records.find((r) => r.agent === 'baseline')).toMatchObject({ transcriptId: null, toolCalls: [] })
    expect(transcripts.map((t) => t.id).sort()).toEqual(tools.map((r) => r.transcriptId).sort())
    for (const t of transcripts) {
      expect(TranscriptSchema.parse(t)).toEqual(t)
      expect(t.calls.map((c) => [c.protocol, c.stream, c.cache])).toEqual([
        ['openai-chat', true, 'live'],
        ['openai-chat', true, 'live'],
      ])
    }
    for (const r of tools) {
      expect(r.toolCalls).toEqual([
        { name: 'sql', arguments: '{"query":"SELECT count(*) FROM t"}', resultChars: 10, source: 'model', call: 0 },
        { name: 'describe', arguments: '{"table":"t"}', resultChars: 10, source: 'model', call: 0 },
      ])
    }
    expect((await runCli(['verify', outputDir], outputDir)).code).toBe(0)
    for (const file of filesUnder(outputDir)) expect(readFileSync(file, 'utf8'), file).not.toContain(KEY)
  }, 120_000)

  it('a Vitest run without model calls writes no transcripts file', async () => {
    const outputDir = temp.make()
    const run = await runFixture({
      fixture: 'transcripts',
      outputDir,
      cacheDir: temp.make(),
      testNamePattern: '^plain',
      env: { TR_BASE_URL: fake.baseUrl, TR_KEY: KEY },
    })
    expect(run.exitCode ?? 0, run.output).toBe(0)
    expect(existsSync(join(outputDir, 'transcripts.jsonl'))).toBe(false)
  }, 60_000)
})
