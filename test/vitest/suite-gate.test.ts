import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runFixture, TempDirs } from '../helpers/vitest-run.js'

// Real Vitest runs of test/fixtures/vitest/suite-gate: the built-in bespoke suite (17 cases in six categories of
// 2 to 4) gated against a baseline. The suite is the gate's group; its categories stay rows of the report.

const temp = new TempDirs()
afterAll(() => temp.removeAll())

describe('a built-in question suite gates per suite', () => {
  it('one verdict on its 17 cases, no underpowered warning; a drop across its categories fails the gate', async () => {
    const outputDir = temp.make()
    const cacheDir = temp.make()
    const run = (drop: boolean, updateBaseline = false) =>
      runFixture({
        fixture: 'suite-gate',
        outputDir,
        cacheDir,
        env: { DF_DROP: drop ? '1' : '0' },
        updateBaseline,
        reporterOptions: { github: true },
      })

    expect((await run(false, true)).exitCode).toBeFalsy()
    // The job summary goes to $GITHUB_STEP_SUMMARY of the reporter's process (this one).
    const summaryFile = join(temp.make(), 'summary.md')
    process.env.GITHUB_STEP_SUMMARY = summaryFile
    const same = await run(false).finally(() => delete process.env.GITHUB_STEP_SUMMARY)
    expect(same.exitCode).toBeFalsy()
    // No warning annotation: the suite's 17 cases can reach α. Each category row shows the suite's verdict.
    expect(same.output).not.toContain('::warning')
    expect(readFileSync(summaryFile, 'utf8')).toContain(
      '| steady-qa · bespoke · aggregation | 4 cases | 4/4 | 1.000 | — | no significant change (whole suite, 17 cases) |',
    )
    // The report keeps a row per category, each naming its cases.
    expect(same.output).toMatch(/^steady-qa · bespoke · aggregation +4 cases /m)
    expect(same.output).toMatch(/^steady-qa · bespoke · refusal +2 cases /m)
    const against = same.output.slice(same.output.indexOf('against the baseline'))
    expect(against).toMatch(
      /^ {2}steady-qa · bespoke: F1 — → —, pass rate 1\.000 → 1\.000 · no significant change vs baseline [^\n]*\(17 cases\)/m,
    )
    expect(against).not.toContain('steady-qa · bespoke · ')
    expect(same.output).not.toContain('underpowered')
    expect(same.reports.text('leaderboard.md')).not.toContain('**Power.**')

    // Every category drops (the refusals aside): gated per category (2 to 4 cases) no test could reach α; the suite fails.
    const dropped = await run(true)
    expect(dropped.exitCode).toBe(1)
    expect(dropped.output).toMatch(
      /✗ steady-qa · bespoke: regression \(pass\/fail\) vs baseline [^\n]*McNemar exact b=15 c=0 [^\n]*\(17 cases\)/,
    )
    expect(dropped.output.match(/✗/g)).toHaveLength(1)
  }, 120_000)
})
