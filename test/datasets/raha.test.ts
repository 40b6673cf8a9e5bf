import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DatasetInfoSchema } from '../../src/core/dataset-info.js'
import { InputError } from '../../src/core/errors.js'
import { groundTruthOf } from '../../src/core/ground-truth.js'
import { AgentTaskSchema } from '../../src/core/schemas.js'
import { CANONICAL_DATASETS, DEFAULT_DATASETS_BASE_URL, loadDataset } from '../../src/datasets/index.js'
import { missingDatasetMessage } from '../../src/datasets/raha.js'
import { bundledDatasets, tempDir } from '../helpers/dataset-paths.js'

interface ManifestFile {
  bytes: number
  sha256: string
  rows: number
  cols: number
  header: string[]
}
interface ManifestEntry {
  name: string
  diff_cells: number
  key_column: string
  errors_per_column: Record<string, number>
  files: { dirty: ManifestFile; clean: ManifestFile }
}

const manifest = JSON.parse(await readFile(join(bundledDatasets, 'MANIFEST.json'), 'utf8')) as {
  datasets: ManifestEntry[]
}
const entry = (name: string) => manifest.datasets.find((d) => d.name === name)!

/** Dirty-cell counts stated in each SOURCE.md. */
const EXPECTED_DIRTY_CELLS: Record<string, number> = { hospital: 509, flights: 4920, beers: 4362, rayyan: 948 }

describe('Raha-layout canonical datasets (real files)', () => {
  for (const name of ['hospital', 'flights', 'beers', 'rayyan']) {
    it(`${name}: shape, dirty-cell count, id column, column names from clean, digests`, async () => {
      const { task, info } = await loadDataset({ id: name, seed: 42, dataDir: bundledDatasets })
      const m = entry(name)
      expect(DatasetInfoSchema.parse(info)).toEqual(info)
      expect(AgentTaskSchema.safeParse(task).success).toBe(true)
      expect(info.dirtyCells).toBe(EXPECTED_DIRTY_CELLS[name])
      expect(info.dirtyCells).toBe(m.diff_cells)
      expect(info.rows).toBe(m.files.clean.rows)
      expect(info.columns).toBe(m.files.clean.cols)
      expect(info.columnNames).toEqual(m.files.clean.header)
      expect(task.columns).toEqual(m.files.clean.header)
      expect(task.dirty.rows).toHaveLength(m.files.dirty.rows)
      expect(info.idColumns).toEqual([m.key_column])
      expect(task.metadata).toEqual({ dataset: name, origin: 'raha', idColumns: [m.key_column] })
      expect(task.seed).toBe(42)
      expect(info.dirty).toEqual({
        path: join(bundledDatasets, name, 'dirty.csv'),
        sha256: m.files.dirty.sha256,
        bytes: m.files.dirty.bytes,
        of: 'file-bytes',
      })
      expect(info.clean).toEqual({
        path: join(bundledDatasets, name, 'clean.csv'),
        sha256: m.files.clean.sha256,
        bytes: m.files.clean.bytes,
        of: 'file-bytes',
      })

      const corrections = groundTruthOf(task).corrections
      expect(corrections).toHaveLength(info.dirtyCells)
      expect(corrections.some((c) => c.column === m.key_column)).toBe(false)
      // Per-column counts, with the manifest's columns named by the dirty header mapped to clean names by position.
      const perColumn: Record<string, number> = {}
      for (const c of corrections) perColumn[c.column] = (perColumn[c.column] ?? 0) + 1
      const expected: Record<string, number> = {}
      for (const [dirtyName, count] of Object.entries(m.errors_per_column)) {
        expected[m.files.clean.header[m.files.dirty.header.indexOf(dirtyName)]!] = count
      }
      expect(perColumn).toEqual(expected)
      for (const c of corrections) {
        expect(c.dirty).not.toBe(c.clean)
        expect(task.dirty.rows[c.row]![task.columns.indexOf(c.column)]).toBe(c.dirty)
      }
    })
  }

  it('hospital: clean header names win over the dirty ones, aligned by position', async () => {
    const { task } = await loadDataset({ id: 'hospital', seed: 0, dataDir: bundledDatasets })
    expect(task.columns.slice(0, 4)).toEqual(['index', 'ProviderNumber', 'HospitalName', 'Address1'])
    const truth = groundTruthOf(task).corrections
    expect(new Set(truth.map((c) => c.column)).has('provider_number')).toBe(false)
    expect(truth.some((c) => c.column === 'MeasureName' && c.dirty.includes('caxxed'))).toBe(true)
    // 'empty' is a literal token in hospital, kept as a string.
    expect(task.dirty.rows[0]![4]).toBe('empty')
  })

  it('flights: CRLF line endings leave no carriage return in any value', async () => {
    const { task } = await loadDataset({ id: 'flights', seed: 0, dataDir: bundledDatasets })
    expect(task.dirty.rows.some((row) => row.some((v) => v.includes('\r')))).toBe(false)
    expect(task.dirty.rows[0]).toEqual([
      '1',
      'aa',
      'AA-3859-IAH-ORD',
      '7:10 a.m.',
      '7:16 a.m.',
      '9:40 a.m.',
      '9:32 a.m.',
    ])
    const truth = groundTruthOf(task).corrections
    expect(truth).toContainEqual({ row: 1, column: 'act_arr_time', dirty: '', clean: '10:30 p.m.' })
  })

  it('beers: index is the id column, the beer id is data; N/A stays a literal string', async () => {
    const { task, info } = await loadDataset({ id: 'beers', seed: 0, dataDir: bundledDatasets })
    expect(info.idColumns).toEqual(['index'])
    expect(task.columns[1]).toBe('id')
    expect(task.columns[2]).toBe('beer-name')
    expect(task.dirty.rows[0]![6]).toBe('N/A')
    expect(groundTruthOf(task).corrections).toContainEqual({ row: 0, column: 'ibu', dirty: 'N/A', clean: '' })
    expect(groundTruthOf(task).corrections).toContainEqual({ row: 0, column: 'ounces', dirty: '12.0 oz', clean: '12' })
  })

  it('rayyan: first column id is the id column; {NULL} and quoted author lists stay literal', async () => {
    const { task, info } = await loadDataset({ id: 'rayyan', seed: 0, dataDir: bundledDatasets })
    expect(info.idColumns).toEqual(['id'])
    expect(info.source).toBe(`Raha-layout folder ${join(bundledDatasets, 'rayyan')}`)
    const cells = task.dirty.rows.flat()
    expect(cells).toContain('{NULL}')
    expect(task.dirty.rows[0]![10]).toBe('{"A. G. Parks","J. F. McPartlin"}')
  })

  it('says the canonical files are sha256-verified against the pinned upstream, and where they were read', async () => {
    const { info } = await loadDataset({ id: 'hospital', seed: 0, dataDir: bundledDatasets })
    expect(info.source).toBe(
      'LUH-DBS/ErrorCorrectionscores@cfcb2645a9ca datasets/hospital (sha256 verified, read from the copy bundled with dataforge-evals)',
    )
    const { dir, cleanup } = await tempDir()
    try {
      await mkdir(join(dir, 'hospital'))
      for (const file of ['dirty.csv', 'clean.csv'])
        await copyFile(join(bundledDatasets, 'hospital', file), join(dir, 'hospital', file))
      const own = await loadDataset({ id: 'hospital', seed: 0, dataDir: dir })
      expect(own.info.source).toBe(
        `LUH-DBS/ErrorCorrectionscores@cfcb2645a9ca datasets/hospital (sha256 verified, read from ${join(dir, 'hospital')})`,
      )
    } finally {
      await cleanup()
    }
  })

  it('CANONICAL_DATASETS pins the manifest hashes, sizes and shapes; the default base URL is the pinned revision', () => {
    for (const [name, pinned] of Object.entries(CANONICAL_DATASETS)) {
      const m = entry(name)
      expect(pinned.files.dirty).toEqual({ sha256: m.files.dirty.sha256, bytes: m.files.dirty.bytes })
      expect(pinned.files.clean).toEqual({ sha256: m.files.clean.sha256, bytes: m.files.clean.bytes })
      expect([pinned.rows, pinned.columns, pinned.dirtyCells]).toEqual([
        m.files.clean.rows,
        m.files.clean.cols,
        m.diff_cells,
      ])
      expect(pinned.idColumns).toEqual([m.key_column])
    }
    expect(Object.keys(CANONICAL_DATASETS)).toEqual(['hospital', 'flights', 'beers'])
    expect(Object.isFrozen(CANONICAL_DATASETS.hospital.files)).toBe(true)
    expect(DEFAULT_DATASETS_BASE_URL).toBe(
      'https://raw.githubusercontent.com/LUH-DBS/ErrorCorrectionscores/cfcb2645a9cac53b75385bb48fe63aca89d8b9a1/datasets',
    )
  })
})

describe('Raha-layout edge cases', () => {
  let dir: string
  let cleanup: () => Promise<void>
  beforeAll(async () => {
    ;({ dir, cleanup } = await tempDir())
  })
  afterAll(() => cleanup())

  it('a canonical dataset absent from the data folder is read from the bundled copy', async () => {
    const { info } = await loadDataset({ id: 'flights', seed: 0, dataDir: dir })
    expect(info).toMatchObject({ rows: 2376, dirtyCells: 4920 })
    expect(info.source).toContain('read from the copy bundled with dataforge-evals')
  })

  it('a missing canonical dataset (a package without its bundled copy) says where to put the files and suggests pull', () => {
    expect(missingDatasetMessage('flights', dir)).toBe(
      `dataset "flights" is not downloaded: run \`dataforge-evals datasets pull flights\` or put its files at ${join(dir, 'flights', 'dirty.csv')} and ${join(dir, 'flights', 'clean.csv')}`,
    )
  })

  it('an unknown dataset names the Raha layout and the known ids', async () => {
    await expect(loadDataset({ id: 'nosuch', seed: 0, dataDir: dir })).rejects.toThrow(
      new InputError(
        `dataset "nosuch" not found: put its files at ${join(dir, 'nosuch', 'dirty.csv')} and ${join(dir, 'nosuch', 'clean.csv')} (Raha layout: <dataDir>/<name>/dirty.csv and clean.csv), or pick one of: synthetic, hospital, flights, beers`,
      ),
    )
  })

  it('a folder with only one of the two files counts as missing', async () => {
    await mkdir(join(dir, 'half'))
    await writeFile(join(dir, 'half/dirty.csv'), 'a\n1\n')
    await expect(loadDataset({ id: 'half', seed: 0, dataDir: dir })).rejects.toThrow(/dataset "half" not found/)
  })

  it('refuses ids that are not plain folder names', async () => {
    for (const id of ['../hospital', 'a/b', '.hidden']) {
      await expect(loadDataset({ id, seed: 0, dataDir: bundledDatasets })).rejects.toThrow(/is not a folder name/)
    }
  })

  it('a local canonical copy whose bytes differ from the pinned upstream is loaded but flagged in the source', async () => {
    await mkdir(join(dir, 'beers'))
    await copyFile(join(bundledDatasets, 'beers/dirty.csv'), join(dir, 'beers/dirty.csv'))
    const clean = await readFile(join(bundledDatasets, 'beers/clean.csv'), 'utf8')
    // Same cells, CRLF line endings: other bytes, same table.
    await writeFile(join(dir, 'beers/clean.csv'), clean.replaceAll('\n', '\r\n'))
    const { info } = await loadDataset({ id: 'beers', seed: 0, dataDir: dir })
    expect(info.source).toBe(
      `local files in ${join(dir, 'beers')} (sha256 differs from LUH-DBS/ErrorCorrectionscores@cfcb2645a9ca datasets/beers)`,
    )
    expect(info.dirtyCells).toBe(4362)
  })

  it('rejects rows/errorRate for a Raha dataset', async () => {
    await expect(loadDataset({ id: 'hospital', seed: 0, dataDir: bundledDatasets, errorRate: 0.1 })).rejects.toThrow(
      new InputError('dataset "hospital": rows and errorRate apply only to the synthetic dataset'),
    )
  })
})
