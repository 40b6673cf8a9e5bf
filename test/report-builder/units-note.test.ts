import { describe, expect, it } from 'vitest'
import type { RunRecord } from '../../src/core/run-record.js'
import { unitsNote } from '../../src/report-builder/units-note.js'
import { makeRecord } from '../helpers/stats-records.js'
import { reportOf } from './html/report.fixture.js'

/** Conversations of one agent: each its own group (suite), one unit of `turns` runs. */
function conversations(count: number, turns: number, extra: Partial<RunRecord> = {}) {
  return Array.from({ length: count }, (_, c) =>
    Array.from({ length: turns }, (_, t) =>
      makeRecord({ suite: `conversation ${c}`, caseId: `conversation ${c}`, turn: t + 1, category: null, ...extra }),
    ),
  ).flat()
}

const noteOf = (records: RunRecord[]) => unitsNote(reportOf(records).aggregates, (name) => name)

describe('unitsNote', () => {
  it('names one group of one unit in full', () => {
    expect(noteOf(conversations(1, 10))).toBe(
      'Intervals follow the units (a case, a conversation or a generated dataset; see docs/statistics.md): ' +
        "baseline · conversation 0: 1 conversation, 10 runs (interval over this one unit's trials, which says nothing of other cases).",
    )
  })

  it('gives groups alike one part: a hundred conversations make one line, not a hundred', () => {
    const note = noteOf(conversations(100, 10))
    expect(note).toBe(
      'Intervals follow the units (a case, a conversation or a generated dataset; see docs/statistics.md): ' +
        'baseline · conversation 0, baseline · conversation 1 and 98 other groups: 1 conversation, 10 runs each ' +
        "(interval over this one unit's trials, which says nothing of other cases).",
    )
    expect(noteOf(conversations(3, 2))).toContain(
      'baseline · conversation 0, baseline · conversation 1 and baseline · conversation 2: 1 conversation, 2 runs each (',
    )
  })

  it('keeps groups apart where their runs differ', () => {
    const note = noteOf([...conversations(2, 10), ...conversations(1, 4, { agent: 'other' })])
    expect(note).toContain('baseline · conversation 0 and baseline · conversation 1: 1 conversation, 10 runs each (')
    expect(note).toContain('; other · conversation 0: 1 conversation, 4 runs (')
  })
})
