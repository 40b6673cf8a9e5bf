import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli, withTempDir } from '../helpers/cli-harness.js'
import { makeRecord } from '../helpers/stats-records.js'

// Issue 36 item 17: a 100,000-deep array in a file we read was an internal error (a stack overflow in what walks
// the parsed value), not exit 2 naming the file and the line.

const DEEP = `${'['.repeat(100_000)}${']'.repeat(100_000)}`
const line = (record: unknown) => `${JSON.stringify(record)}\n`
const good = line(makeRecord({ caseId: 'c1', tp: 3, fp: 1, fn: 0, precision: 0.75, recall: 1, f1: 6 / 7 }))
/** A record line whose `metrics` holds the deep array. */
const deepRecord = good.replace('"metrics":{}', `"metrics":{"x":${DEEP}}`)
const TOO_DEEP = /arrays or objects nested more than 256 levels deep/

function expectDeepRefused(r: { code: number; stderr: string }, where: string): void {
  expect(r.stderr).not.toMatch(/internal error/)
  expect(r.code, r.stderr).toBe(2)
  expect(r.stderr).toContain(where)
  expect(r.stderr).toMatch(TOO_DEEP)
  expect(r.stderr.trim().split('\n')).toHaveLength(1)
}

describe('deeply nested JSON is exit 2 naming the file and the line', () => {
  it('runs.jsonl, report.json and a baseline read by report and compare', async () => {
    await withTempDir(async (dir) => {
      expect(deepRecord).not.toBe(good)
      await writeFile(join(dir, 'good.jsonl'), good)
      await writeFile(join(dir, 'deep.jsonl'), good + deepRecord)
      expectDeepRefused(await runCli(['report', 'deep.jsonl', '--html', 'out/r.html'], dir), 'deep.jsonl: line 2')
      expectDeepRefused(await runCli(['compare', 'good.jsonl', 'deep.jsonl'], dir), 'deep.jsonl: line 2')
      await writeFile(
        join(dir, 'report.json'),
        `{\n  "records": [\n    ${good.trim()},\n    ${deepRecord.trim()}\n  ]\n}\n`,
      )
      expectDeepRefused(await runCli(['report', 'report.json', '--html', 'out/r.html'], dir), 'report.json: line 4')
      await writeFile(join(dir, 'baseline.json'), `{\n  "groups": ${DEEP}\n}\n`)
      expectDeepRefused(
        await runCli(['report', 'good.jsonl', '--html', 'out/r.html', '--baseline', 'baseline.json'], dir),
        'baseline.json: line 2',
      )
    })
  })

  it('a report folder’s manifest.json and runs.jsonl fail verify with the line, never an internal error', async () => {
    await withTempDir(async (dir) => {
      await mkdir(join(dir, 'r'))
      await writeFile(join(dir, 'r/manifest.json'), `{\n"files": ${DEEP}}\n`)
      const manifest = await runCli(['verify', 'r'], dir)
      expect(manifest.stderr).not.toMatch(/internal error/)
      expect(manifest.code).toBe(1)
      expect(manifest.stderr).toMatch(/manifest\.json: line 2: arrays or objects nested more than 256 levels deep/)
    })
  })

  it('a recorded run (run.partial.json) that --resume reads', async () => {
    await withTempDir(async (dir) => {
      await mkdir(join(dir, 'reports/run'), { recursive: true })
      await writeFile(join(dir, 'reports/run/run.partial.json'), `{\n  "journalVersion": 2,\n  "options": ${DEEP}\n}\n`)
      expectDeepRefused(await runCli(['run', '--resume', 'reports/run'], dir), 'run.partial.json: line 3')
    })
  })
})
