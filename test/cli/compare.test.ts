import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main } from '../../src/cli/main.js'
import type { RunRecord } from '../../src/core/run-record.js'
import { readRunRecords } from '../../src/files/read-runs.js'
import { failedRecord, makeRecord } from '../helpers/stats-records.js'
import { captureIO } from '../helpers/cli-harness.js'

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
  const report = {
    schemaVersion: 1,
    records: [...cases(10, () => true, { agent: 'x' }), ...cases(10, (i) => i < 3, { agent: 'y' })],
  }
  await writeFile(join(dir, 'report.json'), JSON.stringify(report, null, 2))
  const otherData = { dirty: 'd'.repeat(64), clean: 'e'.repeat(64) }
  // F1 falls from 0.617 to 0.163 on one case run 10 times, every trial identical and still passing its test:
  // a deterministic change (exact, no p) that fails on F1.
  const f1Cases = (f1: number) =>
    Array.from({ length: 10 }, (_, i) => makeRecord({ caseId: 'hospital repair', trial: i, correct: true, f1 }))
  await writeFile(join(dir, 'f1-before.jsonl'), jsonl(f1Cases(0.617)))
  await writeFile(join(dir, 'f1-after.jsonl'), jsonl(f1Cases(0.163)))
  await writeFile(
    join(dir, 'synthetic.jsonl'),
    jsonl(cases(5, () => true, { dataset: 'synthetic', suite: 'synthetic' })),
  )
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
    await expect(readRunRecords(join(dir, 'bad-report.json'))).rejects.toThrow(
      /bad-report\.json: records\[0\]: field "recordVersion"/,
    )
    await writeFile(join(dir, 'norecords.json'), '{"a": 1}')
    await expect(readRunRecords(join(dir, 'norecords.json'))).rejects.toThrow(/no "records" array/)
    await expect(readRunRecords(join(dir, 'missing.jsonl'))).rejects.toThrow(/missing\.jsonl: cannot read \(ENOENT\)/)
  })
})

describe('compare command', () => {
  it('exits 1 when B is significantly worse, writing Markdown and JSON', async () => {
    const io = capture(dir)
    const code = await main(
      ['compare', 'base.jsonl', 'worse.jsonl', '--output', 'out/cmp.md', '--output-json', 'out/cmp.json'],
      io,
    )
    expect(code).toBe(1)
    expect(io.out).toMatch(
      /^REGRESSION: overall regression \(pass\/fail\): pass\/fail McNemar exact b=12 c=0 p<0\.001 · F1 n\/a \(20 cases\); Δscore -0\.600, ΔF1 n\/a; failing: baseline · evals\/repair\.eval\.ts · repair \(regression \(pass\/fail\), 20 cases\); wrote /,
    )
    const md = await readFile(join(dir, 'out/cmp.md'), 'utf8')
    expect(md).toContain('**B is worse than A**')
    const json = JSON.parse(await readFile(join(dir, 'out/cmp.json'), 'utf8'))
    // p = 2/4096 = 0.00048828125
    expect(json.overall).toMatchObject({
      b: 12,
      c: 0,
      p: 0.00048828125,
      significantWorse: true,
      unit: 'case',
      units: 20,
      method: 'paired',
      passFailTest: 'mcnemar-exact',
    })
    expect(json.groups[0]).toMatchObject({
      unit: 'case',
      units: 20,
      passFailTest: 'mcnemar-exact',
      power: { basis: 'units', units: 20, canReachAlpha: true },
    })
  })

  it('exits 0 on a flake and prints Markdown to stdout', async () => {
    const io = capture(dir)
    expect(await main(['compare', 'base.jsonl', 'flaky.jsonl'], io)).toBe(0)
    expect(io.out).toContain('## Paired comparison')
    expect(io.out).toContain('**No significant regression**')
    expect(io.out).toContain(
      'ok: overall no significant change: pass/fail McNemar exact b=1 c=0 p=1.0000 · F1 n/a (20 cases); Δscore -0.050, ΔF1 n/a',
    )
  })

  it('fails on a deterministic F1 drop even when pass/fail says nothing, naming the exact change', async () => {
    const io = capture(dir)
    expect(await main(['compare', 'f1-before.jsonl', 'f1-after.jsonl'], io)).toBe(1)
    expect(io.out).toContain(
      'REGRESSION: overall deterministic drop (F1): deterministic change on 1 case (every trial identical on each side, 10 vs 10 trials): exact, no p-value; Δscore 0.000, ΔF1 -0.454',
    )
    expect(io.out).toContain(
      '| 1 | 0.617 | 0.163 | -0.454 [-0.454, -0.454] | exact change | **deterministic drop (F1)** |',
    )
  })

  it('with nothing paired (hospital vs synthetic) exits 2: nothing to compare', async () => {
    const io = capture(dir)
    expect(await main(['compare', 'base.jsonl', 'synthetic.jsonl'], io)).toBe(2)
    expect(io.err).toBe(
      'dataforge-evals: nothing to compare: no unit of synthetic.jsonl pairs with a unit of base.jsonl (A has baseline · hospital; B has baseline · synthetic)\n',
    )
    expect(io.out).toBe('')
  })

  it('says in units when the test cannot reach alpha (3 cases, one trial: smallest p 0.25)', async () => {
    const three = (pass: boolean) => Array.from({ length: 3 }, (_, i) => makeRecord({ caseId: `c${i}`, correct: pass }))
    await writeFile(join(dir, 'three-a.jsonl'), jsonl(three(true)))
    await writeFile(join(dir, 'three-b.jsonl'), jsonl(three(false)))
    const io = capture(dir)
    // all 3 cases lost: b = 3, c = 0 units, p = 2/8 = 0.25, the smallest 3 units can give
    expect(await main(['compare', 'three-a.jsonl', 'three-b.jsonl', '--output-json', 'three.json'], io)).toBe(0)
    expect(io.out).toContain(
      'underpowered: with 3 cases no paired test reaches α=0.05 (smallest possible p 0.2500); 6 cases are needed',
    )
    const json = JSON.parse(await readFile(join(dir, 'three.json'), 'utf8'))
    expect(json.overall).toMatchObject({
      unit: 'case',
      units: 3,
      b: 3,
      c: 0,
      p: 0.25,
      rows: { a: 3, b: 3 },
      power: { unitsNeeded: 6, canReachAlpha: false },
    })
    // Holm's family leaves out tests that can never reach α: nothing to correct for
    expect(json.family).toEqual({ method: 'holm', tests: 0 })
  })

  it('3 cases × 4 identical trials a side: exact evidence, every lost case named, exit 1', async () => {
    const three = (pass: boolean) =>
      Array.from({ length: 12 }, (_, i) => makeRecord({ caseId: `c${i % 3}`, trial: Math.floor(i / 3), correct: pass }))
    await writeFile(join(dir, 'three4-a.jsonl'), jsonl(three(true)))
    await writeFile(join(dir, 'three4-b.jsonl'), jsonl(three(false)))
    const io = capture(dir)
    expect(await main(['compare', 'three4-a.jsonl', 'three4-b.jsonl'], io)).toBe(1)
    expect(io.out).toContain(
      'REGRESSION: overall deterministic drop (pass/fail): deterministic change on 3 cases (every trial identical on each side, 12 vs 12 trials): exact, no p-value; exact on 3 units: dropped on c0, c1, c2',
    )
    expect(io.out).not.toContain('underpowered')
  })

  it('one trial a side on one case: untestable here, exit 0, and says how many trials a side would do', async () => {
    await writeFile(join(dir, 'one-a.jsonl'), jsonl([makeRecord({ caseId: 'h', correct: true, f1: 0.9 })]))
    await writeFile(join(dir, 'one-b.jsonl'), jsonl([makeRecord({ caseId: 'h', correct: false, f1: 0.4 })]))
    const io = capture(dir)
    expect(await main(['compare', 'one-a.jsonl', 'one-b.jsonl', '--output-json', 'one.json'], io)).toBe(0)
    expect(io.out).toContain(
      'ok: overall untestable here: 1 case with 1 vs 1 trials, too few for a test (add trials: 4 a side, or 2 identical a side for a deterministic agent; or add cases)',
    )
    // the summary line says the label and the remedy once each
    const summary = io.out.split('\n').find((line) => line.startsWith('ok: overall'))!
    expect(summary.match(/untestable here/g)).toHaveLength(1)
    expect(summary.match(/add trials/g)).toHaveLength(1)
    const json = JSON.parse(await readFile(join(dir, 'one.json'), 'utf8'))
    expect(json.overall).toMatchObject({
      method: 'untestable',
      status: 'untestable',
      failed: false,
      power: { trialsNeeded: 4 },
    })
  })

  it('a candidate that crashed where the baseline scored fails, naming the case', async () => {
    await writeFile(join(dir, 'crash-a.jsonl'), jsonl([makeRecord({ caseId: 'h', correct: false, f1: 0.514 })]))
    await writeFile(join(dir, 'crash-b.jsonl'), jsonl([failedRecord({ caseId: 'h' })]))
    const io = capture(dir)
    expect(await main(['compare', 'crash-a.jsonl', 'crash-b.jsonl'], io)).toBe(1)
    expect(io.out).toContain(
      'REGRESSION: overall new failures: 1 case with 1 vs 1 trials, too few for a test (add trials: 4 a side',
    )
    expect(io.out).toContain('ΔF1 -0.514')
    expect(io.out).toContain('runs failed (crash, timeout or budget) on h, where A scored on every run')
  })

  it('the overall row counts cases with agents nested: two agents on the same 3 cases are 3 units, not 6', async () => {
    const both = (pass: boolean) =>
      ['x', 'y'].flatMap((agent) =>
        Array.from({ length: 3 }, (_, i) => makeRecord({ agent, caseId: `c${i}`, correct: pass })),
      )
    await writeFile(join(dir, 'two-agents-a.jsonl'), jsonl(both(true)))
    await writeFile(join(dir, 'two-agents-b.jsonl'), jsonl(both(false)))
    const io = capture(dir)
    // every case lost by both agents: p = 0.25 on 3 cases, per agent and overall
    expect(
      await main(['compare', 'two-agents-a.jsonl', 'two-agents-b.jsonl', '--output-json', 'two-agents.json'], io),
    ).toBe(0)
    const json = JSON.parse(await readFile(join(dir, 'two-agents.json'), 'utf8'))
    expect(json.overall).toMatchObject({ unit: 'case', units: 3, b: 3, c: 0, p: 0.25, failed: false })
    expect(json.groups.map((g: { units: number; p: number }) => [g.units, g.p])).toEqual([
      [3, 0.25],
      [3, 0.25],
    ])
    expect(io.out).toContain('underpowered: with 3 cases no paired test reaches α=0.05')
  })

  it("reads the reporter's baseline.json as a side", async () => {
    const { baselineFromRecords, renderBaseline } = await import('../../src/report-builder/baseline.js')
    await writeFile(join(dir, 'baseline.json'), renderBaseline(baselineFromRecords(cases(20, () => true))))
    const io = capture(dir)
    expect(await main(['compare', 'baseline.json', 'worse.jsonl'], io)).toBe(1)
    expect(io.out).toContain('REGRESSION: overall regression (pass/fail): pass/fail McNemar exact b=12 c=0')
  })

  it('--alpha and --floor move the verdict', async () => {
    // b=1 c=0 p=1 never significant; Score B = 19/20 = 0.95 is below a floor of 0.99
    expect(await main(['compare', 'base.jsonl', 'flaky.jsonl', '--floor', '0.99'], capture(dir))).toBe(1)
  })

  it('compares two agents in one report with --agents', async () => {
    const io = capture(dir)
    // x right on all 10, y on 3: b = 7, c = 0: p = 2/128 = 0.015625
    expect(await main(['compare', 'report.json', '--agents', 'x,y', '--output-json', 'agents.json'], io)).toBe(1)
    const json = JSON.parse(await readFile(join(dir, 'agents.json'), 'utf8'))
    expect(json).toMatchObject({ mode: 'cross-arm', labelA: 'report.json (x)', labelB: 'report.json (y)' })
    expect(json.overall).toMatchObject({ n: 10, b: 7, c: 0, p: 0.015625 })
  })

  it('refuses mismatched datasets with one line on stderr, exit 2, nothing written', async () => {
    const io = capture(dir)
    const code = await main(['compare', 'base.jsonl', 'otherdata.jsonl', '--output', 'never.md'], io)
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
      expect(await main(['compare', ...argv], io)).toBe(2)
      expect(io.err).toMatch(/^dataforge-evals: .+\n$/)
    }
  })
})
