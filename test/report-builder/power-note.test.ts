import { describe, expect, it } from 'vitest'
import { baselineFromRecords, baselineRuns, groupDeltas } from '../../src/report-builder/baseline.js'
import { buildReport } from '../../src/report-builder/build.js'
import { renderLeaderboard } from '../../src/report-builder/markdown/leaderboard.js'
import type { FinishedRun } from '../../src/report-builder/reporter-options.js'
import { decideRunEnd, runEndSettings } from '../../src/report-builder/run-end-plan.js'
import { renderRunEnd } from '../../src/report-builder/terminal.js'
import { makeRecord } from '../helpers/stats-records.js'

// Groups of one case with one trial a side: "untestable here" on each, what would make them testable said once.

const run: FinishedRun = {
  records: [],
  datasets: [],
  runDateUtc: '2026-01-01T00:00:00.000Z',
  project: { commit: null, dirty: null },
  touched: new Set(),
  filtered: false,
  command: 'vitest run evals/',
}
const place = {
  options: {},
  outputDir: '/repo/evals/__reports__',
  baselinePath: '/repo/evals/__reports__/baseline.json',
  baselineOptions: {},
  alpha: 0.05,
}
const quiet = runEndSettings({}, {})

describe('the printout of groups of one case with one trial a side', () => {
  it('says "untestable here" on each line and what would make them testable once', () => {
    const one = (agent: string, correct: boolean) =>
      makeRecord({ agent, caseId: 'h', correct, f1: correct ? 0.9 : 0.4 })
    const before = [one('alpha', true), one('beta', true), one('gamma', false)]
    const after = [one('alpha', true), one('beta', false), one('gamma', false)]
    const now = buildReport({
      records: after,
      datasets: [],
      config: {},
      cwd: '/repo',
      runDateUtc: '2026-01-01T00:00:00.000Z',
      project: { commit: null, dirty: null },
    })
    const deltas = groupDeltas(baselineRuns(baselineFromRecords(before)), now, { alpha: 0.05 })
    expect(deltas.filter((d) => d.verdict?.method === 'untestable')).toHaveLength(3)
    const d = decideRunEnd({
      place,
      settings: quiet,
      report: now,
      run,
      baselineFile: baselineFromRecords(before),
      baseline: { deltas, problem: null },
      color: false,
    })
    const printed = renderRunEnd({ ...d.view, sincePrevious: [], baselineUpdate: [] })
    expect(printed.match(/untestable here vs baseline/g)).toHaveLength(3)
    expect(printed.match(/add trials/g)).toHaveLength(1)
    expect(printed).toContain('untestable here: 3 groups have one unit with too few trials for a test: ')
    expect(printed).toContain('; add trials: 4 a side, or 2 identical a side for a deterministic agent; or add cases')
    // each group's own line keeps its facts
    expect(printed.match(/1 case with 1 vs 1 trials, too few for a test;/g)).toHaveLength(3)
  })
})

describe('the leaderboard against a baseline of one-trial cases', () => {
  it('labels each group "untestable here" and says the remedy once under the table', () => {
    const one = (agent: string, correct: boolean) =>
      makeRecord({ agent, caseId: 'h', correct, f1: correct ? 0.9 : 0.4 })
    const before = [one('alpha', true), one('beta', true)]
    const now = buildReport({
      records: [one('alpha', true), one('beta', false)],
      datasets: [],
      config: {},
      cwd: '/repo',
      runDateUtc: '2026-01-01T00:00:00.000Z',
      project: { commit: null, dirty: null },
    })
    const deltas = groupDeltas(baselineRuns(baselineFromRecords(before)), now, { alpha: 0.05 })
    const page = renderLeaderboard(now, { baselineDeltas: deltas })
    expect(page.match(/\| untestable here \|/g)).toHaveLength(2)
    expect(page.match(/add trials/g)).toHaveLength(1)
    expect(page).toContain('untestable here: 2 groups have one unit with too few trials for a test: ')
  })
})
