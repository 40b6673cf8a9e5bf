import { describe, expect, it } from 'vitest'
import { baselineFromRecords, baselineRuns, groupDeltas } from '../../src/report-builder/baseline.js'
import { buildReport } from '../../src/report-builder/build.js'
import type { FinishedRun } from '../../src/report-builder/reporter-options.js'
import {
  baselineUpdateLines,
  decideRunEnd,
  type RunEndPlace,
  runEndSettings,
} from '../../src/report-builder/run-end-plan.js'
import { makeRecord } from '../helpers/stats-records.js'

const records = [makeRecord({ caseId: 'a', correct: true }), makeRecord({ caseId: 'b', correct: false })]
const report = buildReport({
  records,
  datasets: [],
  config: {},
  cwd: '/repo',
  runDateUtc: '2026-01-01T00:00:00.000Z',
  project: { commit: null, dirty: null },
})
const run: FinishedRun = {
  records,
  datasets: [],
  runDateUtc: '2026-01-01T00:00:00.000Z',
  project: { commit: null, dirty: null },
  touched: new Set(),
  filtered: false,
  command: 'vitest run evals/',
}
const place = (options = {}): RunEndPlace => ({
  options,
  outputDir: '/repo/evals/__reports__',
  baselinePath: '/repo/evals/__reports__/baseline.json',
  baselineOptions: {},
  alpha: 0.05,
})
const quiet = runEndSettings({}, {})
const none = { deltas: [], problem: null }

describe('the run end decides without writing', () => {
  it('reads its settings from the environment it is given', () => {
    expect(runEndSettings({}, { DATAFORGE_UPDATE_BASELINE: '1', DATAFORGE_PRICES: 'prices.json' })).toEqual({
      updating: true,
      priced: true,
      github: null,
    })
    expect(runEndSettings({}, { DATAFORGE_UPDATE_BASELINE: 'yes', DATAFORGE_PRICES: ' ' })).toEqual({
      updating: false,
      priced: false,
      github: null,
    })
    expect(runEndSettings({}, { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: '/tmp/summary.md' }).github).toEqual({
      reportUrl: null,
      summaryPath: '/tmp/summary.md',
    })
  })

  it('a threshold below the pass rate fails the gate, in the folder, the printout and the GitHub view alike', () => {
    const settings = runEndSettings({}, { GITHUB_ACTIONS: 'true' })
    const d = decideRunEnd({
      place: place({ thresholds: { '*': { passRate: 0.9 } } }),
      settings,
      report,
      run,
      baselineFile: null,
      baseline: none,
      color: false,
    })
    expect(d.gate.failures).toHaveLength(1)
    expect(d.gate.failures[0]).toContain('passRate 0.500 is below the threshold 0.9')
    expect(d.folder.gateFailures).toEqual(d.gate.failures)
    expect(d.view.gate).toBe(d.gate)
    expect(d.github).toMatchObject({
      failures: d.gate.failures,
      title: 'dataforge-evals (vitest run evals/)',
      alpha: 0.05,
      floor: null,
    })
    expect(d.github!.thresholdFailures).toHaveLength(1)
  })

  it('says why nothing was compared: no file, an update, comparison off', () => {
    const decide = (p: RunEndPlace, updating: boolean) =>
      decideRunEnd({
        place: p,
        settings: { ...quiet, updating },
        report,
        run,
        baselineFile: null,
        baseline: none,
        color: false,
      }).folder.baselineNote
    expect(decide(place(), false)).toBe(
      'No baseline to compare with: `DATAFORGE_UPDATE_BASELINE=1` writes baseline.json next to these reports.',
    )
    expect(decide(place(), true)).toBe(
      'This run updates the baseline (baseline.json next to these reports); it is not compared with it.',
    )
    expect(decide({ ...place(), baselinePath: null }, false)).toBe('Baseline comparison is off (`baseline: false`).')
    expect(
      decideRunEnd({ place: place(), settings: quiet, report, run, baselineFile: null, baseline: none, color: false })
        .github,
    ).toBeNull()
  })

  it('a problem with the baseline file fails the gate closed; deltas reach every output', () => {
    const problem = decideRunEnd({
      place: place(),
      settings: quiet,
      report,
      run,
      baselineFile: null,
      baseline: { deltas: [], problem: 'baseline x cannot be used' },
      color: false,
    })
    expect(problem.gate.failures.join('\n')).toContain('baseline x cannot be used')
    const deltas = groupDeltas(baselineRuns(baselineFromRecords(records)), report, { alpha: 0.05 })
    const compared = decideRunEnd({
      place: place(),
      settings: quiet,
      report,
      run,
      baselineFile: baselineFromRecords(records),
      baseline: { deltas, problem: null },
      color: false,
    })
    expect(compared.folder.baselineNote).toBe('')
    expect(compared.view.baselineDeltas).toBe(deltas)
    expect(compared.folder.baselineDeltas).toBe(deltas)
  })

  it('words a baseline update: kept groups, and a partial run as a warning', () => {
    expect(baselineUpdateLines('b.json', [], 0)).toEqual([
      { text: 'dataforge-evals: baseline updated: b.json', warn: false },
    ])
    expect(baselineUpdateLines('b.json', ['x', 'y'], 3).map((l) => [l.text, l.warn])).toEqual([
      ['dataforge-evals: baseline updated: b.json', false],
      ['dataforge-evals: kept 2 baseline groups this run did not execute: x, y', false],
      [
        'dataforge-evals: the baseline comes from a partial run: 3 skipped runs have no result in it and will not be compared',
        true,
      ],
    ])
  })
})
