import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { verifyDir } from '../../src/report-builder/manifest.js'
import { runCli, withTempDir } from '../helpers/cli-harness.js'
import { failedRecord, makeRecord } from '../helpers/stats-records.js'

// Issue 26 item 8: `export --parquet` to a path that already holds an export with another row count replaced
// the file, then failed on the old manifest entry (internal error, exit 1), leaving a folder failing verify.

const rows = (n: number) =>
  Array.from({ length: n }, (_, i) => (i % 2 ? failedRecord({ caseId: `q${i}` }) : makeRecord({ caseId: `c${i}` })))
const jsonl = (n: number) =>
  rows(n)
    .map((r) => `${JSON.stringify(r)}\n`)
    .join('')

describe('export --parquet over an existing export', () => {
  it('replaces the file and its manifest entry together; the folder verifies', async () => {
    await withTempDir(async (dir) => {
      await writeFile(join(dir, 'two.jsonl'), jsonl(2))
      await writeFile(join(dir, 'five.jsonl'), jsonl(5))
      expect((await runCli(['export', 'two.jsonl', '--parquet', 'out/runs.parquet'], dir)).code).toBe(0)
      const second = await runCli(['export', 'five.jsonl', '--parquet', 'out/runs.parquet'], dir)
      expect(second.stderr).toBe('')
      expect(second.code).toBe(0)
      expect(second.stdout).toMatch(/5 rows/)
      const manifest = JSON.parse(await readFile(join(dir, 'out', 'manifest.json'), 'utf8'))
      expect(manifest.rowCounts).toEqual({ 'runs.parquet': 5 })
      expect(await verifyDir(join(dir, 'out'))).toMatchObject({ ok: true, problems: [] })
      // No temp file or lock is left behind.
      expect((await readdir(join(dir, 'out'))).sort()).toEqual(['manifest.json', 'runs.parquet'])
    })
  })

  it('a second export beside a report folder keeps the report entries and replaces only its own', async () => {
    await withTempDir(async (dir) => {
      await writeFile(join(dir, 'two.jsonl'), jsonl(2))
      await writeFile(join(dir, 'three.jsonl'), jsonl(3))
      expect((await runCli(['export', 'two.jsonl', '--parquet', 'out/a.parquet'], dir)).code).toBe(0)
      expect((await runCli(['export', 'two.jsonl', '--parquet', 'out/b.parquet'], dir)).code).toBe(0)
      expect((await runCli(['export', 'three.jsonl', '--parquet', 'out/a.parquet'], dir)).code).toBe(0)
      const manifest = JSON.parse(await readFile(join(dir, 'out', 'manifest.json'), 'utf8'))
      expect(manifest.rowCounts).toEqual({ 'a.parquet': 3, 'b.parquet': 2 })
      expect((await verifyDir(join(dir, 'out'))).ok).toBe(true)
    })
  })

  it('when the manifest cannot be updated, nothing is replaced and the error is an input error', async () => {
    await withTempDir(async (dir) => {
      await writeFile(join(dir, 'two.jsonl'), jsonl(2))
      await writeFile(join(dir, 'five.jsonl'), jsonl(5))
      expect((await runCli(['export', 'two.jsonl', '--parquet', 'out/runs.parquet'], dir)).code).toBe(0)
      const before = await readFile(join(dir, 'out', 'runs.parquet'))
      await writeFile(join(dir, 'out', 'manifest.json'), '{ not json')
      const r = await runCli(['export', 'five.jsonl', '--parquet', 'out/runs.parquet'], dir)
      expect(r.code).toBe(2)
      expect(r.stderr).toMatch(/^dataforge-evals: .*manifest\.json: cannot add to it: .*not valid JSON.*\n$/)
      expect(Buffer.compare(await readFile(join(dir, 'out', 'runs.parquet')), before)).toBe(0)
      expect((await readdir(join(dir, 'out'))).sort()).toEqual(['manifest.json', 'runs.parquet'])
    })
  })
})
