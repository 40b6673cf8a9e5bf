import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { renderRunsJsonl } from '../../../src/report-builder/write-report.js'
import { runCli, withTempDir } from '../../helpers/cli-harness.js'
import { repairRecords } from './report.fixture.js'

const rowsOf = (html: string) => [...html.matchAll(/<tr data-group="([^"]+)"/g)].map((m) => m[1])

describe('report.html from the CLI', () => {
  it('run writes report.html beside report.json, covered by the manifest, and `report` rebuilds it from runs.jsonl or report.json', async () => {
    await withTempDir(async (dir) => {
      const run = await runCli(
        ['run', '--agent', 'baseline,noop', '--dataset', 'synthetic', '--rows', '40', '--trials', '2', '--quiet'],
        dir,
      )
      expect(run.stderr).toBe('')
      expect(run.code).toBe(0)
      expect(run.stdout).toContain('reports/run/report.html')
      const html = await readFile(join(dir, 'reports/run/report.html'), 'utf8')
      expect(rowsOf(html)).toEqual(['baseline · synthetic', 'noop · synthetic'])
      expect(html).toContain('<figure class="chart" id="score-0-synthetic"')
      const manifest = JSON.parse(await readFile(join(dir, 'reports/run/manifest.json'), 'utf8'))
      expect(JSON.stringify(manifest)).toContain('report.html')
      expect((await runCli(['verify', 'reports/run'], dir)).code).toBe(0)

      const fromJsonl = await runCli(['report', 'reports/run/runs.jsonl', '--html', 'out/from-jsonl.html'], dir)
      expect(fromJsonl.stderr).toBe('')
      expect(fromJsonl.code).toBe(0)
      expect(fromJsonl.stdout).toMatch(
        /^wrote out\/from-jsonl\.html: 4 runs in 2 groups, \d+ bytes; created out\/manifest\.json\n$/,
      )
      const rebuilt = await readFile(join(dir, 'out/from-jsonl.html'), 'utf8')
      expect(rowsOf(rebuilt)).toEqual(['baseline · synthetic', 'noop · synthetic'])
      expect((await runCli(['verify', 'out'], dir)).code).toBe(0)

      // From the report folder: report.json's reproducibility block (dataset shape and sizes) is kept as written.
      expect(
        (await runCli(['report', 'reports/run', '--html', 'out/from-folder.html', '--title', 'nightly'], dir)).code,
      ).toBe(0)
      const fromFolder = await readFile(join(dir, 'out/from-folder.html'), 'utf8')
      expect(fromFolder).toContain('<title>nightly</title>')
      expect(fromFolder).toMatch(
        /<td>synthetic<\/td><td>synthetic<\/td><td class="num">\d+<\/td><td class="num">40 × \d+<\/td>/,
      )
      // Part of the runs beside that report.json: the block is rebuilt from the records, not taken from another run.
      const lines = (await readFile(join(dir, 'reports/run/runs.jsonl'), 'utf8')).trim().split('\n')
      await writeFile(join(dir, 'reports/run/partial.jsonl'), `${lines.slice(0, 2).join('\n')}\n`)
      expect((await runCli(['report', 'reports/run/partial.jsonl', '--html', 'out/partial.html'], dir)).code).toBe(0)
      const partial = await readFile(join(dir, 'out/partial.html'), 'utf8')
      expect(partial).toMatch(/<td>synthetic<\/td><td>records<\/td><td class="num">—<\/td><td class="num">—<\/td>/)
      expect(rowsOf(partial)).toEqual(['baseline · synthetic'])
    })
  }, 60_000)

  it('qa writes qa.html with the question section built from real question-suite records', async () => {
    await withTempDir(async (dir) => {
      const res = await runCli(['qa', '--agent', 'mock-qa,refuse', '--suite', 'bespoke', '--quiet'], dir)
      expect(res.code, res.stderr).toBe(0)
      const html = await readFile(join(dir, 'reports/qa/qa.html'), 'utf8')
      expect(html).toContain('<title>dataforge-evals qa: bespoke</title>')
      expect(html).toMatch(
        /<section id="questions">.*<th scope="row">mock-qa<\/th><td class="num" data-value="1">1\.000 \[/s,
      )
      expect(html).toMatch(
        /<figure class="chart" id="category-grid" data-mark-field="agent \/ model" data-marks-for="\[&quot;mock-qa&quot;,&quot;refuse&quot;\]"/,
      )
      expect(html).toContain('No agent spent tokens or money, so there is no cost trade-off to show.')
      expect(html).toContain('<h3>Wrong answers</h3>') // the refusing agent's answers, with the grader's detail
      expect(html).not.toContain('<section id="kinds">')
    })
  }, 60_000)

  it('adds the baseline deltas with their paired tests when given --baseline', async () => {
    await withTempDir(async (dir) => {
      await writeFile(join(dir, 'now.jsonl'), renderRunsJsonl(repairRecords()))
      await writeFile(join(dir, 'before.jsonl'), renderRunsJsonl(repairRecords(0.3)))
      const res = await runCli(
        ['report', 'now.jsonl', '--baseline', 'before.jsonl', '--alpha', '0.1', '--html', 'r.html'],
        dir,
      )
      expect(res.code).toBe(0)
      const html = await readFile(join(dir, 'r.html'), 'utf8')
      expect(html).toContain('<section id="baseline">')
      expect(html).toContain(
        "McNemar's test on b and c when every unit's outcome is binary, else a sign-flip test on unit pass rates, and a sign-flip test on the per-unit F1, at α = 0.1",
      )
      expect(html).toContain('<th scope="col">p (F1 paired)</th>')
      expect(html).toContain('<figure class="chart" id="baseline-deltas"')
    })
  })

  it('refuses bad usage and bad input with exit 2 and one line naming the problem', async () => {
    await withTempDir(async (dir) => {
      await writeFile(join(dir, 'runs.jsonl'), renderRunsJsonl(repairRecords()))
      await writeFile(join(dir, 'broken.jsonl'), '{"recordVersion":1}\n')
      const cases: Array<[string[], RegExp]> = [
        [['report', 'runs.jsonl'], /report needs --html OUT\.html/],
        [['report', '--html', 'x.html'], /report needs one RUNS input/],
        [['report', 'missing.jsonl', '--html', 'x.html'], /missing\.jsonl: cannot read \(ENOENT\)/],
        [['report', 'broken.jsonl', '--html', 'x.html'], /broken\.jsonl: line 1: field "caseId"/],
        [['report', 'runs.jsonl', '--html', 'x.html', '--alpha', '2'], /--alpha must be ≤ 1/],
      ]
      for (const [argv, message] of cases) {
        const res = await runCli(argv, dir)
        expect(res.code, argv.join(' ')).toBe(2)
        expect(res.stderr).toMatch(message)
        expect(res.stderr.trim().split('\n')).toHaveLength(1)
      }
      expect((await runCli(['report', '--help'], dir)).stdout).toContain(
        'Usage: dataforge-evals report RUNS --html OUT.html',
      )
    })
  })
})
