import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  baselineFromRecords,
  baselineRuns,
  mergeBaseline,
  readBaseline,
  renderBaseline,
} from '../../src/report-builder/baseline.js'
import { makeRecord } from '../helpers/stats-records.js'

// baseline.json as a file: what it holds, how it merges, how it is read back (also from an older report.json).

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dfe-baseline-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

const rows = (agent: string, n: number) =>
  Array.from({ length: n }, (_, i) =>
    makeRecord({
      agent,
      caseId: `c${i}`,
      trial: 0,
      f1: 0.5,
      tp: 1,
      fp: 1,
      fn: 1,
      fixes: [{ row: 0, column: 'city', newValue: 'Berlin' }],
    }),
  )

describe('baseline.json', () => {
  it('holds ids, judgments, F1 and counts only, and round-trips', async () => {
    const file = baselineFromRecords([
      ...rows('y', 2),
      ...rows('x', 2),
      makeRecord({ agent: 'x', caseId: 'skipped', status: 'skipped', correct: null, completed: false }),
    ])
    expect(file.groups.map((g) => g.group)).toEqual([
      'x · evals/repair.eval.ts · repair',
      'y · evals/repair.eval.ts · repair',
    ])
    expect(file.groups[0]!.runs.map((r) => r.case)).toEqual(['c0', 'c1'])
    const text = renderBaseline(file)
    expect(text).not.toContain('Berlin')
    expect(text).not.toContain('2025-01-01')
    await writeFile(join(dir, 'baseline.json'), text)
    expect(await readBaseline(join(dir, 'baseline.json'))).toEqual(file)
    expect(baselineRuns(file)).toHaveLength(4)
  })

  it('merges: the groups a run executed replace theirs, the others are kept', () => {
    const old = baselineFromRecords([...rows('x', 2), ...rows('y', 3)])
    const fresh = baselineFromRecords(rows('y', 1))
    const { file, kept } = mergeBaseline(old, fresh)
    expect(kept).toEqual(['x · evals/repair.eval.ts · repair'])
    expect(file.groups.map((g) => [g.agent, g.runs.length])).toEqual([
      ['x', 2],
      ['y', 1],
    ])
    expect(mergeBaseline(null, fresh).file).toEqual(fresh)
  })

  it('reads a baseline written by earlier versions (a whole report.json), and names the field of a bad file', async () => {
    await writeFile(join(dir, 'old.json'), JSON.stringify({ schemaVersion: 1, records: rows('x', 2) }))
    expect((await readBaseline(join(dir, 'old.json')))!.groups[0]!.runs).toHaveLength(2)
    await writeFile(join(dir, 'bad.json'), JSON.stringify({ baselineVersion: 1, groups: [{ group: 'g', agent: 1 }] }))
    await expect(readBaseline(join(dir, 'bad.json'))).rejects.toThrow(/bad\.json: field "groups\.0\.agent"/)
    await writeFile(join(dir, 'broken.json'), '{')
    await expect(readBaseline(join(dir, 'broken.json'))).rejects.toThrow(/broken\.json: not valid JSON/)
    expect(await readBaseline(join(dir, 'missing.json'))).toBeNull()
  })
})
