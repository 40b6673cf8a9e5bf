import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunRecord } from '../../src/core/run-record.js'
import { baselineFromRecords, renderBaseline } from '../../src/report-builder/baseline.js'
import { runCli } from '../helpers/cli-harness.js'
import { makeRecord } from '../helpers/stats-records.js'

const jsonl = (rows: RunRecord[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n'
const cases = (n: number, pass: (i: number) => boolean) =>
  Array.from({ length: n }, (_, i) => makeRecord({ caseId: `c${i}`, correct: pass(i) }))

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dfe-first-contact-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('report --baseline', () => {
  it("reads the reporter's baseline.json, the file compare reads", async () => {
    await writeFile(join(dir, 'baseline.json'), renderBaseline(baselineFromRecords(cases(20, () => true))))
    await writeFile(join(dir, 'runs.jsonl'), jsonl(cases(20, (i) => i >= 12)))
    const compare = await runCli(['compare', 'baseline.json', 'runs.jsonl'], dir)
    expect(compare.code).toBe(1)
    const res = await runCli(['report', 'runs.jsonl', '--baseline', 'baseline.json', '--html', 'r.html'], dir)
    expect(res.stderr).toBe('')
    expect(res.code).toBe(0)
    const html = await readFile(join(dir, 'r.html'), 'utf8')
    expect(html).toContain('Against the baseline')
    expect(html).not.toContain('no records array')
  })
})
