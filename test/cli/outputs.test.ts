import { existsSync } from 'node:fs'
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises'
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
      expect(qa.stdout).toContain(
        '\nwrote reports/qa/qa.md, reports/qa/qa.html, reports/qa/qa.json, reports/qa/qa.runs.jsonl, reports/qa/manifest.json\n',
      )
      expect(await sorted(join(dir, 'reports'))).toEqual(['qa', 'run'])
      expect(await sorted(join(dir, 'reports/run'))).toEqual([
        'manifest.json',
        'report.html',
        'report.json',
        'report.md',
        'runs.jsonl',
      ])
      expect((await runCli(['verify', 'reports/run'], dir)).code).toBe(0)
      expect((await runCli(['verify', 'reports/qa'], dir)).code).toBe(0)

      const parent = await runCli(['verify', 'reports'], dir)
      expect(parent.code).toBe(2)
      expect(parent.stderr).toBe(
        'dataforge-evals: verify: reports is not a report folder (no manifest.json); report folders in it: reports/qa, reports/run\n',
      )
    })
  })

  it('--output r.md names the HTML and the JSON after it and puts every file beside it, none in the working directory', async () => {
    await withTempDir(async (dir) => {
      const res = await runCli([...QA, '--output', 'out/r.md'], dir)
      expect(res.code, res.stderr).toBe(0)
      expect(res.stdout).toContain('\nwrote out/r.md, out/r.html, out/r.json, out/r.runs.jsonl, out/manifest.json\n')
      expect(await sorted(dir)).toEqual(['out'])
      expect((await runCli(['verify', 'out'], dir)).code).toBe(0)

      // --output-json alone names them too.
      expect((await runCli([...RUN, '--output-json', 'j/nightly.json'], dir)).code).toBe(0)
      expect(await sorted(join(dir, 'j'))).toEqual([
        'manifest.json',
        'nightly.html',
        'nightly.json',
        'nightly.md',
        'nightly.runs.jsonl',
      ])
    })
  })

  it('one folder holds many reports, each named by its stem: the seed’s two commands, then verify, report and compare by stem', async () => {
    await withTempDir(async (dir) => {
      // The seed's README: two reports into one reports/ folder, the second with its JSON named too.
      const hospital = await runCli([...RUN, '--output', 'reports/groq-hospital.md'], dir)
      expect(hospital.code, hospital.stderr).toBe(0)
      const smoke = await runCli(
        [...QA, '--output', 'reports/groq-synthetic-smoke.md', '--output-json', 'reports/groq-synthetic-smoke.json'],
        dir,
      )
      expect(smoke.code, smoke.stderr).toBe(0)
      expect(smoke.stdout).toContain(
        '\nwrote reports/groq-synthetic-smoke.md, reports/groq-synthetic-smoke.html, reports/groq-synthetic-smoke.json, reports/groq-synthetic-smoke.runs.jsonl, reports/manifest.json\n',
      )
      const files = ['groq-hospital.html', 'groq-hospital.json', 'groq-hospital.md', 'groq-hospital.runs.jsonl']
      const smokeFiles = files.map((f) => f.replace('groq-hospital', 'groq-synthetic-smoke'))
      expect(await sorted(join(dir, 'reports'))).toEqual([...files, ...smokeFiles, 'manifest.json'])
      const manifest = JSON.parse(await readFile(join(dir, 'reports/manifest.json'), 'utf8'))
      expect(manifest.files.map((f: { path: string }) => f.path)).toEqual([...files, ...smokeFiles])
      expect(manifest.rowCounts).toEqual({
        'groq-hospital.json': 1,
        'groq-hospital.runs.jsonl': 1,
        'groq-synthetic-smoke.json': 2,
        'groq-synthetic-smoke.runs.jsonl': 2,
      })
      const verified = await runCli(['verify', 'reports'], dir)
      expect(verified.code, verified.stderr).toBe(0)
      expect(verified.stdout).toBe('verified reports: 8 files match manifest.json\n')

      // verify checks each report's JSON against its own runs file.
      const runs = join(dir, 'reports/groq-hospital.runs.jsonl')
      const before = await readFile(runs, 'utf8')
      await writeFile(runs, '')
      const broken = await runCli(['verify', 'reports'], dir)
      expect(broken.code).toBe(1)
      expect(broken.stderr).toContain('groq-hospital.json: 1 records but groq-hospital.runs.jsonl has 0 rows')
      await writeFile(runs, before)

      // A report again replaces its own files and keeps the other's.
      expect((await runCli([...RUN, '--output', 'reports/groq-hospital.md'], dir)).code).toBe(0)
      expect((await runCli(['verify', 'reports'], dir)).code).toBe(0)
      expect(JSON.parse(await readFile(join(dir, 'reports/manifest.json'), 'utf8')).files).toHaveLength(8)

      // Readers take a stem, a report's file or its runs file; the folder alone is ambiguous.
      const html = await runCli(['report', 'reports/groq-synthetic-smoke', '--html', 'pages/smoke.html'], dir)
      expect(html.code, html.stderr).toBe(0)
      expect(html.stdout).toMatch(/^wrote pages\/smoke\.html: 2 runs in /)
      expect(
        (await runCli(['compare', 'reports/groq-hospital.md', 'reports/groq-hospital.runs.jsonl'], dir)).code,
      ).toBe(0)
      const ambiguous = await runCli(['report', 'reports', '--html', 'pages/x.html'], dir)
      expect(ambiguous.code).toBe(2)
      expect(ambiguous.stderr).toMatch(
        /reports holds 2 reports \(groq-hospital\.runs\.jsonl, groq-synthetic-smoke\.runs\.jsonl\); give one of them, or its stem/,
      )
    })
  })

  it('a report file changed by hand since the manifest listed it is not listed again by the next report (exit 2, naming it)', async () => {
    await withTempDir(async (dir) => {
      expect((await runCli([...RUN, '--output', 'reports/a.md'], dir)).code).toBe(0)
      await writeFile(join(dir, 'reports/a.md'), 'edited by hand\n')
      const res = await runCli([...QA, '--output', 'reports/b.md'], dir)
      expect(res.code).toBe(2)
      expect(res.stderr).toMatch(
        /reports\/a\.md: changed since .*reports\/manifest\.json listed it; listing it again would hide the change/,
      )
      expect(await sorted(join(dir, 'reports'))).toEqual(['a.html', 'a.json', 'a.md', 'a.runs.jsonl', 'manifest.json'])
    })
  })

  it('folders written before stems keep working: run’s report stem keeps runs.jsonl; a qa report replaces its old runs.jsonl', async () => {
    await withTempDir(async (dir) => {
      expect((await runCli(RUN, dir)).code).toBe(0)
      expect(await sorted(join(dir, 'reports/run'))).toEqual([
        'manifest.json',
        'report.html',
        'report.json',
        'report.md',
        'runs.jsonl',
      ])
      // reports/qa as the version before stems left it: qa.* beside runs.jsonl.
      expect((await runCli(QA, dir)).code).toBe(0)
      await rename(join(dir, 'reports/qa/qa.runs.jsonl'), join(dir, 'reports/qa/runs.jsonl'))
      const manifestPath = join(dir, 'reports/qa/manifest.json')
      await writeFile(manifestPath, (await readFile(manifestPath, 'utf8')).replaceAll('qa.runs.jsonl', 'runs.jsonl'))
      expect((await runCli(['verify', 'reports/qa'], dir)).code).toBe(0)
      expect((await runCli(['compare', 'reports/qa', 'reports/qa'], dir)).code).toBe(0)
      expect((await runCli(QA, dir)).code).toBe(0)
      expect(await sorted(join(dir, 'reports/qa'))).toEqual([
        'manifest.json',
        'qa.html',
        'qa.json',
        'qa.md',
        'qa.runs.jsonl',
      ])
      expect((await runCli(['verify', 'reports/qa'], dir)).code).toBe(0)
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
      expect(stray.stderr).toBe(
        'dataforge-evals verify: stray/file: in the folder but not listed in the manifest\ndataforge-evals verify: .: 1 problem\n',
      )
    })
  })
})

describe('export says what it writes', () => {
  it('into a report folder it updates the manifest; a new folder gets one; any other folder gets the Parquet file alone', async () => {
    await withTempDir(async (dir) => {
      expect((await runCli(RUN, dir)).code).toBe(0)
      const into = await runCli(['export', 'reports/run', '--parquet', 'reports/run/runs.parquet'], dir)
      expect(into.stdout).toMatch(
        /^wrote reports\/run\/runs\.parquet: 1 row, \d+ bytes; updated reports\/run\/manifest\.json\n$/,
      )
      expect((await runCli(['verify', 'reports/run'], dir)).code).toBe(0)

      const fresh = await runCli(['export', 'reports/run', '--parquet', 'exports/runs.parquet'], dir)
      expect(fresh.stdout).toMatch(
        /^wrote exports\/runs\.parquet: 1 row, \d+ bytes; created exports\/manifest\.json\n$/,
      )
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
