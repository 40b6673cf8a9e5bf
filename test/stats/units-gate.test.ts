import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main } from '../../src/cli/main.js'
import type { RunRecord } from '../../src/core/run-record.js'
import { captureIO } from '../helpers/cli-harness.js'
import { runFixture, TempDirs } from '../helpers/vitest-run.js'
import { makeRecord } from '../helpers/stats-records.js'

/** The hospital F1 after the regression (not an approximation of √½). */
// biome-ignore lint/suspicious/noApproximativeNumericConstant: a measured F1, not √½
const AFTER = 0.707

const jsonl = (rows: RunRecord[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n'
const hospital = (f1: number, trials: number) =>
  Array.from({ length: trials }, (_, t) => makeRecord({ caseId: 'hospital repair', trial: t, correct: true, f1 }))

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dfe-units-'))
  for (const trials of [1, 2, 6]) {
    await writeFile(join(dir, `before-${trials}.jsonl`), jsonl(hospital(0.94, trials)))
    await writeFile(join(dir, `after-${trials}.jsonl`), jsonl(hospital(AFTER, trials)))
  }
  const cases = (pass: (i: number) => boolean, trials: number) =>
    Array.from({ length: 12 * trials }, (_, k) =>
      makeRecord({ caseId: `q${k % 12}`, trial: Math.floor(k / 12), correct: pass(k % 12) }),
    )
  await writeFile(join(dir, 'cases-a.jsonl'), jsonl(cases(() => true, 5)))
  await writeFile(join(dir, 'cases-b.jsonl'), jsonl(cases((i) => i >= 8, 5)))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('compare: units in the verdict, the Markdown and the JSON', () => {
  it('a deterministic F1 drop on one fixed table fails at 2 and 6 trials, exact and never underpowered', async () => {
    for (const trials of [2, 6]) {
      const io = captureIO(dir)
      const json = `cmp-${trials}.json`
      expect(
        await main(['compare', `before-${trials}.jsonl`, `after-${trials}.jsonl`, '--output-json', json], io),
        `${trials} trials`,
      ).toBe(1)
      expect(io.out).toContain(
        `REGRESSION: overall deterministic drop (F1): deterministic change on 1 case (every trial identical on each side, ${trials} vs ${trials} trials): exact, no p-value; Δscore 0.000, ΔF1 -0.233`,
      )
      expect(io.out).not.toContain('underpowered')
      // the Markdown names the unit, the method and the exact change
      expect(io.out).toContain('| **overall** | 1 case | deterministic |')
      expect(io.out).toContain('exact change')
      const out = JSON.parse(await readFile(join(dir, json), 'utf8'))
      expect(out).toMatchObject({ comparisonVersion: 4, minDelta: 0 })
      for (const g of [out.overall, out.groups[0]]) {
        expect(g).toMatchObject({
          unit: 'case',
          units: 1,
          method: 'deterministic',
          status: 'exact',
          passFailTest: 'deterministic',
          p: null,
          failed: true,
        })
        expect(g.f1).toMatchObject({ test: 'deterministic', p: null, significantWorse: true })
        expect(g.power).toMatchObject({ basis: 'exact', canReachAlpha: true })
      }
    }
  })

  it('with one trial a side the same drop is untestable here (exit 0), and the message says to add trials', async () => {
    const io = captureIO(dir)
    expect(await main(['compare', 'before-1.jsonl', 'after-1.jsonl', '--output-json', 'cmp-1.json'], io)).toBe(0)
    expect(io.out).toContain(
      'ok: overall untestable here: 1 case with 1 vs 1 trials, too few for a test (add trials: 4 a side, or 2 identical a side for a deterministic agent; or add cases)',
    )
    const out = JSON.parse(await readFile(join(dir, 'cmp-1.json'), 'utf8'))
    expect(out.overall).toMatchObject({ method: 'untestable', status: 'untestable', failed: false })
  })

  it('--min-delta lets a small deterministic drop pass; two copies of one run never differ', async () => {
    const io = captureIO(dir)
    expect(await main(['compare', 'before-2.jsonl', 'after-2.jsonl', '--min-delta', '0.3'], io)).toBe(0)
    expect(io.out).toContain('ok: overall no deterministic drop: deterministic change on 1 case')
    expect(io.out).toContain('minDelta 0.3')
    const same = captureIO(dir)
    expect(await main(['compare', 'before-6.jsonl', 'before-6.jsonl'], same)).toBe(0)
    expect(same.out).toContain('ok: overall no deterministic drop')
  })

  it('12 cases × 5 identical trials: exact on 12 units (not 60 runs), the lost cases named; units and methods in the JSON', async () => {
    const io = captureIO(dir)
    expect(await main(['compare', 'cases-a.jsonl', 'cases-b.jsonl', '--output-json', 'cases.json'], io)).toBe(1)
    expect(io.out).toContain(
      'REGRESSION: overall deterministic drop (pass/fail): deterministic change on 12 cases (every trial identical on each side, 60 vs 60 trials): exact, no p-value; exact on 12 units: dropped on q0, q1, q2, q3, q4, … (8)',
    )
    const out = JSON.parse(await readFile(join(dir, 'cases.json'), 'utf8'))
    expect(out.overall).toMatchObject({
      unit: 'case',
      units: 12,
      rows: { a: 60, b: 60 },
      method: 'deterministic',
      exact: { units: 12 },
    })
    expect(out.overall.exact.dropped).toHaveLength(8)
  })

  it('12 cases × 1 trial: McNemar on 12 units', async () => {
    const cases = (pass: (i: number) => boolean) =>
      Array.from({ length: 12 }, (_, i) => makeRecord({ caseId: `q${i}`, correct: pass(i) }))
    await writeFile(join(dir, 'cases1-a.jsonl'), jsonl(cases(() => true)))
    await writeFile(join(dir, 'cases1-b.jsonl'), jsonl(cases((i) => i >= 8)))
    const io = captureIO(dir)
    expect(await main(['compare', 'cases1-a.jsonl', 'cases1-b.jsonl', '--output-json', 'cases1.json'], io)).toBe(1)
    // 8 of 12 cases lost: b = 8, c = 0 units: p = 2/256
    expect(io.out).toContain(
      'REGRESSION: overall regression (pass/fail): pass/fail McNemar exact b=8 c=0 p=0.0078 · F1 n/a (12 cases)',
    )
    expect(io.out).toContain('**Detectable effects:**')
    const out = JSON.parse(await readFile(join(dir, 'cases1.json'), 'utf8'))
    expect(out.overall).toMatchObject({
      unit: 'case',
      units: 12,
      method: 'paired',
      passFailTest: 'mcnemar-exact',
      p: 0.0078125,
    })
    expect(out.overall.power).toMatchObject({ basis: 'units', units: 12, unitsNeeded: 6, canReachAlpha: true })
    expect(out.overall.power.mde.score).toBeGreaterThan(0)
  })

  it('refuses a bad --min-delta with one line', async () => {
    const io = captureIO(dir)
    expect(await main(['compare', 'before-1.jsonl', 'after-1.jsonl', '--min-delta', '2'], io)).toBe(2)
    expect(io.err).toMatch(/^dataforge-evals: .*min-delta.*\n$/)
  })
})

describe('the Vitest baseline gate on a fixed table (real Vitest runs)', () => {
  const temp = new TempDirs()
  afterAll(() => temp.removeAll())

  it('a deterministic drop fails at 2 and 6 trials; the same agent again passes; at 1 trial it is untestable here', async () => {
    for (const trials of ['1', '2', '6']) {
      const outputDir = temp.make()
      const cacheDir = temp.make()
      const run = (keep: string, updateBaseline = false) =>
        runFixture({
          fixture: 'stats-units',
          outputDir,
          cacheDir,
          env: { DF_KEEP: keep, DF_TRIALS: trials },
          updateBaseline,
        })
      expect((await run('0.89', true)).exitCode, `${trials} trials: baseline`).toBeFalsy()
      const same = await run('0.89')
      expect(same.exitCode, `${trials} trials: same agent`).toBeFalsy()
      const worse = await run('0.55')
      if (trials === '1') {
        expect(same.output).toContain('untestable here vs baseline')
        expect(worse.exitCode, '1 trial: worse agent').toBeFalsy()
        expect(worse.output).toContain('1 case with 1 vs 1 trials, too few for a test;')
        // the remedy said once for the run, not on the group's line
        expect(
          worse.output.match(/add trials: 4 a side, or 2 identical a side for a deterministic agent; or add cases/g),
        ).toHaveLength(1)
        continue
      }
      expect(same.output).toContain('no deterministic drop vs baseline')
      expect(worse.exitCode, `${trials} trials: worse agent`).toBe(1)
      expect(worse.output).toMatch(
        /✗ partial · .*: deterministic drop \(F1\) vs baseline \(α=0\.05\): deterministic change on 1 case \(every trial identical on each side/,
      )
      expect(worse.output).not.toContain('underpowered')
      const md = worse.reports.text('leaderboard.md')
      expect(md).toContain('| 1 case |')
      expect(md).toContain('**deterministic drop (F1)**')
    }
  })
})
