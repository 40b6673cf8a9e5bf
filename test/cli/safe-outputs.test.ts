import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { commitFiles } from '../../src/files/write-atomic.js'
import { verifyDir } from '../../src/report-builder/manifest.js'
import { writeReportFolder } from '../../src/report-builder/write-folder.js'
import { commitReportFolderLocked } from '../../src/report-builder/write-report.js'
import { runCli, withTempDir } from '../helpers/cli-harness.js'

const RUN = ['run', '--agent', 'baseline', '--dataset', 'synthetic', '--rows', '30', '--quiet']

async function refused(dir: string, extra: string[], pattern: RegExp): Promise<void> {
  const res = await runCli([...RUN, ...extra], dir)
  expect(res.code, res.stderr).toBe(2)
  expect(res.stderr.trim().split('\n')).toHaveLength(1)
  expect(res.stderr).toMatch(pattern)
  expect(res.stdout).toBe('')
}

describe('output paths are checked before any agent runs', () => {
  it('refuses two outputs on one path, an output outside the report folder, folders and uncreatable folders', async () => {
    await withTempDir(async (dir) => {
      await refused(
        dir,
        ['--output', 'out/x.md', '--output-json', 'out/x.json', '--output-html', 'out/x.md'],
        /--output-html and --output are the same file/,
      )
      // A manifest reads .json files as reports and .jsonl files as run records: no other output takes those names.
      await refused(
        dir,
        ['--output', 'out/x.json', '--output-json', 'out/x.json'],
        /--output out\/x\.json: a report folder reads \.json files as JSON reports; give this file another name \(NAME\.md\)/,
      )
      await refused(
        dir,
        ['--output', 'out/runs.jsonl', '--output-json', 'out/r.json'],
        /--output out\/runs\.jsonl: a report folder reads \.jsonl files as run records/,
      )
      await refused(
        dir,
        ['--output-json', 'out/r.jsonl'],
        /--output-json out\/r\.jsonl: a report folder reads \.jsonl files as run records; give this file another name \(NAME\.json\)/,
      )
      await refused(
        dir,
        ['--output', 'out/r.md', '--output-json', 'out/manifest.json'],
        /manifest\.json \(beside --output-json\) and --output-json are the same file/,
      )
      await refused(
        dir,
        ['--output', 'md/r.md', '--output-json', 'json/r.json'],
        /--output .*md\/r\.md\) is outside the report folder .*json; put it there so its manifest\.json can cover it/,
      )
      await mkdir(join(dir, 'out/r.md'), { recursive: true })
      await refused(
        dir,
        ['--output', 'out/r.md', '--output-json', 'out/r.json'],
        /--output .* is a folder, not a regular file/,
      )
      await writeFile(join(dir, 'plain'), 'x')
      await refused(
        dir,
        ['--output', 'plain/sub/r.md', '--output-json', 'plain/sub/r.json'],
        /plain\/sub: cannot create the report folder: ENOTDIR/,
      )
      expect((await readdir(dir)).sort()).toEqual(['out', 'plain'])
      expect(await readdir(join(dir, 'out'))).toEqual(['r.md'])
    })
  })

  it('never replaces a device, FIFO or symlink', async () => {
    await withTempDir(async (dir) => {
      await refused(
        dir,
        ['--output', '/dev/null', '--output-json', '/dev/r.json'],
        /--output \(\/dev\/null\): is a device or special file, not a regular file/,
      )
      await mkdir(join(dir, 'out'))
      execFileSync('mkfifo', [join(dir, 'out/r.md')])
      await refused(dir, ['--output', 'out/r.md', '--output-json', 'out/r.json'], /--output .*: is a FIFO/)
      await mkdir(join(dir, 'lnk'))
      await writeFile(join(dir, 'target.json'), 'keep me')
      await symlink(join(dir, 'target.json'), join(dir, 'lnk/r.json'))
      await refused(
        dir,
        ['--output', 'lnk/r.md', '--output-json', 'lnk/r.json'],
        /--output-json .*: is a symlink; refusing to replace it/,
      )
      expect(await readFile(join(dir, 'target.json'), 'utf8')).toBe('keep me')
      expect(await readdir(join(dir, 'lnk'))).toEqual(['r.json'])
    })
  })

  it('a lock held by a live run refuses a second writer at once; a dead run’s lock and temp files are cleaned up', async () => {
    await withTempDir(async (dir) => {
      await mkdir(join(dir, 'reports/run'), { recursive: true })
      const host = (await import('node:os')).hostname()
      await writeFile(join(dir, 'reports/run/.dataforge.lock'), JSON.stringify({ pid: process.pid, host }))
      await refused(dir, [], /reports\/run\/\.dataforge\.lock: another run \(pid \d+ on .*\) is writing this folder/)

      const dead = execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
        encoding: 'utf8',
      })
      await writeFile(join(dir, 'reports/run/.dataforge.lock'), JSON.stringify({ pid: Number(dead), host }))
      await writeFile(join(dir, `reports/run/.report.json.${dead}.1700000000000.tmp`), 'half a report')
      const res = await runCli(RUN, dir)
      expect(res.code, res.stderr).toBe(0)
      expect(res.stdout).toMatch(
        /wrote reports\/run\/report\.md, reports\/run\/report\.html, reports\/run\/report\.json, reports\/run\/runs\.jsonl, reports\/run\/manifest\.json/,
      )
      expect((await readdir(join(dir, 'reports/run'))).sort()).toEqual([
        'manifest.json',
        'report.html',
        'report.json',
        'report.md',
        'runs.jsonl',
      ])
      expect((await verifyDir(join(dir, 'reports/run'))).ok).toBe(true)
    })
  })

  it('commits several files as one unit: a failure while staging leaves nothing new', async () => {
    await withTempDir(async (dir) => {
      await writeFile(join(dir, 'blocker'), 'a file where a folder should be')
      const files = new Map([
        [join(dir, 'a.json'), '{}'],
        [join(dir, 'blocker/b.json'), '{}'],
      ])
      await expect(commitFiles(files)).rejects.toThrow()
      expect((await readdir(dir)).sort()).toEqual(['blocker'])
      expect(existsSync(join(dir, 'a.json'))).toBe(false)
    })
  })

  it('a report folder whose files are staged as they render: a renderer that throws after others were staged leaves the folder as it was', async () => {
    await withTempDir(async (dir) => {
      await writeFile(join(dir, 'leaderboard.md'), 'the previous run')
      const contents = new Map<string, string | (() => string)>([
        [join(dir, 'leaderboard.md'), () => 'this run'],
        [join(dir, 'runs.jsonl'), ''],
        [
          join(dir, 'report.json'),
          () => {
            throw new Error('renderer failed')
          },
        ],
      ])
      await expect(commitReportFolderLocked({ dir, contents, records: [] })).rejects.toThrow('renderer failed')
      expect((await readdir(dir)).sort()).toEqual(['leaderboard.md'])
      expect(await readFile(join(dir, 'leaderboard.md'), 'utf8')).toBe('the previous run')
    })
  })
})

describe('verify is strict about what the folder holds', () => {
  it('fails on unlisted files, an empty manifest and a report file the manifest lacks', async () => {
    await withTempDir(async (dir) => {
      expect((await runCli(RUN, dir)).code).toBe(0)
      const reports = join(dir, 'reports/run')
      expect((await runCli(['verify', 'reports/run'], dir)).code).toBe(0)

      await mkdir(join(reports, 'sub'))
      await writeFile(join(reports, 'sub/notes.txt'), 'stray')
      let res = await runCli(['verify', 'reports/run'], dir)
      expect(res.code).toBe(1)
      expect(res.stderr).toMatch(/sub\/notes\.txt: in the folder but not listed in the manifest/)
      await writeFile(join(reports, 'sub/notes.txt'), '')
      execFileSync('rm', ['-r', join(reports, 'sub')])

      const manifest = JSON.parse(await readFile(join(reports, 'manifest.json'), 'utf8'))
      const withoutRuns = {
        ...manifest,
        files: manifest.files.filter((f: { path: string }) => f.path !== 'runs.jsonl'),
        rowCounts: { 'report.json': 1 },
      }
      await writeFile(join(reports, 'manifest.json'), JSON.stringify(withoutRuns))
      res = await runCli(['verify', 'reports/run'], dir)
      expect(res.code).toBe(1)
      expect(res.stderr).toMatch(/runs\.jsonl: in the folder but not listed in the manifest/)

      await writeFile(
        join(reports, 'manifest.json'),
        JSON.stringify({ ...manifest, files: [], rowCounts: {}, configIds: [] }),
      )
      res = await runCli(['verify', 'reports/run'], dir)
      expect(res.code).toBe(1)
      expect(res.stderr).toMatch(/manifest\.json: lists no files/)

      // The reporter's folder keeps baseline.json beside the reports: its manifest lists it.
      const report = JSON.parse(await readFile(join(reports, 'report.json'), 'utf8'))
      await mkdir(join(dir, 'evals'))
      await writeFile(join(dir, 'evals/baseline.json'), await readFile(join(reports, 'report.json')))
      await writeReportFolder(join(dir, 'evals'), report, {})
      expect(await verifyDir(join(dir, 'evals'))).toMatchObject({ ok: true, files: 5 }) // report.html by default
    })
  })
})
