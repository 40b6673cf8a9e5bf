import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { compareCommand } from '../src/cli/commands/compare.js'
import type { RunRecord } from '../src/core/run-record.js'
import { readRunRecords } from '../src/report/read-runs.js'
import { makeRecord } from './stats-records.fixture.js'
import { captureIO } from './cli/harness.js'

const capture = captureIO

const jsonl = (rows: RunRecord[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n'
const cases = (n: number, pass: (i: number) => boolean, extra: Partial<RunRecord> = {}) =>
  Array.from({ length: n }, (_, i) => makeRecord({ caseId: `c${i}`, correct: pass(i), ...extra }))

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dfe-compare-'))
  // baseline: 20 of 20; current: loses 12 (b = 12, c = 0): p = 2·P(X ≤ 0 | 12) = 2/4096
  await writeFile(join(dir, 'base.jsonl'), jsonl(cases(20, () => true)))
  await writeFile(join(dir, 'worse.jsonl'), jsonl(cases(20, (i) => i >= 12)))
  await writeFile(join(dir, 'flaky.jsonl'), jsonl(cases(20, (i) => i >= 1)))
  // a report.json holding two agents
  const report = { schemaVersion: 1, records: [...cases(10, () => true, { agent: 'x' }), ...cases(10, (i) => i < 3, { agent: 'y' })] }
  await writeFile(join(dir, 'report.json'), JSON.stringify(report, null, 2))
  const otherData = { dirty: 'd'.repeat(64), clean: 'e'.repeat(64) }
  await writeFile(join(dir, 'otherdata.jsonl'), jsonl(cases(20, () => true, { datasetSha256: otherData })))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('readRunRecords', () => {
  it('reads runs.jsonl, report.json and folders', async () => {
    expect(await readRunRecords(join(dir, 'base.jsonl'))).toHaveLength(20)
    expect(await readRunRecords(join(dir, 'report.json'))).toHaveLength(20)
    const folder = await mkdtemp(join(dir, 'folder-'))
    await writeFile(join(folder, 'runs.jsonl'), jsonl(cases(2, () => true)))
    expect(await readRunRecords(folder)).toHaveLength(2)
  })

  it('names the file, line and field of a bad row', async () => {
    const rows = cases(3, () => true).map((r) => JSON.stringify(r))
    rows[1] = rows[1]!.replace('"caseId":"c1"', '"caseId":7')
    await writeFile(join(dir, 'bad.jsonl'), `${rows.join('\n')}\n`)
    await expect(readRunRecords(join(dir, 'bad.jsonl'))).rejects.toThrow(
      `${join(dir, 'bad.jsonl')}: line 2: field "caseId": Invalid input: expected string, received number`,
    )
    await writeFile(join(dir, 'broken.jsonl'), `${rows[0]}\n{not json\n`)
    await expect(readRunRecords(join(dir, 'broken.jsonl'))).rejects.toThrow(/broken\.jsonl: line 2: not valid JSON/)
    await writeFile(join(dir, 'bad-report.json'), JSON.stringify({ records: [{ caseId: 'x' }] }))
    await expect(readRunRecords(join(dir, 'bad-report.json'))).rejects.toThrow(/bad-report\.json: records\[0\]: field "recordVersion"/)
    await writeFile(join(dir, 'norecords.json'), '{"a": 1}')
    await expect(readRunRecords(join(dir, 'norecords.json'))).rejects.toThrow(/no "records" array/)
    await expect(readRunRecords(join(dir, 'missing.jsonl'))).rejects.toThrow(/missing\.jsonl: cannot read \(ENOENT\)/)
  })
})

describe('compare command', () => {
  it('exits 1 when B is significantly worse, writing Markdown and JSON', async () => {
    const io = capture(dir)
    const code = await compareCommand(['base.jsonl', 'worse.jsonl', '--output', 'out/cmp.md', '--output-json', 'out/cmp.json'], io)
    expect(code).toBe(1)
    expect(io.out).toMatch(/^REGRESSION: 20 pairs, b=12 c=0 p=0\.0005 Δ=-0\.600; wrote /)
    const md = await readFile(join(dir, 'out/cmp.md'), 'utf8')
    expect(md).toContain('**B is worse than A**')
    const json = JSON.parse(await readFile(join(dir, 'out/cmp.json'), 'utf8'))
    // p = 2/4096 = 0.00048828125
    expect(json.overall).toMatchObject({ b: 12, c: 0, p: 0.00048828125, significantWorse: true })
  })

  it('exits 0 on a flake and prints Markdown to stdout', async () => {
    const io = capture(dir)
    expect(await compareCommand(['base.jsonl', 'flaky.jsonl'], io)).toBe(0)
    expect(io.out).toContain('## Paired comparison')
    expect(io.out).toContain('**No significant regression**')
    expect(io.out).toContain('ok: 20 pairs, b=1 c=0 p=1.0000 Δ=-0.050')
  })

  it('--alpha and --floor move the verdict', async () => {
    // b=1 c=0 p=1 never significant; Score B = 19/20 = 0.95 is below a floor of 0.99
    expect(await compareCommand(['base.jsonl', 'flaky.jsonl', '--floor', '0.99'], capture(dir))).toBe(1)
  })

  it('compares two agents in one report with --agents', async () => {
    const io = capture(dir)
    // x right on all 10, y on 3: b = 7, c = 0: p = 2/128 = 0.015625
    expect(await compareCommand(['report.json', '--agents', 'x,y', '--output-json', 'agents.json'], io)).toBe(1)
    const json = JSON.parse(await readFile(join(dir, 'agents.json'), 'utf8'))
    expect(json).toMatchObject({ mode: 'cross-arm', labelA: 'report.json (x)', labelB: 'report.json (y)' })
    expect(json.overall).toMatchObject({ n: 10, b: 7, c: 0, p: 0.015625 })
  })

  it('refuses mismatched datasets with one line on stderr, exit 2, nothing written', async () => {
    const io = capture(dir)
    const code = await compareCommand(['base.jsonl', 'otherdata.jsonl', '--output', 'never.md'], io)
    expect(code).toBe(2)
    expect(io.err.trim().split('\n')).toHaveLength(1)
    expect(io.err).toContain('refusing to compare: dataset "hospital" differs')
    expect(io.err).toContain('d'.repeat(64))
    await expect(stat(join(dir, 'never.md'))).rejects.toThrow()
  })

  it('bad usage exits 2 with one line', async () => {
    for (const argv of [
      ['base.jsonl'],
      ['base.jsonl', 'worse.jsonl', '--alpha', '2'],
      ['base.jsonl', 'worse.jsonl', '--bogus'],
      ['report.json', '--agents', 'x,nobody'],
      ['nope.jsonl', 'worse.jsonl'],
    ]) {
      const io = capture(dir)
      expect(await compareCommand(argv, io)).toBe(2)
      expect(io.err).toMatch(/^dataforge-evals: .+\n$/)
    }
  })
})
