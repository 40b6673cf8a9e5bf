import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { serialize } from 'node:v8'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sha256Hex } from '../../src/core/hash.js'
import { MAX_VALUE_CHARS } from '../../src/core/value-cap.js'
import { type FixtureRun, runFixture, TempDirs } from '../helpers/vitest-run.js'

// Issue 26 through the Vitest door: evals whose agents (an object in the worker, a module behind the wall)
// answer with two fixes of 20 M characters per trial. The values are cut on the test meta, in the worker, so
// they never cross to the reporter; the run ends, every report is written, small, and says what was cut.

const N = 20_000_000
const fullSha = sha256Hex('x'.repeat(N))
const note = (i: number) =>
  `value cut: fixes[${i}].newValue has ${N} characters (sha256 ${fullSha}); the record keeps the first ${MAX_VALUE_CHARS}`

const temp = new TempDirs()
let run: FixtureRun

beforeAll(async () => {
  run = await runFixture({
    fixture: 'huge-values',
    outputDir: temp.make(),
    cacheDir: temp.make(),
    reporterOptions: { formats: ['markdown', 'json', 'jsonl', 'html'] },
  })
}, 600_000)

afterAll(() => temp.removeAll())

describe('huge agent values in a Vitest run', () => {
  it('the run ends with every report written, the folder small', () => {
    expect(run.output).not.toMatch(/RangeError|Invalid string length/)
    expect(run.tests.tests).toHaveLength(5)
    expect(run.tests.tests.filter((t) => t.state === 'passed')).toHaveLength(4)
    const files = readdirSync(run.reports.dir).sort()
    expect(files).toEqual(['leaderboard.md', 'manifest.json', 'report.html', 'report.json', 'runs.jsonl'])
    const bytes = files.reduce((sum, name) => sum + statSync(join(run.reports.dir, name)).size, 0)
    expect(bytes).toBeLessThan(2 * 1024 * 1024)
  })

  it('what crossed from the worker was cut: each test meta small, its fixes cut and noted', () => {
    for (const t of run.tests.tests) {
      const meta = t.meta!
      expect(serialize(meta).byteLength, t.name).toBeLessThan(200_000)
      const repair = meta.matchers[0]!.repair!
      expect(repair.fixes.map((f) => f.newValue.length)).toEqual([MAX_VALUE_CHARS, MAX_VALUE_CHARS])
      expect(repair.warnings).toEqual(expect.arrayContaining([note(0), note(1)]))
      for (const error of t.errors) expect(error.length, t.name).toBeLessThan(5_000)
    }
    const failed = run.tests.tests.filter((t) => t.state === 'failed')
    expect(failed.map((t) => t.errors[0])).toEqual([expect.stringContaining(`… (${N} characters)`)])
  })

  it('every record says which value was cut, with its full length and sha256, and the reports say so', () => {
    const runs = run.reports.runs()
    expect(runs).toHaveLength(5)
    for (const r of runs) {
      expect(r.fixes!.map((f) => f.newValue.length)).toEqual([MAX_VALUE_CHARS, MAX_VALUE_CHARS])
      expect(r.warnings).toEqual(expect.arrayContaining([note(0), note(1)]))
      expect(r.warnings.join('\n')).toMatch(
        /value cut: diagnostics\.(overRepair|wrongValue)\[0\]\.got has 20000000 characters/,
      )
      // Each note once: the reporter's own cut found nothing left to cut.
      expect(new Set(r.warnings).size).toBe(r.warnings.length)
    }
    const cut = runs.reduce((n, r) => n + r.warnings.filter((w) => w.startsWith('value cut: ')).length, 0)
    expect(run.reports.text('leaderboard.md')).toMatch(
      new RegExp(
        `## Values cut\n\n> ${cut} values in 5 runs were cut to their first ${MAX_VALUE_CHARS} characters \\(\`diagnostics\\.(overRepair|wrongValue)\\[\\]\\.got\`, \`fixes\\[\\]\\.newValue\`\\)`,
      ),
    )
    expect(run.reports.text('report.html')).toContain(
      `<strong>Values cut:</strong> ${cut} values in 5 runs were cut to their first ${MAX_VALUE_CHARS} characters`,
    )
  })
})
