import { mkdir, rename, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { InputError } from '../../src/core/errors.js'
import { loadWtqSync } from '../../src/datasets/wtq/load.js'
import { runCli, withTempDir } from '../helpers/cli-harness.js'

// Issue 26 item 11: the WikiTableQuestions loader refuses a table CSV with an unterminated quote, a TSV with
// no questions and repeated question ids: exit 2 naming the file and the line.

const HEADER = 'id\tutterance\tcontext\ttargetValue\n'

async function release(dir: string, tsv: string, table = 'a,b\n1,2\n'): Promise<void> {
  await mkdir(join(dir, 'data'), { recursive: true })
  await mkdir(join(dir, 'csv/1-csv'), { recursive: true })
  await writeFile(join(dir, 'data/pristine-unseen-tables.tsv'), tsv)
  await writeFile(join(dir, 'csv/1-csv/1.csv'), table)
}

const qa = (dir: string) => runCli(['qa', '--agent', 'mock-qa', '--suite', 'wtq', '--data-dir', 'wtq', '--quiet'], dir)

describe('strict WikiTableQuestions parsing', () => {
  it('a table whose quote is left open is refused, naming the table file and the line the quote opened on', async () => {
    await withTempDir(async (dir) => {
      // Line 3 opens a quote that only the quote of line 4's field closes: Python's reader would merge the rows.
      await release(join(dir, 'wtq'), `${HEADER}x-1\thow many?\tcsv/1-csv/1.csv\t3\n`, 'a,b\n1,2\n3,"open\n4,"x"\n')
      const r = await qa(dir)
      expect(r.code).toBe(2)
      expect(r.stderr).toMatch(
        /csv\/1-csv\/1\.csv:4: "x" after the closing quote of a quoted field \(the quote opened on line 3 was not closed there\)/,
      )
      await writeFile(join(dir, 'wtq/csv/1-csv/1.csv'), 'a,b\n1,2\n3,"open\n')
      const eof = await qa(dir)
      expect(eof.code).toBe(2)
      expect(eof.stderr).toMatch(
        /csv\/1-csv\/1\.csv:3: a quoted field opened on this line is not closed before the end of the file/,
      )
    })
  })

  it('a header-only TSV (0 questions) is refused', async () => {
    await withTempDir(async (dir) => {
      await release(join(dir, 'wtq'), HEADER)
      const r = await qa(dir)
      expect(r.code).toBe(2)
      expect(r.stderr).toMatch(
        /data\/pristine-unseen-tables\.tsv:1: a header and no example lines: no questions to ask/,
      )
    })
  })

  it('a repeated question id is refused, naming both lines', async () => {
    await withTempDir(async (dir) => {
      await release(
        join(dir, 'wtq'),
        `${HEADER}x-1\thow many?\tcsv/1-csv/1.csv\t3\nx-2\tfirst a?\tcsv/1-csv/1.csv\t1\nx-1\tagain?\tcsv/1-csv/1.csv\t4\n`,
      )
      const r = await qa(dir)
      expect(r.code).toBe(2)
      expect(r.stderr).toMatch(/pristine-unseen-tables\.tsv:4: id "x-1" repeats line 2; question ids must be unique/)
      expect(() => loadWtqSync({ dataDir: join(dir, 'wtq') })).toThrow(InputError)
    })
  })

  it('a table or a TSV that is a symlink out of the data folder is never read: exit 2 naming it', async () => {
    await withTempDir(async (dir) => {
      await release(join(dir, 'wtq'), `${HEADER}x-1\thow many?\tcsv/1-csv/1.csv\t3\n`)
      await writeFile(join(dir, 'clean.csv'), 'a,b\n9,9\n')
      await rename(join(dir, 'wtq/csv/1-csv/1.csv'), join(dir, 'gone.csv'))
      await symlink(join(dir, 'clean.csv'), join(dir, 'wtq/csv/1-csv/1.csv'))
      const table = await qa(dir)
      expect(table.code).toBe(2)
      expect(table.stderr).toMatch(/csv\/1-csv\/1\.csv: leads out of the data folder .*wtq \(a link to .*clean\.csv\)/)
      expect(table.stdout).toBe('')

      await writeFile(join(dir, 'q.tsv'), `${HEADER}x-1\thow many?\tcsv/1-csv/1.csv\t3\n`)
      await rename(join(dir, 'wtq/data/pristine-unseen-tables.tsv'), join(dir, 'gone.tsv'))
      await symlink(join(dir, 'q.tsv'), join(dir, 'wtq/data/pristine-unseen-tables.tsv'))
      const tsv = await qa(dir)
      expect(tsv.code).toBe(2)
      expect(tsv.stderr).toMatch(/pristine-unseen-tables\.tsv: leads out of the data folder/)
    })
  })

  it('a well-formed release still loads', async () => {
    await withTempDir(async (dir) => {
      await release(
        join(dir, 'wtq'),
        `${HEADER}x-1\thow many?\tcsv/1-csv/1.csv\t3\n`,
        'a,b\n"q \\"x\\"",2\n"multi\nline",3\n',
      )
      const [example] = loadWtqSync({ dataDir: join(dir, 'wtq') })
      expect(example!.table).toEqual({
        columns: ['a', 'b'],
        rows: [
          ['q "x"', '2'],
          ['multi\nline', '3'],
        ],
      })
    })
  })
})
