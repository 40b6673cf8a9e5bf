import { describe, expect, it } from 'vitest'
import { assignUnits, type UnitRow, unitsText } from '../../src/stats/units.js'

const sha = (x: string) => ({ dirty: x.repeat(64), clean: 'c'.repeat(64) })
const row = (caseId: string, trial: number, extra: Partial<UnitRow> = {}): UnitRow => ({
  caseId,
  trial,
  turn: null,
  datasetSha256: sha('a'),
  ...extra,
})

describe('assignUnits', () => {
  it('nests the trials of a case that share data in one unit', () => {
    const rows = [row('q1', 0), row('q1', 1), row('q1', 2), row('q2', 0), row('q2', 1), row('q2', 2)]
    const { keys, summary } = assignUnits(rows)
    expect(new Set(keys).size).toBe(2)
    expect(keys[0]).toBe(keys[2])
    expect(summary).toEqual({
      unit: 'case',
      units: 2,
      byKind: { case: 2 },
      runsPerUnit: { min: 3, max: 3 },
      note: null,
    })
    expect(unitsText(summary)).toBe('2 cases')
  })

  it("clusters a conversation's turns within the conversation", () => {
    const rows = [0, 1, 2].flatMap((turn) => [row('chat-a', 0, { turn }), row('chat-b', 0, { turn })])
    const { keys, summary } = assignUnits(rows)
    expect(summary).toMatchObject({ unit: 'conversation', units: 2, runsPerUnit: { min: 3, max: 3 } })
    expect(keys.filter((k) => k === keys[0]).length).toBe(3)
    expect(unitsText(summary)).toBe('2 conversations')
  })

  it('makes each trial whose seed made new data a unit of its own', () => {
    const rows = [
      row('synthetic', 0, { datasetSha256: sha('1') }),
      row('synthetic', 1, { datasetSha256: sha('2') }),
      row('synthetic', 2, { datasetSha256: sha('3') }),
    ]
    const { summary } = assignUnits(rows)
    expect(summary).toMatchObject({ unit: 'generated data', units: 3, runsPerUnit: { min: 1, max: 1 } })
    expect(unitsText(summary)).toBe('3 generated datasets')
    // two trials on the same generated data stay nested in it
    const twice = assignUnits([...rows, row('synthetic', 3, { datasetSha256: sha('1') })])
    expect(twice.summary).toMatchObject({ units: 3, runsPerUnit: { min: 1, max: 2 } })
  })

  it('names the rule when a group mixes units or unequal trials', () => {
    const rows = [row('q1', 0), row('q1', 1), row('q2', 0), row('chat', 0, { turn: 0 }), row('chat', 0, { turn: 1 })]
    const { summary } = assignUnits(rows)
    expect(summary).toMatchObject({ unit: 'mixed', units: 3, byKind: { case: 2, conversation: 1 } })
    expect(summary.note).toBe(
      'mixed units (2 cases, 1 conversation): each counts as one unit; units hold 1 to 2 runs: paired tests weigh each unit once (its mean), intervals weigh each run',
    )
    expect(unitsText(summary)).toBe('3 units (mixed)')
  })

  it('falls back to the case when rows carry no dataset sha256', () => {
    const { summary } = assignUnits([row('q', 0, { datasetSha256: null }), row('q', 1, { datasetSha256: null })])
    expect(summary).toMatchObject({ unit: 'case', units: 1 })
  })

  it('a trial without a sha256 joins its case and never splits it into two units', () => {
    const { keys, summary } = assignUnits([row('q', 0), row('q', 1, { datasetSha256: null }), row('q', 2)])
    expect(summary).toMatchObject({ unit: 'case', units: 1, runsPerUnit: { min: 3, max: 3 } })
    expect(new Set(keys).size).toBe(1)
    // where the case did split by data, the row of unknown data is a unit of its own, never paired with known data
    const split = assignUnits([
      row('s', 0, { datasetSha256: sha('1') }),
      row('s', 1, { datasetSha256: sha('2') }),
      row('s', 2, { datasetSha256: null }),
    ])
    expect(split.summary).toMatchObject({ unit: 'generated data', units: 3 })
  })
})
