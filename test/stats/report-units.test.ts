import { describe, expect, it } from 'vitest'
import type { DatasetInfo } from '../../src/core/dataset-info.js'
import type { RunRecord } from '../../src/core/run-record.js'
import { groupDeltas } from '../../src/report-builder/baseline.js'
import { buildReport } from '../../src/report-builder/build.js'
import { renderLeaderboard } from '../../src/report-builder/markdown/leaderboard.js'
import { renderTerminalSummary } from '../../src/report-builder/terminal.js'
import { makeRecord } from '../helpers/stats-records.js'

const info: DatasetInfo = {
  id: 'hospital',
  origin: 'raha',
  source: 'fixture',
  rows: 10,
  columns: 3,
  columnNames: [],
  dirtyCells: 5,
  idColumns: [],
  seed: 1,
  options: {},
  dirty: { sha256: 'a'.repeat(64), bytes: 10 },
  clean: { sha256: 'b'.repeat(64), bytes: 10 },
}

const report = (records: RunRecord[]) =>
  buildReport({
    records,
    datasets: [info],
    config: {},
    cwd: process.cwd(),
    runDateUtc: '2025-01-01T00:00:00Z',
    project: { commit: null, dirty: null },
  })

/** 20 cases × 3 trials; case i passes when `pass(i)`, with F1 `f1(i)`, on every trial. */
const cases = (pass: (i: number) => boolean, f1: (i: number) => number) =>
  Array.from({ length: 60 }, (_, k) =>
    makeRecord({
      caseId: `q${String(k % 20).padStart(2, '0')}`,
      trial: Math.floor(k / 20),
      correct: pass(k % 20),
      f1: f1(k % 20),
    }),
  )

describe('reports name the units', () => {
  it('the summary says the intervals are over 20 cases, not 60 runs (Markdown and terminal)', () => {
    const r = report(
      cases(
        (i) => i % 4 > 0,
        (i) => i / 20,
      ),
    )
    expect(r.aggregates[0]).toMatchObject({
      units: { unit: 'case', units: 20 },
      intervalMethods: { score: 'wilson-clustered', f1: 'cluster-t' },
    })
    const note =
      'baseline · evals/repair.eval.ts · repair: 20 cases, 60 runs (clustered by unit: Wilson on the cluster-robust effective n, F1 by a t interval over units)'
    expect(renderLeaderboard(r)).toContain(note)
    const terminal = renderTerminalSummary(r, { color: false })
    expect(terminal).toContain('95% Wilson interval (over units where trials repeat)')
    expect(terminal).toContain(note)
  })

  it('the baseline section gives per group the units, the tests and what the units can detect', () => {
    // one trial a side: nothing is exact, so the paired tests run over the 20 cases
    const firstTrial = (rows: RunRecord[]) => rows.filter((r) => r.trial === 0)
    const before = firstTrial(
      cases(
        () => true,
        (i) => 0.5 + i / 50,
      ),
    )
    const now = report(
      firstTrial(
        cases(
          (i) => i >= 3,
          (i) => 0.5 + i / 50 - (i % 3) / 20,
        ),
      ),
    )
    const deltas = groupDeltas(before, now)
    expect(deltas[0]!.message).toContain('(20 cases)')
    const md = renderLeaderboard(now, { baselineDeltas: deltas })
    expect(md).toContain('| 20 cases | 3 | 0 | 0.2500 (McNemar exact) |')
    expect(md).toMatch(
      /\*\*Detectable effects\*\* at α = 0\.05 .*\n\n- baseline · evals\/repair\.eval\.ts · repair: detectable with 20 cases \(80% power\): ΔF1 ±0\.\d{3}/,
    )
  })
})
