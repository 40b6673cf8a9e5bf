import { readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { afterEach, describe, expect, it } from 'vitest'
import { DataEngine, ToolError } from '../../../src/adapters/data-agent/index.js'
import { InputError } from '../../../src/core/errors.js'
import { tempDir } from '../../helpers/providers.js'

const opened: DataEngine[] = []
async function open(...args: Parameters<typeof DataEngine.open>): Promise<DataEngine> {
  const engine = await DataEngine.open(...args)
  opened.push(engine)
  return engine
}
afterEach(() => {
  for (const engine of opened.splice(0)) engine.close()
})

async function toolErrorOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise
  } catch (error) {
    if (error instanceof ToolError) return error.message
    throw error
  }
  throw new Error('expected a ToolError')
}

describe('data engine (DuckDB)', () => {
  it('types Table columns by sniffing every row, keeping cells exactly as given', async () => {
    const rows = Array.from({ length: 30_000 }, (_, i) => [
      String(i),
      String(i * 2),
      `2024-01-${String((i % 28) + 1).padStart(2, '0')}`,
    ])
    // One late value that is not a number: sniffing only the first rows would type the column wrongly and fail.
    rows[29_999]![1] = 'n/a'
    const engine = await open({
      big: { columns: ['id', 'value', 'day'], rows },
      odd: {
        columns: ['text', 'with space'],
        rows: [
          [' padded ', '1,5'],
          ['"quoted"', ''],
          ['two\nlines', '3'],
        ],
      },
    })
    expect(engine.relation('big')).toEqual({
      name: 'big',
      kind: 'table',
      rows: 30_000,
      columns: [
        { name: 'id', type: 'BIGINT' },
        { name: 'value', type: 'VARCHAR' },
        { name: 'day', type: 'DATE' },
      ],
    })
    const odd = await engine.query('SELECT * FROM odd', 10)
    expect(odd.rows).toEqual([
      [' padded ', '1,5'],
      ['"quoted"', null],
      ['two\nlines', '3'],
    ])
    expect((await engine.query('SELECT sum(id), max(day) FROM big', 10)).rows).toEqual([[449_985_000, '2024-01-28']])
  })

  it('loads CSV and Parquet files, then reads no other file', async () => {
    const dir = tempDir('dataforge-engine-files-')
    const csv = join(dir, 'people.csv')
    writeFileSync(csv, 'name,age\nAda,36\nBen,41\n')
    const parquet = join(dir, 'scores.parquet')
    const writer = await DuckDBInstance.create(':memory:')
    const connection = await writer.connect()
    await connection.run(
      `COPY (SELECT range AS id, range * 1.5 AS score FROM range(1000)) TO '${parquet}' (FORMAT parquet)`,
    )
    connection.closeSync()
    writer.closeSync()

    const engine = await open({ people: { csv }, scores: { parquet } })
    expect(engine.relation('people').columns).toEqual([
      { name: 'name', type: 'VARCHAR' },
      { name: 'age', type: 'BIGINT' },
    ])
    expect((await engine.query('SELECT count(*), sum(score) FROM scores', 5)).rows).toEqual([[1000, 749_250]])
    expect(await toolErrorOf(engine.query(`SELECT * FROM read_csv('${csv}')`, 5))).toContain(
      'file system operations are disabled by configuration',
    )
    expect(await toolErrorOf(engine.query(`SELECT * FROM read_parquet('${parquet}')`, 5))).toContain(
      'disabled by configuration',
    )
    expect(await toolErrorOf(engine.query(`SELECT * FROM glob('${dir}/*')`, 5))).toContain('disabled by configuration')
  })

  it('names what is wrong with bad sources', async () => {
    await expect(DataEngine.open({})).rejects.toThrow(new InputError('data agent: the session has no tables'))
    await expect(DataEngine.open({ 'my table': { columns: ['a'], rows: [] } })).rejects.toThrow(
      'data agent: table name "my table" must be a SQL identifier (letters, digits, underscore)',
    )
    const missing = join(tempDir(), 'absent.csv')
    await expect(DataEngine.open({ t: { csv: missing } })).rejects.toThrow(
      `data agent: table t cannot be loaded from ${missing}:`,
    )
  })

  it('saves results under names, refuses to shadow a session table, and tells what a bad query lacks', async () => {
    const engine = await open({
      t: {
        columns: ['k', 'v'],
        rows: [
          ['a', '1'],
          ['b', '2'],
          ['a', '3'],
        ],
      },
    })
    expect(await engine.save('per_k', 'SELECT k, sum(v) AS total FROM t GROUP BY k ORDER BY k;')).toMatchObject({
      kind: 'saved',
      rows: 2,
    })
    expect((await engine.query('SELECT * FROM per_k', 5)).rows).toEqual([
      ['a', 4],
      ['b', 2],
    ])
    // Saving again under the same name replaces the result.
    await engine.save('per_k', 'SELECT 1 AS one')
    expect(engine.relation('per_k').columns).toEqual([{ name: 'one', type: 'INTEGER' }])
    expect(await toolErrorOf(engine.save('t', 'SELECT 1'))).toBe('save: t is a session table; choose another name')
    // DuckDB's identifiers match case-insensitively: T is t.
    expect(await toolErrorOf(engine.save('T', 'SELECT 1'))).toBe('save: t is a session table; choose another name')
    expect(engine.relation('T').name).toBe('t')
    await engine.save('PER_K', 'SELECT 2 AS two')
    expect(engine.list().map((r) => r.name)).toEqual(['t', 'PER_K'])
    expect(await toolErrorOf(engine.save('bad name', 'SELECT 1'))).toContain('must be a SQL identifier')
    expect(await toolErrorOf(engine.query('SELECT missing FROM t', 5))).toMatch(
      /^Binder Error: Referenced column "missing" not found/,
    )
    expect(await toolErrorOf(engine.query('SELEC 1', 5))).toMatch(/^Parser Error: syntax error/)
    expect(await toolErrorOf(engine.query('   ', 5))).toBe('the query is empty')
  })

  it('keeps a query within the memory limit without spilling to disk', async () => {
    const cwd = process.cwd()
    const engine = await open({ t: { columns: ['a'], rows: [['1']] } }, { memoryLimit: '64MB' })
    expect(
      await toolErrorOf(
        engine.query('SELECT count(*) FROM (SELECT md5(range::VARCHAR) h FROM range(20000000) ORDER BY h)', 5),
      ),
    ).toMatch(/^Out of Memory Error/)
    expect(readdirSync(cwd)).not.toContain('.tmp')
    await expect(DataEngine.open({ t: { columns: ['a'], rows: [] } }, { memoryLimit: 'lots' })).rejects.toThrow(
      /^data agent: DuckDB refused the engine options \{"memoryLimit":"lots"\}/,
    )
  })

  it('interrupts a query or save asked to stop before DuckDB has prepared it, and only that statement', async () => {
    const engine = await open({ t: { columns: ['a'], rows: [['1']] } })
    const endless = 'SELECT count(*) FROM range(1000000000000) a WHERE a.range % 7 = 3'
    // Interrupted in the same tick the query is sent: DuckDB has not begun it, and would drop a single interrupt.
    const running = engine.query(endless, 5)
    engine.interrupt()
    expect(await toolErrorOf(running)).toMatch(/interrupt/i)
    const saving = engine.save('forever', endless)
    engine.interrupt()
    expect(await toolErrorOf(saving)).toMatch(/interrupt/i)
    // The next statement runs untouched.
    expect((await engine.query('SELECT count(*) FROM t', 5)).rows).toEqual([[1]])
    // With nothing running, an interrupt is a no-op.
    engine.interrupt()
    expect((await engine.query('SELECT 41 + 1', 5)).rows).toEqual([[42]])
  })

  it('is closed with its session', async () => {
    const engine = await DataEngine.open({ t: { columns: ['a'], rows: [['1']] } })
    engine.close()
    engine.close()
    await expect(engine.query('SELECT 1', 1)).rejects.toThrow('data agent: the session is closed')
  })
})
