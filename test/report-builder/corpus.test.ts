import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main } from '../../src/cli/main.js'
import type { RunRecord } from '../../src/core/run-record.js'
import { mergeCorpora } from '../../src/report-builder/corpus.js'
import { verifyDir } from '../../src/report-builder/manifest.js'
import { makeRecord } from '../helpers/stats-records.js'
import { captureIO } from '../helpers/cli-harness.js'

const capture = captureIO

const row = (
  agent: string,
  caseId: string,
  generation: string | null,
  runDateUtc: string,
  trial = 0,
  extra: Partial<RunRecord> = {},
) => makeRecord({ agent, caseId, generation, runDateUtc, trial, armId: `${agent}-${generation}`, ...extra })
const ids = (rows: RunRecord[]) =>
  rows.map((r) => `${r.agent}/${r.caseId}/t${r.trial}@${r.generation}:${r.runDateUtc.slice(0, 10)}`)

// gen-1: agents x and y ran case A (2 trials each); y also ran case B.
// gen-2: x reran case A twice (an early run with 2 trials, a later one with 1 trial); y did not run at all.
// gen-10 (newer than gen-2 in natural order): z ran case A.
const gen1 = [
  row('x', 'A', 'gen-1', '2025-01-01T00:00:00Z', 0),
  row('x', 'A', 'gen-1', '2025-01-01T00:00:00Z', 1),
  row('y', 'A', 'gen-1', '2025-01-01T00:00:00Z', 0),
  row('y', 'A', 'gen-1', '2025-01-01T00:00:00Z', 1),
  row('y', 'B', 'gen-1', '2025-01-01T00:00:00Z', 0),
]
const gen2 = [
  row('x', 'A', 'gen-2', '2025-02-01T00:00:00Z', 0),
  row('x', 'A', 'gen-2', '2025-02-01T00:00:00Z', 1),
  row('x', 'A', 'gen-2', '2025-02-03T00:00:00Z', 0, { correct: false }),
]
const gen10 = [row('z', 'A', 'gen-10', '2025-03-01T00:00:00Z', 0)]

describe('mergeCorpora', () => {
  it('history keeps every distinct row, deduplicated, oldest generation first', () => {
    const merged = mergeCorpora([gen1, gen2, gen10, gen1])
    expect(merged.history).toHaveLength(9)
    expect(merged.generations).toEqual(['gen-1', 'gen-2', 'gen-10'])
    expect(merged.target).toBe('gen-10')
    expect(ids(merged.history).slice(0, 2)).toEqual(['x/A/t0@gen-1:2025-01-01', 'x/A/t1@gen-1:2025-01-01'])
    expect(ids(merged.history).at(-1)).toBe('z/A/t0@gen-10:2025-03-01')
  })

  it('snapshot carries each case configuration forward from the newest generation that ran it', () => {
    const merged = mergeCorpora([gen1, gen2, gen10])
    // x/A: newest gen-2, newest run 2025-02-03 (one trial) — the earlier gen-2 run's trials are not mixed in
    // y/A and y/B: only gen-1 ran them: carried forward; z/A: gen-10
    expect(ids(merged.snapshot)).toEqual([
      'y/A/t0@gen-1:2025-01-01',
      'y/A/t1@gen-1:2025-01-01',
      'y/B/t0@gen-1:2025-01-01',
      'x/A/t0@gen-2:2025-02-03',
      'z/A/t0@gen-10:2025-03-01',
    ])
    expect(ids(merged.latest)).toEqual(['z/A/t0@gen-10:2025-03-01'])
  })

  it('takes latest and snapshot at a chosen generation', () => {
    const merged = mergeCorpora([gen1, gen2, gen10], { generation: 'gen-2' })
    expect(ids(merged.latest)).toEqual(['x/A/t0@gen-2:2025-02-03'])
    expect(merged.snapshot.map((r) => r.agent)).not.toContain('z')
    expect(merged.history).toHaveLength(9)
    expect(() => mergeCorpora([gen1], { generation: 'gen-9' })).toThrow(
      /generation "gen-9" is not in the corpora; present: gen-1/,
    )
  })

  it('an explicit generation order overrides natural order', () => {
    const merged = mergeCorpora([gen1, gen2, gen10], { generationOrder: ['gen-10', 'gen-1', 'gen-2'] })
    expect(merged.target).toBe('gen-2')
    expect(ids(merged.latest)).toEqual(['x/A/t0@gen-2:2025-02-03'])
    expect(() => mergeCorpora([gen1], { generationOrder: ['gen-2'] })).toThrow(
      /"gen-1" .* missing from the generation order/,
    )
  })

  it('null generation is oldest; a later input wins a tie within one run', () => {
    const old = row('x', 'A', null, '2025-01-01T00:00:00Z')
    const first = row('x', 'A', 'g', '2025-01-05T00:00:00Z', 0, { correct: true })
    const second = row('x', 'A', 'g', '2025-01-05T00:00:00Z', 0, { correct: false })
    const merged = mergeCorpora([[old, first], [second]])
    expect(merged.generations).toEqual([null, 'g'])
    expect(merged.snapshot).toEqual([second])
    expect(mergeCorpora([]).history).toEqual([])
  })
})

describe('corpus merge command', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dfe-corpus-'))
    const write = (name: string, rows: RunRecord[]) =>
      writeFile(join(dir, name), rows.map((r) => JSON.stringify(r)).join('\n') + '\n')
    await write('g1.jsonl', gen1)
    await write('g2.jsonl', gen2)
    await writeFile(join(dir, 'g10.json'), JSON.stringify({ records: gen10 }))
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('writes the three views and a manifest that verifies', async () => {
    const io = capture(dir)
    expect(await main(['corpus', 'merge', 'g1.jsonl', 'g2.jsonl', 'g10.json', '--out', 'merged'], io)).toBe(0)
    expect(io.out).toBe(
      'merged 3 corpora (generations: gen-1, gen-2, gen-10; target gen-10): rows: history 9, snapshot 5, latest 1; wrote merged/history.jsonl, merged/snapshot.jsonl, merged/latest.jsonl, merged/manifest.json\n',
    )
    const lines = async (name: string) => (await readFile(join(dir, 'merged', name), 'utf8')).trim().split('\n')
    expect(await lines('history.jsonl')).toHaveLength(9)
    expect(await lines('snapshot.jsonl')).toHaveLength(5)
    expect(await lines('latest.jsonl')).toHaveLength(1)
    expect(await verifyDir(join(dir, 'merged'))).toMatchObject({ ok: true, files: 3 })
  })

  it('bad input exits 2 with one line and writes nothing', async () => {
    for (const argv of [
      ['merge', 'g1.jsonl'],
      ['split', 'g1.jsonl', '--out', 'x'],
      ['merge', '--out', 'x'],
      ['merge', 'missing.jsonl', '--out', 'x'],
    ]) {
      const io = capture(dir)
      expect(await main(['corpus', ...argv], io)).toBe(2)
      expect(io.err).toMatch(/^dataforge-evals: .+\n$/)
    }
    await expect(readFile(join(dir, 'x', 'history.jsonl'))).rejects.toThrow()
  })
})
