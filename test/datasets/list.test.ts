import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CORRUPTION_KINDS, generateSynthetic, listDatasets, loadDataset } from '../../src/datasets/index.js'
import { exactComparator, gradeRepair, rahaComparator } from '../../src/grading/index.js'
import { bundledDatasets, tempDir } from '../helpers/dataset-paths.js'

describe('listDatasets', () => {
  let dir: string
  let cleanup: () => Promise<void>
  beforeEach(async () => {
    ;({ dir, cleanup } = await tempDir('dataforge-list-'))
  })
  afterEach(() => cleanup())

  it('lists synthetic, the canonical sets and other Raha folders found in dataDir', async () => {
    const listing = await listDatasets({ dataDir: bundledDatasets, comparator: exactComparator })
    expect(listing.map((d) => d.id)).toEqual(['synthetic', 'hospital', 'flights', 'beers', 'rayyan'])
    expect(listing[0]).toEqual({
      id: 'synthetic',
      origin: 'synthetic',
      rows: 200,
      columns: 11,
      dirtyCells: 100,
      errors: 95,
      ignoredByComparator: 5,
      comparator: 'exact',
      source:
        'dataforge-evals synthetic generator v1 (defaults: 200 rows, error rate 0.05; counts for seed 1, other seeds differ)',
      corruptionKinds: [...CORRUPTION_KINDS],
      available: true,
    })
    const byId = Object.fromEntries(listing.map((d) => [d.id, d]))
    expect(byId['hospital']).toMatchObject({
      origin: 'raha',
      rows: 1000,
      columns: 20,
      dirtyCells: 509,
      available: true,
    })
    expect(byId['flights']).toMatchObject({ rows: 2376, columns: 7, dirtyCells: 4920, available: true })
    expect(byId['beers']).toMatchObject({ rows: 2410, columns: 11, dirtyCells: 4362, available: true })
    expect(byId['rayyan']).toMatchObject({ rows: 1000, columns: 11, dirtyCells: 948, available: true })
    expect(byId['hospital']!.source).toContain('sha256 verified')
    expect(byId['hospital']!.hint).toBeUndefined()
    expect(byId['hospital']!.corruptionKinds).toBeUndefined()
  })

  it('counts errors the way the grader does: under the active comparator, with what it ignores apart', async () => {
    const [synthetic] = await listDatasets({ dataDir: bundledDatasets, comparator: exactComparator })
    // the grader, on the same data (seed 1, defaults), with no fixes: every graded error is a false negative
    const { task } = await loadDataset({ id: 'synthetic', seed: 1 })
    expect(gradeRepair(task, []).fn).toBe(synthetic!.errors)
    expect(gradeRepair(task, [], { comparator: rahaComparator }).fn).toBe(
      (await listDatasets({ dataDir: bundledDatasets, comparator: rahaComparator }))[0]!.errors,
    )
    // the differences `exact` ignores are the whitespace-only damage at the end of a value
    const ignored = generateSynthetic({ seed: 1 }).corrections.filter(
      (c) => c.dirty.trimEnd() === c.clean.trimEnd(),
    ).length
    expect(synthetic).toMatchObject({ dirtyCells: 100, ignoredByComparator: ignored })
    expect(synthetic!.errors! + synthetic!.ignoredByComparator!).toBe(100)
  })

  it('lists the bundled canonical sets when the data folder has none of its own', async () => {
    const listing = await listDatasets({ dataDir: dir, comparator: exactComparator })
    expect(listing.map((d) => [d.id, d.available])).toEqual([
      ['synthetic', true],
      ['hospital', true],
      ['flights', true],
      ['beers', true],
      ['rayyan', true],
    ])
    expect(listing[2]).toMatchObject({ id: 'flights', rows: 2376, columns: 7, dirtyCells: 4920, available: true })
    expect(listing[2]!.source).toBe(
      'LUH-DBS/ErrorCorrectionscores@cfcb2645a9ca datasets/flights (sha256 verified, read from the copy bundled with dataforge-evals)',
    )
  })

  it('prefers a folder in the data folder over the bundled copy of the same name', async () => {
    const { dir: own, cleanup: done } = await tempDir()
    try {
      await mkdir(join(own, 'hospital'))
      await writeFile(join(own, 'hospital/dirty.csv'), 'a,b\n1,x\n')
      await writeFile(join(own, 'hospital/clean.csv'), 'a,b\n1,y\n')
      const hospital = (await listDatasets({ dataDir: own, comparator: exactComparator })).find(
        (d) => d.id === 'hospital',
      )!
      expect(hospital).toMatchObject({ rows: 1, columns: 2, dirtyCells: 1, available: true })
      expect(hospital.source).toContain(join(own, 'hospital'))
    } finally {
      await done()
    }
  })

  it('lists a folder that fails to load as unavailable with the reason, and skips folders without both files', async () => {
    await mkdir(join(dir, 'broken'))
    await writeFile(join(dir, 'broken/dirty.csv'), 'a,b\n1,2\n')
    await writeFile(join(dir, 'broken/clean.csv'), 'a,b\n1,2\n3,4\n')
    await mkdir(join(dir, 'lonely'))
    await writeFile(join(dir, 'lonely/dirty.csv'), 'a\n1\n')
    await mkdir(join(dir, 'ok'))
    await writeFile(join(dir, 'ok/dirty.csv'), 'index,v\n1,x\n2,y\n')
    await writeFile(join(dir, 'ok/clean.csv'), 'index,v\n1,x\n2,z\n')
    const listing = await listDatasets({ dataDir: dir, comparator: exactComparator })
    expect(listing.map((d) => d.id)).toEqual(['synthetic', 'hospital', 'flights', 'beers', 'broken', 'ok', 'rayyan'])
    const broken = listing.find((d) => d.id === 'broken')!
    expect(broken.available).toBe(false)
    expect(broken.hint).toBe(
      `cannot load: ${join(dir, 'broken/dirty.csv')} is 1 rows × 2 columns but ${join(dir, 'broken/clean.csv')} is 2 rows × 2 columns: a dirty/clean pair must have the same shape`,
    )
    expect(listing.find((d) => d.id === 'ok')).toEqual({
      id: 'ok',
      origin: 'raha',
      rows: 2,
      columns: 2,
      dirtyCells: 1,
      errors: 1,
      ignoredByComparator: 0,
      comparator: 'exact',
      source: `Raha-layout folder ${join(dir, 'ok')}`,
      available: true,
    })
  })

  it('uses DATAFORGE_DATA_DIR, then ./data, when no dataDir is given', async () => {
    const before = process.env['DATAFORGE_DATA_DIR']
    process.env['DATAFORGE_DATA_DIR'] = bundledDatasets
    try {
      expect((await listDatasets({ comparator: exactComparator })).map((d) => d.id)).toContain('rayyan')
    } finally {
      if (before === undefined) delete process.env['DATAFORGE_DATA_DIR']
      else process.env['DATAFORGE_DATA_DIR'] = before
    }
  })
})
