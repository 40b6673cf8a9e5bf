import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli, withTempDir } from '../helpers/cli-harness.js'

const RUN = ['run', '--dataset', 'synthetic', '--rows', '20', '--quiet']

describe('--timestamp and summary', () => {
  it('--timestamp leaves dated copies beside the latest report; summary DIR writes one table per suite from the newest report of each', async () => {
    await withTempDir(async (dir) => {
      expect((await runCli([...RUN, '--agent', 'noop', '--output', 'reports/old.md'], dir)).code).toBe(0)
      const latest = await runCli([...RUN, '--agent', 'baseline', '--output', 'reports/nightly.md', '--timestamp'], dir)
      expect(latest.code, latest.stderr).toBe(0)
      const runDate: string = JSON.parse(await readFile(join(dir, 'reports/nightly.json'), 'utf8')).reproducibility
        .runDateUtc
      const stamp = runDate.replace(/\.\d+Z$/, 'Z').replaceAll(':', '')
      expect(stamp).toMatch(/^\d{4}-\d\d-\d\dT\d{6}Z$/)
      expect(latest.stdout).toContain(
        `reports/nightly.${stamp}.md, reports/nightly.${stamp}.json, reports/manifest.json`,
      )
      // The dated copy is the report as written: the same Markdown, the same JSON (records included).
      for (const ext of ['md', 'json']) {
        expect(await readFile(join(dir, `reports/nightly.${stamp}.${ext}`), 'utf8')).toBe(
          await readFile(join(dir, `reports/nightly.${ext}`), 'utf8'),
        )
      }
      expect(
        (
          await runCli(
            [
              'qa',
              '--agent',
              'mock-qa',
              '--suite',
              'bespoke,hard',
              '--limit',
              '2',
              '--quiet',
              '--output',
              'reports/smoke.md',
            ],
            dir,
          )
        ).code,
      ).toBe(0)
      expect((await runCli(['verify', 'reports'], dir)).code).toBe(0)

      const summary = await runCli(['summary', 'reports'], dir)
      expect(summary.code, summary.stderr).toBe(0)
      expect(summary.stdout).toBe('wrote reports/SUMMARY.md: 3 suites from 4 reports; updated reports/manifest.json\n')
      const text = await readFile(join(dir, 'reports/SUMMARY.md'), 'utf8')
      expect(text.match(/^## .*/gm)).toEqual(['## bespoke', '## hard', '## synthetic'])
      // synthetic from the newest report that ran it (the latest, not the dated copy of the same run, not old.json).
      expect(text).toContain(
        `## synthetic\n\nFrom \`nightly.json\` (run), run ${runDate}.\n\n| group | Score [95% CI] | F1 | trials done/asked | failures |\n| --- | --- | --- | --- | --- |\n| baseline · synthetic |`,
      )
      expect(text).not.toContain('old.json')
      expect(text).toMatch(
        /## hard\n\nFrom `smoke\.json` \(qa\), run .*\n\n\| group .*\n\| --- .*\n\| mock-qa · hard · [^|]+ \| 1\.00 \[/,
      )
      expect((await runCli(['verify', 'reports'], dir)).code).toBe(0)
      // Again: the same text (it diffs), the manifest updated in place.
      expect((await runCli(['summary', 'reports'], dir)).code).toBe(0)
      expect(await readFile(join(dir, 'reports/SUMMARY.md'), 'utf8')).toBe(text)
      expect((await readdir(join(dir, 'reports'))).filter((f) => f.startsWith('nightly.'))).toHaveLength(6)
    })
  })

  it('a folder without reports is exit 2', async () => {
    await withTempDir(async (dir) => {
      const res = await runCli(['summary', '.'], dir)
      expect(res.code).toBe(2)
      expect(res.stderr).toMatch(/summary: \. holds no JSON report/)
    })
  })
})
