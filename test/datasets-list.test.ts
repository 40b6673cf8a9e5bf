import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CORRUPTION_KINDS, listDatasets } from '../src/datasets/index.js'
import { bundledDatasets, tempDir } from './datasets/paths.js'

describe('listDatasets', () => {
  let dir: string
  let cleanup: () => Promise<void>
  beforeEach(async () => {
    ;({ dir, cleanup } = await tempDir('dataforge-list-'))
  })
  afterEach(() => cleanup())

  it('lists synthetic, the canonical sets and other Raha folders found in dataDir', async () => {
    const listing = await listDatasets({ dataDir: bundledDatasets })
    expect(listing.map((d) => d.id)).toEqual(['synthetic', 'hospital', 'flights', 'beers', 'rayyan'])
    expect(listing[0]).toEqual({
      id: 'synthetic',
      origin: 'synthetic',
      rows: 200,
      columns: 11,
      dirtyCells: 100,
      source: 'dataforge-evals synthetic generator v1 (defaults: 200 rows, error rate 0.05; any seed)',
      corruptionKinds: [...CORRUPTION_KINDS],
      available: true,
    })
    const byId = Object.fromEntries(listing.map((d) => [d.id, d]))
    expect(byId['hospital']).toMatchObject({ origin: 'raha', rows: 1000, columns: 20, dirtyCells: 509, available: true })
    expect(byId['flights']).toMatchObject({ rows: 2376, columns: 7, dirtyCells: 4920, available: true })
    expect(byId['beers']).toMatchObject({ rows: 2410, columns: 11, dirtyCells: 4362, available: true })
    expect(byId['rayyan']).toMatchObject({ rows: 1000, columns: 11, dirtyCells: 948, available: true })
    expect(byId['hospital']!.source).toContain('sha256 verified')
    expect(byId['hospital']!.hint).toBeUndefined()
    expect(byId['hospital']!.corruptionKinds).toBeUndefined()
  })

  it('lists the bundled canonical sets when the data folder has none of its own', async () => {
    const listing = await listDatasets({ dataDir: dir })
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
      const hospital = (await listDatasets({ dataDir: own })).find((d) => d.id === 'hospital')!
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
    const listing = await listDatasets({ dataDir: dir })
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
      source: `Raha-layout folder ${join(dir, 'ok')}`,
      available: true,
    })
  })

  it('uses DATAFORGE_DATA_DIR, then ./data, when no dataDir is given', async () => {
    const before = process.env['DATAFORGE_DATA_DIR']
    process.env['DATAFORGE_DATA_DIR'] = bundledDatasets
    try {
      expect((await listDatasets()).map((d) => d.id)).toContain('rayyan')
    } finally {
      if (before === undefined) delete process.env['DATAFORGE_DATA_DIR']
      else process.env['DATAFORGE_DATA_DIR'] = before
    }
  })
})
