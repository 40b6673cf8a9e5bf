import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli, withTempDir } from '../helpers/cli-harness.js'

// Issue 26 item 10: a dirty file whose columns are in another order than the clean file's is aligned by name,
// or refused (exit 2, naming both orders) when the names differ too; never aligned by position in silence.

const CLEAN = 'id,name,city,zip,phone\n1,Ann,Paris,75001,111\n2,Bob,Rome,00100,222\n3,Cara,Oslo,0150,333\n'
// The same table, columns shuffled, with two real errors: Bob's city and Cara's phone.
const DIRTY_SHUFFLED = 'phone,city,id,zip,name\n111,Paris,1,75001,Ann\n222,Rme,2,00100,Bob\n334,Oslo,3,0150,Cara\n'

async function run(dir: string, dirty: string, clean = CLEAN) {
  await writeFile(join(dir, 'clean.csv'), clean)
  await writeFile(join(dir, 'dirty.csv'), dirty)
  return runCli(
    [
      'run',
      '--agent',
      'noop',
      '--dataset',
      'shuffled',
      '--dirty-csv',
      'dirty.csv',
      '--clean-csv',
      'clean.csv',
      '--quiet',
    ],
    dir,
  )
}

describe('dirty and clean CSVs with columns in different orders', () => {
  it('the same names in another order are aligned by name: only the real errors count', async () => {
    await withTempDir(async (dir) => {
      const r = await run(dir, DIRTY_SHUFFLED)
      expect(r.stderr).toBe('')
      expect(r.code).toBe(0)
      const report = JSON.parse(await readFile(join(dir, 'reports', 'run', 'report.json'), 'utf8'))
      expect(report.records[0]).toMatchObject({ tp: 0, fp: 0, fn: 2 })
      expect(report.reproducibility.datasets[0]).toMatchObject({ columns: 5 })
      expect(Object.keys(report.aggregates[0].perColumn).sort()).toEqual(['city', 'id', 'name', 'phone', 'zip'])
      expect(report.aggregates[0].perColumn.city).toMatchObject({ fn: 1 })
      expect(report.aggregates[0].perColumn.phone).toMatchObject({ fn: 1 })
    })
  })

  it('names matched case and punctuation aside (Raha style) keep aligning, by name when reordered', async () => {
    await withTempDir(async (dir) => {
      const r = await run(
        dir,
        'Phone,City,ID,Zip,Name\n111,Paris,1,75001,Ann\n222,Rme,2,00100,Bob\n334,Oslo,3,0150,Cara\n',
      )
      expect(r.code, r.stderr).toBe(0)
      const report = JSON.parse(await readFile(join(dir, 'reports', 'run', 'report.json'), 'utf8'))
      expect(report.records[0]).toMatchObject({ fn: 2 })
    })
  })

  it('renamed columns at the same positions (Raha hospital style) are aligned by position as before', async () => {
    await withTempDir(async (dir) => {
      const r = await run(
        dir,
        'id,full_name,town,zip,phone_number\n1,Ann,Paris,75001,111\n2,Bob,Rme,00100,222\n3,Cara,Oslo,0150,334\n',
      )
      expect(r.code, r.stderr).toBe(0)
      const report = JSON.parse(await readFile(join(dir, 'reports', 'run', 'report.json'), 'utf8'))
      expect(report.records[0]).toMatchObject({ fn: 2 })
    })
  })

  it('different names and a shared column moved: exit 2 naming the files, the column and both orders', async () => {
    await withTempDir(async (dir) => {
      const r = await run(
        dir,
        'phone,town,id,zip,name\n111,Paris,1,75001,Ann\n222,Rme,2,00100,Bob\n334,Oslo,3,0150,Cara\n',
      )
      expect(r.code).toBe(2)
      expect(r.stderr).toContain('have their columns in different orders and not the same names')
      expect(r.stderr).toMatch(/column "id" is column 3 in \S*dirty\.csv but column 1 in \S*clean\.csv/)
      expect(r.stderr).toContain('["phone", "town", "id", "zip", "name"]')
      expect(r.stderr).toContain('["id", "name", "city", "zip", "phone"]')
      expect(r.stderr).not.toContain('internal error')
    })
  })
})
