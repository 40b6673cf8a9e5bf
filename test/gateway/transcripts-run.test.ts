import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunRecord } from '../../src/core/run-record.js'
import { type Transcript, TranscriptSchema } from '../../src/core/transcript.js'
import { finished, spawnCli } from '../helpers/cli-child.js'
import { filesUnder, jsonLines } from '../helpers/report-files.js'
import { runCli } from '../helpers/cli-harness.js'
import { FakeProvider } from '../helpers/fake-llm-upstream.js'
import { SQL_AND_DESCRIBE } from '../helpers/tool-model.js'
import { TempDirs } from '../helpers/vitest-run.js'

// Transcripts through the CLI: a streamed in-process agent and a cmd: agent, both calling tools, against a loopback
// provider; recorded, replayed with the provider down, verified, edited, and kept across --resume.

const SECRET = 'sk-transcripts-run-SECRET-5566778899'
const fixtures = resolve(import.meta.dirname, 'fixtures')
const temps = new TempDirs()
const temp = () => temps.make()
let fake: FakeProvider

beforeAll(async () => {
  fake = await new FakeProvider(SQL_AND_DESCRIBE).start()
})
afterAll(async () => {
  await fake.stop()
  temps.removeAll()
})

const AGENTS = ['--no-isolate', '--agent', './tool-agent.mjs', '--agent', 'cmd:node tool_cmd_agent.mjs']
const base = (out: string, cache: string, mode: string) => [
  'run',
  '--dataset',
  'synthetic',
  '--rows',
  '6',
  '--trials',
  '2',
  '--quiet',
  '--output',
  join(out, 'r.md'),
  '--llm',
  fake.baseUrl,
  '--llm-key-env',
  'TR_RUN_KEY',
  '--cache-dir',
  cache,
  '--cache',
  mode,
]

/** The lines of a JSON-lines file, as written. */
const textLines = (path: string) => readFileSync(path, 'utf8').split('\n').filter(Boolean)

/** A transcript apart from timing and where its answers came from. */
const content = (t: Transcript) => ({
  ...t,
  id: '',
  calls: t.calls.map(({ latencyMs: _l, cache: _c, ...rest }) => rest),
})

describe('transcripts in a CLI run', () => {
  it('records both agents with their tool calls, replays them with the provider down, and verify covers the file', async () => {
    const cache = temp()
    const live = temp()
    const recorded = await runCli([...base(live, cache, 'record'), ...AGENTS], fixtures, { TR_RUN_KEY: SECRET })
    expect(recorded.code, recorded.stderr).toBe(0)
    const records = jsonLines<RunRecord>(join(live, 'r.runs.jsonl'))
    const transcripts = jsonLines<Transcript>(join(live, 'r.transcripts.jsonl'))
    expect(records.map((r) => [r.agent, r.status])).toEqual([
      ['tool-agent', 'ok'],
      ['tool-agent', 'ok'],
      ['tool-cmd', 'ok'],
      ['tool-cmd', 'ok'],
    ])
    // One line per run, each found by the record's id.
    expect(transcripts.map((t) => t.id)).toEqual(records.map((r) => r.transcriptId))
    // Each line is what the schema gives back, byte for byte: the doors that parse transcripts write the same.
    for (const line of textLines(join(live, 'r.transcripts.jsonl')))
      expect(JSON.stringify(TranscriptSchema.parse(JSON.parse(line)))).toBe(line)
    const [streamed, , plain] = records
    expect(streamed!.toolCalls).toEqual([
      { name: 'sql', arguments: '{"query":"SELECT count(*) FROM t"}', resultChars: 12, source: 'model', call: 0 },
      { name: 'describe', arguments: '{"table":"t"}', resultChars: 17, source: 'model', call: 0 },
    ])
    expect(plain!.toolCalls.map((c) => [c.name, c.resultChars, c.call])).toEqual([
      ['sql', 5, 0],
      ['describe', 5, 0],
    ])
    const first = transcripts[0]!.calls[0]!
    expect(first).toMatchObject({ protocol: 'openai-chat', model: 'm-tools', stream: true, cache: 'live' })
    expect(first.request.system).toBe('Repair the table.')
    expect(first.request.tools.map((t) => t.name)).toEqual(['sql'])
    expect(transcripts[2]!.calls[0]).toMatchObject({ protocol: 'openai-chat', stream: false })
    expect((await runCli(['verify', live], fixtures)).code).toBe(0)

    // Replay: the provider is down and there is no key; the same transcripts and tool calls, marked cached.
    await fake.stop()
    const again = temp()
    const replayed = await runCli([...base(again, cache, 'replay'), ...AGENTS], fixtures, {})
    await fake.start(fake.port)
    expect(replayed.code, replayed.stderr).toBe(0)
    const replayedRecords = jsonLines<RunRecord>(join(again, 'r.runs.jsonl'))
    const replayedTranscripts = jsonLines<Transcript>(join(again, 'r.transcripts.jsonl'))
    expect(replayedRecords.map((r) => r.toolCalls)).toEqual(records.map((r) => r.toolCalls))
    expect(replayedTranscripts.map(content)).toEqual(transcripts.map(content))
    expect(replayedTranscripts.flatMap((t) => t.calls.map((c) => c.cache))).toEqual(
      transcripts.flatMap((t) => t.calls.map(() => 'hit')),
    )

    // No key anywhere: the report folders and the cassettes.
    for (const file of [...filesUnder(live), ...filesUnder(again), ...filesUnder(cache)])
      expect(readFileSync(file, 'utf8'), file).not.toContain(SECRET)

    // An edited transcripts file fails verify, naming it.
    const path = join(again, 'r.transcripts.jsonl')
    writeFileSync(path, readFileSync(path, 'utf8').replace('Repair the table.', 'Repair the table!'))
    const verify = await runCli(['verify', again], fixtures)
    expect(verify.code).not.toBe(0)
    expect(verify.stdout + verify.stderr).toMatch(/r\.transcripts\.jsonl: sha256 [0-9a-f]{64}, manifest says/)
  }, 120_000)

  it('a run without model calls writes no transcripts file and its records name none', async () => {
    const out = temp()
    const plain = await runCli(
      ['run', '--dataset', 'synthetic', '--rows', '6', '--agent', 'baseline', '--quiet', '--output', join(out, 'r.md')],
      fixtures,
    )
    expect(plain.code, plain.stderr).toBe(0)
    expect(existsSync(join(out, 'r.transcripts.jsonl'))).toBe(false)
    expect(jsonLines<RunRecord>(join(out, 'r.runs.jsonl')).map((r) => [r.transcriptId, r.toolCalls])).toEqual([
      [null, []],
    ])
  })

  it('--resume keeps the transcripts of the trials finished before the run was killed', async () => {
    const dir = temp()
    const cache = temp()
    const argv = [...base(join(dir, 'cut'), cache, 'auto'), '--no-isolate', '--agent', './tool-agent.mjs']
    const child = spawnCli(argv, fixtures, { TR_RUN_KEY: SECRET, HANG_FROM: '1' })
    const done = finished(child)
    const journal = join(dir, 'cut', 'r.runs.partial.jsonl')
    for (let i = 0; i < 3000 && !(existsSync(journal) && readFileSync(journal, 'utf8').includes('\n')); i++)
      await new Promise((r) => setTimeout(r, 20))
    child.kill('SIGKILL')
    await done
    const journaled = textLines(join(dir, 'cut', 'r.transcripts.partial.jsonl'))
    expect(journaled).toHaveLength(1)
    const resumed = await runCli(['run', '--resume', join(dir, 'cut', 'r'), '--quiet'], fixtures, {
      TR_RUN_KEY: SECRET,
    })
    expect(resumed.code, resumed.stderr).toBe(0)
    const records = jsonLines<RunRecord>(join(dir, 'cut', 'r.runs.jsonl'))
    const transcripts = jsonLines<Transcript>(join(dir, 'cut', 'r.transcripts.jsonl'))
    expect(records).toHaveLength(2)
    expect(transcripts.map((t) => t.id)).toEqual(records.map((r) => r.transcriptId))
    // The journaled transcript is written as the run journaled it, as a run never interrupted writes it.
    expect(textLines(join(dir, 'cut', 'r.transcripts.jsonl'))).toContain(journaled[0])
    expect(existsSync(join(dir, 'cut', 'r.transcripts.partial.jsonl'))).toBe(false)
    expect((await runCli(['verify', join(dir, 'cut')], fixtures)).code).toBe(0)
  }, 120_000)
})
