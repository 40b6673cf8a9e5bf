import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunRecord } from '../../../src/core/run-record.js'
import type { Transcript } from '../../../src/core/transcript.js'
import { jsonLines } from '../../helpers/report-files.js'
import { runCli, withTempDir, modelQaArgs } from '../../helpers/cli-harness.js'
import { FakeProvider } from '../../helpers/fake-llm-upstream.js'
import { COUNT_THEN_ANSWER } from '../../helpers/tool-model.js'

// The data agent (DuckDB) under `qa` through the gateway: its SQL runs are agent tool steps with a preview of their
// rows, and the record's toolCalls list them in the order the model asked for them.

const KEY = 'sk-data-agent-transcripts-SECRET-42'
let server: FakeProvider

beforeAll(async () => {
  server = await new FakeProvider(COUNT_THEN_ANSWER).start()
})
afterAll(async () => server.stop())

describe('the data agent in transcripts', () => {
  it('keeps each SQL it ran with a preview of the result, and lists it as an agent tool call', async () => {
    await withTempDir(async (dir) => {
      const args = modelQaArgs('data-agent', server.baseUrl, 'large', '--limit', '1', '--quiet')
      const res = await runCli(args, dir, { QA_KEY: KEY })
      expect(res.code, res.stderr).toBe(0)
      const [record] = jsonLines<RunRecord>(join(dir, 'reports/qa/qa.runs.jsonl'))
      const [transcript] = jsonLines<Transcript>(join(dir, 'reports/qa/qa.transcripts.jsonl'))
      expect(record!.transcriptId).toBe(transcript!.id)
      expect(transcript!.calls).toHaveLength(2)
      const [sql, answer] = transcript!.agentTools
      expect(sql).toMatchObject({ index: 0, name: 'sql', input: 'SELECT count(*) AS n FROM events', error: null })
      expect(JSON.parse(sql!.resultPreview)).toMatchObject({ columns: ['n'], rows: [[expect.any(Number)]] })
      expect(sql!.resultChars).toBe(sql!.resultPreview.length)
      expect(answer).toMatchObject({ index: 1, name: 'answer' })
      // The model asked for both; the agent ran both: each listed once, as the agent's.
      expect(record!.toolCalls).toEqual([
        {
          name: 'sql',
          arguments: 'SELECT count(*) AS n FROM events',
          resultChars: sql!.resultChars,
          source: 'agent',
          call: null,
        },
        { name: 'answer', arguments: answer!.input, resultChars: answer!.resultChars, source: 'agent', call: null },
      ])
      // The tool result went back to the model in the second request, as the transcript shows.
      expect(transcript!.calls[1]!.request.messages.find((m) => m.role === 'tool')).toMatchObject({
        content: sql!.resultPreview,
        toolCallId: 'call_1',
      })
      expect(readFileSync(join(dir, 'reports/qa/qa.transcripts.jsonl'), 'utf8')).not.toContain(KEY)
      expect((await runCli(['verify', join(dir, 'reports/qa')], dir)).code).toBe(0)
    })
  }, 60_000)
})
