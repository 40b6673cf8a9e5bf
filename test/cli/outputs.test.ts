import { existsSync } from 'node:fs'
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli, withTempDir } from '../helpers/cli-harness.js'

// Issue 28: where the CLI's outputs land. Each command has its own report folder, the files follow --output's
// name and folder, verify takes report folders only, export says what it writes.

const RUN = ['run', '--agent', 'baseline', '--dataset', 'synthetic', '--rows', '20', '--quiet']
const QA = ['qa', '--agent', 'mock-qa', '--suite', 'messy', '--limit', '2', '--quiet']

const sorted = async (dir: string) => (await readdir(dir)).sort()

describe('each command writes its own report folder', () => {
  it('run then qa with default paths: reports/run and reports/qa both verify; verify reports names them and exits 2', async () => {
    await withTempDir(async (dir) => {
      expect((await runCli(RUN, dir)).code).toBe(0)
      const qa = await runCli(QA, dir)
      expect(qa.code, qa.stderr).toBe(0)
      expect(qa.stdout).toContain('\nwrote reports/qa/qa.md, reports/qa/qa.html, reports/qa/qa.json, reports/qa/runs.jsonl, reports/qa/manifest.json\n')
      expect(await sorted(join(dir, 'reports'))).toEqual(['qa', 'run'])
      expect(await sorted(join(dir, 'reports/run'))).toEqual(['manifest.json', 'report.html', 'report.json', 'report.md', 'runs.jsonl'])
      expect((await runCli(['verify', 'reports/run'], dir)).code).toBe(0)
      expect((await runCli(['verify', 'reports/qa'], dir)).code).toBe(0)

      const parent = await runCli(['verify', 'reports'], dir)
      expect(parent.code).toBe(2)
      expect(parent.stderr).toBe('dataforge-evals: verify: reports is not a report folder (no manifest.json); report folders in it: reports/qa, reports/run\n')
    })
  })

  it('--output r.md names the HTML and the JSON after it and puts every file beside it, none in the working directory', async () => {
    await withTempDir(async (dir) => {
      const res = await runCli([...QA, '--output', 'out/r.md'], dir)
      expect(res.code, res.stderr).toBe(0)
      expect(res.stdout).toContain('\nwrote out/r.md, out/r.html, out/r.json, out/runs.jsonl, out/manifest.json\n')
      expect(await sorted(dir)).toEqual(['out'])
      expect((await runCli(['verify', 'out'], dir)).code).toBe(0)

      // --output-json alone names them too.
      expect((await runCli([...RUN, '--output-json', 'j/nightly.json'], dir)).code).toBe(0)
      expect(await sorted(join(dir, 'j'))).toEqual(['manifest.json', 'nightly.html', 'nightly.json', 'nightly.md', 'runs.jsonl'])
    })
  })

  it('a report into a folder holding another report is refused (exit 2, nothing run), and the other report still verifies', async () => {
    await withTempDir(async (dir) => {
      expect((await runCli(RUN, dir)).code).toBe(0)
      const before = await readFile(join(dir, 'reports/run/runs.jsonl'), 'utf8')
      const res = await runCli([...QA, '--output', 'reports/run/qa.md'], dir)
      expect(res.code).toBe(2)
      expect(res.stderr).toMatch(
        /^dataforge-evals: .*reports\/run holds another report: its manifest\.json lists report\.html, report\.json, report\.md, which this report would not rewrite; give it a folder of its own .*\n$/,
      )
      expect(res.stdout).toBe('')
      expect(await readFile(join(dir, 'reports/run/runs.jsonl'), 'utf8')).toBe(before)
      expect((await runCli(['verify', 'reports/run'], dir)).code).toBe(0)
      // The same report again into its own folder is no conflict.
      expect((await runCli(RUN, dir)).code).toBe(0)
    })
  })

  it('compare --github without an output puts pr-comment.md in reports/compare/, not in the working directory', async () => {
    await withTempDir(async (dir) => {
      expect((await runCli(RUN, dir)).code).toBe(0)
      const res = await runCli(['compare', 'reports/run', 'reports/run', '--github'], dir)
      expect(res.code, res.stderr).toBe(0)
      expect(res.stderr).toBe('github: wrote reports/compare/pr-comment.md\n')
      expect(await sorted(join(dir, 'reports'))).toEqual(['compare', 'run'])
      expect(existsSync(join(dir, 'pr-comment.md'))).toBe(false)
    })
  })
})

describe('verify takes report folders only', () => {
  it('refuses a folder without manifest.json in one line, exit 2', async () => {
    await withTempDir(async (dir) => {
      await writeFile(join(dir, 'notes.txt'), 'not a report')
      const res = await runCli(['verify', '.'], dir)
      expect(res.code).toBe(2)
      expect(res.stderr).toBe('dataforge-evals: verify: . is not a report folder (no manifest.json)\n')
      expect(res.stdout).toBe('')
    })
  })

  it('never walks .git or node_modules inside a report folder', async () => {
    await withTempDir(async (dir) => {
      expect((await runCli([...RUN, '--output', 'r.md'], dir)).code).toBe(0)
      for (const folder of ['.git/objects', 'node_modules/pkg']) {
        await mkdir(join(dir, folder), { recursive: true })
        await writeFile(join(dir, folder, 'file'), 'not the report')
      }
      const res = await runCli(['verify', '.'], dir)
      expect(res.stderr).toBe('')
      expect(res.stdout).toBe('verified .: 4 files match manifest.json\n')
      expect(res.code).toBe(0)
      // Any other stray folder is still a problem.
      await mkdir(join(dir, 'stray'))
      await writeFile(join(dir, 'stray/file'), 'x')
      const stray = await runCli(['verify', '.'], dir)
      expect(stray.code).toBe(1)
      expect(stray.stderr).toBe('dataforge-evals verify: stray/file: in the folder but not listed in the manifest\ndataforge-evals verify: .: 1 problem\n')
    })
  })
})

describe('export says what it writes', () => {
  it('into a report folder it updates the manifest; a new folder gets one; any other folder gets the Parquet file alone', async () => {
    await withTempDir(async (dir) => {
      expect((await runCli(RUN, dir)).code).toBe(0)
      const into = await runCli(['export', 'reports/run', '--parquet', 'reports/run/runs.parquet'], dir)
      expect(into.stdout).toMatch(/^wrote reports\/run\/runs\.parquet: 1 row, \d+ bytes; updated reports\/run\/manifest\.json\n$/)
      expect((await runCli(['verify', 'reports/run'], dir)).code).toBe(0)

      const fresh = await runCli(['export', 'reports/run', '--parquet', 'exports/runs.parquet'], dir)
      expect(fresh.stdout).toMatch(/^wrote exports\/runs\.parquet: 1 row, \d+ bytes; created exports\/manifest\.json\n$/)
      expect(await sorted(join(dir, 'exports'))).toEqual(['manifest.json', 'runs.parquet'])

      await mkdir(join(dir, 'x'))
      await writeFile(join(dir, 'x/data.csv'), 'a\n1\n')
      const other = await runCli(['export', 'reports/run', '--parquet', 'x/out.parquet'], dir)
      expect(other.code, other.stderr).toBe(0)
      expect(other.stdout).toMatch(
        /^wrote x\/out\.parquet: 1 row, \d+ bytes; no manifest written: x holds other files and no manifest\.json, so it is not a report folder \(verify does not cover this file\)\n$/,
      )
      expect(await sorted(join(dir, 'x'))).toEqual(['data.csv', 'out.parquet'])
      expect(existsSync(join(dir, 'manifest.json'))).toBe(false)
    })
  })
})
