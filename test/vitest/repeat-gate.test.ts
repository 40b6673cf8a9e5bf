import { afterAll, describe, expect, it } from 'vitest'
import DataforgeReporter from '../../src/reporter/vitest/index.js'
import { runFixture, TempDirs } from '../helpers/vitest-run.js'

// The per-case repeat gate ("passes at least k of N trials") on real Vitest runs of the gates fixture.
const temp = new TempDirs()
afterAll(() => temp.removeAll())

const run = (minPassesPerCase: number) =>
  runFixture({
    fixture: 'gates',
    files: ['evals/'],
    outputDir: temp.make(),
    cacheDir: temp.make(),
    reporterOptions: { minPassesPerCase },
  })

describe('the repeat gate', () => {
  it('fails a case correct in fewer than k of its trials, naming it; passes when every case reaches k', async () => {
    const strict = await run(3)
    expect(strict.tests.tests.every((t) => t.state === 'passed')).toBe(true)
    expect(strict.exitCode).toBe(1)
    expect(strict.output).toContain('mock · synthetic · strong: passed 2 of 2 trials, the repeat gate needs 3')
    expect(strict.output).toContain('noop · synthetic · weak: passed 2 of 2 trials, the repeat gate needs 3')
    expect(strict.reports.text('leaderboard.md')).toContain('the repeat gate needs 3')
    const met = await run(2)
    expect(met.exitCode).toBeFalsy()
    expect(met.reports.report().cases.find((c) => c.caseId === 'strong')).toMatchObject({
      n: 2,
      passes: 2,
      flaky: false,
    })
  })

  it('rejects a k that is not a positive integer when the reporter is made', () => {
    expect(() => new DataforgeReporter({ minPassesPerCase: 0 })).toThrow(/minPassesPerCase must be a positive integer/)
  })
})
