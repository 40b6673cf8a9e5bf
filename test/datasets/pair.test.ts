import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DatasetInfoSchema } from '../../src/core/dataset-info.js'
import { InputError } from '../../src/core/errors.js'
import { groundTruthOf } from '../../src/core/ground-truth.js'
import { AgentTaskSchema } from '../../src/core/schemas.js'
import { detectIdColumns, loadDataset } from '../../src/datasets/index.js'
import { fixturesDir, tempDir } from '../helpers/dataset-paths.js'

const contactsDir = join(fixturesDir, 'raha/contacts')
const contactsDirty = join(contactsDir, 'dirty.csv')
const contactsClean = join(contactsDir, 'clean.csv')

describe('CSV pair', () => {
  let dir: string
  let cleanup: () => Promise<void>
  beforeAll(async () => {
    ;({ dir, cleanup } = await tempDir())
  })
  afterAll(() => cleanup())

  async function csv(name: string, text: string): Promise<string> {
    const path = join(dir, name)
    await writeFile(path, text)
    return path
  }

  it('grades every differing cell, names columns from the clean file and skips the id column', async () => {
    const { task, info } = await loadDataset({
      id: 'contacts',
      seed: 11,
      dirtyCsv: contactsDirty,
      cleanCsv: contactsClean,
    })
    expect(task.columns).toEqual(['index', 'Name', 'City', 'State', 'Phone', 'Note'])
    expect(task.dirty.columns).toEqual(task.columns)
    expect(task.name).toBe('contacts')
    expect(task.seed).toBe(11)
    expect(task.metadata).toEqual({ dataset: 'contacts', origin: 'csv-pair', idColumns: ['index'] })
    // Literal strings survive: quoted commas, doubled quotes, newlines, N/A, empty, the 'empty' token.
    expect(task.dirty.rows[0]![5]).toBe('first programmer, 1843')
    expect(task.dirty.rows[1]![5]).toBe('said "it\'s easier to ask forgiveness"')
    expect(task.dirty.rows[2]![5]).toBe('N/A')
    expect(task.dirty.rows[3]![5]).toBe('line one\nline two')
    expect(task.dirty.rows[4]![4]).toBe('empty')
    expect(task.dirty.rows[4]![5]).toBe('')
    expect(task.dirty.rows[4]![2]).toBe(' Austin')

    const truth = groundTruthOf(task)
    expect(truth.corrections).toEqual([
      { row: 0, column: 'City', dirty: 'Londn', clean: 'London' },
      { row: 1, column: 'Name', dirty: 'grace hopper', clean: 'Grace Hopper' },
      { row: 1, column: 'State', dirty: 'ny', clean: 'NY' },
      { row: 2, column: 'Phone', dirty: '01614960003', clean: '0161-496-0003' },
      { row: 4, column: 'City', dirty: ' Austin', clean: 'Austin' },
      { row: 4, column: 'Phone', dirty: 'empty', clean: '512-555-0105' },
    ])
    expect(truth.dataset).toBe(info)

    expect(DatasetInfoSchema.parse(info)).toEqual(info)
    expect(info).toMatchObject({
      id: 'contacts',
      origin: 'csv-pair',
      rows: 5,
      columns: 6,
      columnNames: ['index', 'Name', 'City', 'State', 'Phone', 'Note'],
      dirtyCells: 6,
      idColumns: ['index'],
      source: `CSV pair: dirty ${contactsDirty}, clean ${contactsClean}`,
    })
    expect(info.dirty.path).toBe(contactsDirty)
    expect(info.clean.path).toBe(contactsClean)
    expect(info.dirty.sha256).toMatch(/^[0-9a-f]{64}$/)
    expect(info.seed).toBeUndefined()
  })

  it('puts no clean-only value anywhere on the task', async () => {
    const { task } = await loadDataset({ id: 'contacts', seed: 1, dirtyCsv: contactsDirty, cleanCsv: contactsClean })
    expect(AgentTaskSchema.parse(task)).toEqual(task)
    const json = JSON.stringify(task)
    for (const c of groundTruthOf(task).corrections) {
      if (c.clean.length > 3) expect(json).not.toContain(JSON.stringify(c.clean))
    }
    expect(Object.isFrozen(task)).toBe(true)
    expect(Object.isFrozen(task.dirty.rows[0])).toBe(true)
  })

  it('refuses pairs of different shapes, naming both files and both shapes', async () => {
    const dirty = await csv('shape-dirty.csv', 'a,b,c,d\n' + '1,2,3,4\n'.repeat(10))
    const clean = await csv('shape-clean.csv', 'a,b,c,d\n' + '1,2,3,4\n'.repeat(9))
    await expect(loadDataset({ id: 'p', seed: 0, dirtyCsv: dirty, cleanCsv: clean })).rejects.toThrow(
      new InputError(
        `${dirty} is 10 rows × 4 columns but ${clean} is 9 rows × 4 columns: a dirty/clean pair must have the same shape`,
      ),
    )
    const narrow = await csv('narrow-clean.csv', 'a,b,c\n' + '1,2,3\n'.repeat(10))
    await expect(loadDataset({ id: 'p', seed: 0, dirtyCsv: dirty, cleanCsv: narrow })).rejects.toThrow(
      `${dirty} is 10 rows × 4 columns but ${narrow} is 10 rows × 3 columns`,
    )
  })

  it('names the file and line of a ragged row', async () => {
    const ragged = join(fixturesDir, 'ragged.csv')
    const clean = await csv('ragged-clean.csv', 'id,city,state\n1,Boston,MA\n2,Chicago,IL\n3,Denver,CO\n')
    await expect(loadDataset({ id: 'p', seed: 0, dirtyCsv: ragged, cleanCsv: clean })).rejects.toThrow(
      new InputError(`${ragged}: line 4 (data row 2) has 2 fields but the header has 3`),
    )
  })

  it('handles empty and header-only files with a clear message', async () => {
    const empty = await csv('empty.csv', '')
    const headerOnlyDirty = await csv('h-dirty.csv', 'a,b\n')
    const headerOnlyClean = await csv('h-clean.csv', 'a,b\r\n')
    await expect(loadDataset({ id: 'p', seed: 0, dirtyCsv: empty, cleanCsv: headerOnlyClean })).rejects.toThrow(
      new InputError(`${empty} is empty: expected a header line followed by data rows`),
    )
    await expect(
      loadDataset({ id: 'p', seed: 0, dirtyCsv: headerOnlyDirty, cleanCsv: headerOnlyClean }),
    ).rejects.toThrow(
      new InputError(`${headerOnlyDirty} and ${headerOnlyClean} have a header but no data rows: nothing to repair`),
    )
  })

  it('accepts a pair with no differences (a pure over-repair test)', async () => {
    const same = await csv('same.csv', 'x,y\n1,2\n3,4\n')
    const { task, info } = await loadDataset({ id: 'same', seed: 0, dirtyCsv: same, cleanCsv: same })
    expect(info.dirtyCells).toBe(0)
    expect(groundTruthOf(task).corrections).toEqual([])
    expect(info.idColumns).toEqual([])
  })

  it('treats a BOM, CRLF and LF mix across the two files as the same text', async () => {
    const dirty = await csv('bom-dirty.csv', '\ufeffid,name\r\n1,Ann\r\n2,Bobb\r\n')
    const clean = await csv('lf-clean.csv', 'id,name\n1,Ann\n2,Bob\n')
    const { task, info } = await loadDataset({ id: 'mix', seed: 0, dirtyCsv: dirty, cleanCsv: clean })
    expect(groundTruthOf(task).corrections).toEqual([{ row: 1, column: 'name', dirty: 'Bobb', clean: 'Bob' }])
    expect(info.idColumns).toEqual(['id'])
  })

  it('keeps an id-named column that does hold differences in the ground truth', async () => {
    const dirty = await csv('idd.csv', 'id,v\n1,a\n2,b\n')
    const clean = await csv('idc.csv', 'id,v\n1,a\n3,b\n')
    const { task, info } = await loadDataset({ id: 'ids', seed: 0, dirtyCsv: dirty, cleanCsv: clean })
    expect(info.idColumns).toEqual([])
    expect(groundTruthOf(task).corrections).toEqual([{ row: 1, column: 'id', dirty: '2', clean: '3' }])
  })

  it('rejects half a pair, a pair without a name, synthetic options on a pair, the reserved id and bad seeds', async () => {
    await expect(loadDataset({ id: 'p', seed: 0, dirtyCsv: contactsDirty })).rejects.toThrow(
      new InputError('dataset "p": give both dirtyCsv and cleanCsv, or neither (got only dirtyCsv)'),
    )
    await expect(loadDataset({ id: 'p', seed: 0, cleanCsv: contactsClean })).rejects.toThrow('got only cleanCsv')
    await expect(
      loadDataset({ id: 'p', seed: 0, dirtyCsv: contactsDirty, cleanCsv: contactsClean, rows: 10 }),
    ).rejects.toThrow(new InputError('dataset "p": rows and errorRate apply only to the synthetic dataset'))
    await expect(
      loadDataset({ id: 'synthetic', seed: 0, dirtyCsv: contactsDirty, cleanCsv: contactsClean }),
    ).rejects.toThrow(/reserved for the generator/)
    await expect(loadDataset({ id: 'p', seed: 1.5, dirtyCsv: contactsDirty, cleanCsv: contactsClean })).rejects.toThrow(
      new InputError('seed must be an integer, got 1.5'),
    )
    await expect(loadDataset({ id: '', seed: 0 })).rejects.toThrow(InputError)
    await expect(loadDataset({ id: '', seed: 0, dirtyCsv: contactsDirty, cleanCsv: contactsClean })).rejects.toThrow(
      new InputError(
        "a CSV pair needs a name, the dataset its reports group by: give it an id, e.g. { id: 'products', dirtyCsv, cleanCsv }",
      ),
    )
  })

  it('says which file of a pair is missing', async () => {
    const missing = join(dir, 'missing-clean.csv')
    await expect(loadDataset({ id: 'p', seed: 0, dirtyCsv: contactsDirty, cleanCsv: missing })).rejects.toThrow(
      new InputError(`${missing} does not exist`),
    )
  })

  it('loads the same fixture folder through the Raha layout', async () => {
    const viaPair = await loadDataset({ id: 'contacts', seed: 3, dirtyCsv: contactsDirty, cleanCsv: contactsClean })
    const viaRaha = await loadDataset({ id: 'contacts', seed: 3, dataDir: join(fixturesDir, 'raha') })
    expect(viaRaha.task.dirty).toEqual(viaPair.task.dirty)
    expect(groundTruthOf(viaRaha.task).corrections).toEqual(groundTruthOf(viaPair.task).corrections)
    expect(viaRaha.info.origin).toBe('raha')
    expect(viaRaha.task.metadata['origin']).toBe('raha')
    expect(viaRaha.info.source).toBe(`Raha-layout folder ${contactsDir}`)
  })

  it('finds Raha folders through DATAFORGE_DATA_DIR when no dataDir is given', async () => {
    const root = join(dir, 'env-root')
    await mkdir(join(root, 'tiny'), { recursive: true })
    await writeFile(join(root, 'tiny/dirty.csv'), 'tuple_id,x\n1,a\n')
    await writeFile(join(root, 'tiny/clean.csv'), 'tuple_id,x\n1,b\n')
    const before = process.env['DATAFORGE_DATA_DIR']
    process.env['DATAFORGE_DATA_DIR'] = root
    try {
      const { info } = await loadDataset({ id: 'tiny', seed: 0 })
      expect(info).toMatchObject({ dirtyCells: 1, idColumns: ['tuple_id'] })
    } finally {
      if (before === undefined) delete process.env['DATAFORGE_DATA_DIR']
      else process.env['DATAFORGE_DATA_DIR'] = before
    }
  })
})

describe('detectIdColumns', () => {
  const t = (columns: string[], rows: string[][]) => ({ columns, rows })

  it('takes index and tuple_id anywhere, id only as first column, and only when error-free', () => {
    const rows = [['1', '7', 'x']]
    expect(detectIdColumns(t(['a', 'b', 'c'], rows), t(['index', 'id', 'name'], rows))).toEqual(['index'])
    expect(detectIdColumns(t(['a', 'b', 'c'], rows), t(['id', 'name', 'tuple_id'], rows))).toEqual(['id', 'tuple_id'])
    expect(detectIdColumns(t(['a', 'b', 'c'], rows), t(['ID', 'name', 'x'], rows))).toEqual(['ID'])
    expect(detectIdColumns(t(['a', 'b', 'c'], [['2', '7', 'x']]), t(['index', 'b', 'c'], rows))).toEqual([])
  })
})

describe('createRepairTask', () => {
  it('names the table, row and cell at fault in a malformed table (checked without zod)', async () => {
    const { createRepairTask } = await import('../../src/datasets/create-repair-task.js')
    const clean = { columns: ['id', 'city'], rows: [['1', 'Boston']] }
    const bad = (dirty: unknown) => () => createRepairTask({ name: 't', dirty: dirty as typeof clean, clean })
    expect(bad({ columns: ['id', 'city'], rows: [['1', 2]] })).toThrow(
      new InputError('createRepairTask(t).dirty.rows.0.1: expected a string (cells are literal text), got number'),
    )
    expect(bad({ columns: ['id', 'city'], rows: [['1']] })).toThrow(
      new InputError('createRepairTask(t).dirty.rows.0: row 0 has 1 cells, expected 2'),
    )
    expect(bad({ columns: ['id', 7], rows: [] })).toThrow(
      new InputError('createRepairTask(t).dirty.columns.1: expected a string, got number'),
    )
    expect(bad({ columns: ['id', 'city'] })).toThrow(
      new InputError('createRepairTask(t).dirty.rows: expected an array of rows, got undefined'),
    )
    expect(bad(null)).toThrow(new InputError('createRepairTask(t).dirty: expected a table { columns, rows }, got null'))
    expect(
      createRepairTask({ name: 't', dirty: { columns: ['id', 'city'], rows: [['1', 'Bostn']] }, clean }).info.id,
    ).toBe('t')
  })
})
