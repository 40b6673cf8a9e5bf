import { describe, expect, it } from 'vitest'
import { buildReport } from '../../src/report-builder/build.js'
import { evaluateGates, failClosed, nothingScored } from '../../src/report-builder/gates.js'
import type { RunRecord } from '../../src/core/run-record.js'
import { scored } from '../../src/core/scored.js'
import { makeRecord } from '../helpers/stats-records.js'

// The gate's rules for runs that scored nothing and groups that did not run, on real reports of RunRecords.

const reportOf = (records: RunRecord[]) =>
  buildReport({
    records,
    datasets: [],
    config: {},
    cwd: process.cwd(),
    runDateUtc: '2026-01-01T00:00:00.000Z',
    project: { commit: null, dirty: null },
  })

const errored = (caseId: string, failureKind: 'timeout' | 'exception', failureMessage: string) =>
  makeRecord({ caseId, status: 'failed', failureKind, failureMessage, correct: null, completed: false })

const skipped = (caseId: string, category: string) =>
  makeRecord({ caseId, category, status: 'skipped', correct: null, completed: false })

describe('fail closed: nothing scored', () => {
  it('every run errored: one line with the count, the kinds and the first error', () => {
    const records = [
      errored('q1', 'timeout', 'timed out after 120 s'),
      errored('q2', 'exception', 'Error: no cassette'),
      errored('q3', 'timeout', 'timed out after 120 s'),
    ]
    expect(nothingScored(records, { one: 'question', many: 'questions' })).toBe(
      'no question scored: all 3 questions errored (exception 1, timeout 2; first: q1 trial 1: timed out after 120 s)',
    )
    expect(failClosed(reportOf(records))).toEqual([
      'no eval run scored: all 3 eval runs errored (exception 1, timeout 2; first: q1 trial 1: timed out after 120 s); the gate fails closed',
    ])
    expect(nothingScored([records[0]!], { one: 'trial', many: 'trials' })).toBe(
      'no trial scored: the one trial errored (timeout 1; first: q1 trial 1: timed out after 120 s)',
    )
  })

  it('one run scored: nothing to say; only skipped runs: none ran', () => {
    expect(
      nothingScored([errored('q1', 'timeout', 't'), makeRecord({ caseId: 'q2' })], {
        one: 'question',
        many: 'questions',
      }),
    ).toBeNull()
    expect(nothingScored([skipped('q1', 'a')], { one: 'question', many: 'questions' })).toBe(
      'no question scored: none ran',
    )
    expect(nothingScored([], { one: 'question', many: 'questions' })).toBe('no question scored: none ran')
  })

  it('asks the one definition of a run that scored, as the paired comparisons do', () => {
    const runs = [
      makeRecord({ correct: true }),
      makeRecord({ correct: false }),
      makeRecord({ correct: null, f1: 0.5 }),
      errored('q', 'timeout', 't'),
    ]
    for (const r of runs) expect(nothingScored([r], { one: 'run', many: 'runs' }) === null).toBe(scored(r))
    expect(runs.map(scored)).toEqual([true, true, true, false])
    // A completed run with neither a judgment nor an F1 scored nothing: the gate and the comparisons agree.
    const unjudged = makeRecord({ correct: null, f1: null })
    expect(scored(unjudged)).toBe(false)
    expect(nothingScored([unjudged], { one: 'run', many: 'runs' })).not.toBeNull()
  })
})

describe('groups without runs are not run', () => {
  it('never below a threshold; named once in a note; a pattern matching only them fails nothing', () => {
    const records = [makeRecord({ caseId: 'a', category: 'ran' }), skipped('b', 'parked'), skipped('c', 'later')]
    const gate = evaluateGates({
      report: reportOf(records),
      thresholds: { parked: { passRate: 1 }, '*': { f1: 0.5, completionRate: 1 } },
    })
    // f1 is n/a for the group that ran (a passing run with no F1): that still fails; the idle groups do not.
    expect(gate.failures).toEqual([
      'baseline · evals/repair.eval.ts · ran: f1 n/a (no completed run has f1) is below the threshold 0.5 (pattern "*")',
    ])
    expect(gate.notes).toEqual([
      'not run: 2 groups had no attempted run (a -t or file filter, a shard, .skip or .todo left them out), so their thresholds and baseline are not checked: baseline · evals/repair.eval.ts · later, baseline · evals/repair.eval.ts · parked',
    ])
  })

  it('a pattern that matches no group at all is still a typo that fails an unfiltered run', () => {
    const gate = evaluateGates({ report: reportOf([makeRecord()]), thresholds: { hospitl: { f1: 0.5 } } })
    expect(gate.failures).toHaveLength(1)
    expect(gate.failures[0]).toMatch(/^threshold pattern "hospitl" matches no group/)
  })
})
