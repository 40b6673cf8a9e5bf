import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runFixture, TempDirs } from '../../helpers/vitest-run.js'

const temp = new TempDirs()
afterAll(() => temp.removeAll())

describe("the reporter's 'html' format", () => {
  it('writes report.html by default, beside the other reports, in the manifest, with the gate result', async () => {
    const outputDir = temp.make()
    const run = await runFixture({
      fixture: 'gates',
      files: ['evals/'],
      outputDir,
      cacheDir: temp.make(),
      reporterOptions: { thresholds: { 'noop*': { f1: 0.6 } } },
    })
    expect(run.exitCode).toBe(1)
    expect(readdirSync(outputDir).sort()).toEqual([
      'leaderboard.md',
      'manifest.json',
      'report.html',
      'report.json',
      'runs.jsonl',
    ])
    const html = readFileSync(join(outputDir, 'report.html'), 'utf8')
    expect([...html.matchAll(/<tr data-group="([^"]+)"/g)].map((m) => m[1])).toEqual(
      run.reports.report().aggregates.map((a) => a.group),
    )
    expect(html).toContain('<title>dataforge-evals leaderboard</title>')
    expect(html).toContain('<li>noop · synthetic: f1 0.000 is below the threshold 0.6 (pattern &quot;noop*&quot;)</li>')
    expect(readFileSync(join(outputDir, 'manifest.json'), 'utf8')).toContain('report.html')
  }, 60_000)

  it('is left out when formats leaves it out', async () => {
    const outputDir = temp.make()
    await runFixture({
      fixture: 'gates',
      files: ['evals/'],
      outputDir,
      cacheDir: temp.make(),
      reporterOptions: { formats: ['json'] },
    })
    expect(readdirSync(outputDir).sort()).toEqual(['manifest.json', 'report.json'])
  }, 60_000)
})
