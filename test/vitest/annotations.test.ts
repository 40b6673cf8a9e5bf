import { afterAll, describe, expect, it } from 'vitest'
import { runFixture, TempDirs } from '../helpers/vitest-run.js'

// Where the one-line verdict summaries show: annotations for failures by default, every verdict under
// DATAFORGE_ANNOTATE=all, and printed under passing tests by the dataforge reporter with `--reporter=verbose`.
const temp = new TempDirs()
afterAll(() => temp.removeAll())

const files = ['evals/matchers.eval.ts', 'evals/conversation.eval.ts']

describe('DATAFORGE_ANNOTATE=all', () => {
  it('annotates every verdict and every question, as the meta records them', async () => {
    const run = await runFixture({
      fixture: 'features',
      files,
      outputDir: temp.make(),
      cacheDir: temp.make(),
      env: { DATAFORGE_ANNOTATE: 'all' },
    })
    const repair = run.tests.byName('repair matcher annotates')
    expect(repair.annotations).toEqual([
      { type: 'dataforge', message: expect.stringMatching(/^F1 1\.000 \(P 1\.000 R 1\.000\) tp \d+ fp 0 fn 0$/) },
    ])
    const answers = run.tests.byName('answer matchers annotate')
    expect(answers.annotations.map((a) => a.message)).toEqual(answers.meta!.matchers.map((m) => m.summary))
    expect(answers.annotations).toHaveLength(9)
    for (const a of answers.annotations) expect(a.message).not.toContain('\n')
    expect(run.tests.byName('memory#t1').annotations).toEqual([
      { type: 'dataforge-question', message: 't1: How many orders? Save it as n.' },
      { type: 'dataforge', message: 'toBeNumeric passed: expected 3, found 3 (value)' },
    ])
  }, 60_000)
})

describe('by default', () => {
  it('prints the summaries of passing verdicts under their test when Vitest lists every test (verbose)', async () => {
    const run = await runFixture({
      fixture: 'features',
      files,
      outputDir: temp.make(),
      cacheDir: temp.make(),
      extraReporters: ['verbose'],
    })
    const lines = run.output.split('\n')
    const repairAt = lines.findIndex((line) => line.includes('repair matcher annotates'))
    expect(repairAt).toBeGreaterThan(-1)
    expect(lines[repairAt + 1]).toMatch(/^ {5}↳ F1 1\.000 \(P 1\.000 R 1\.000\) tp \d+ fp 0 fn 0$/)
    const turnAt = lines.findIndex((line) => line.includes('memory#t1'))
    expect(lines[turnAt + 1]).toBe('     ↳ toBeNumeric passed: expected 3, found 3 (value)')
    // Only the failed turns were annotated: a wrong answer (verdict and question), a timeout and a rate
    // limit (the question: no verdict was reached).
    const annotated = run.tests.tests
      .filter((t) => t.annotations.length)
      .map((t) => [t.name, t.annotations.map((a) => a.type)])
    expect(annotated).toEqual([
      ['memory#t2', ['dataforge', 'dataforge-question']],
      ['troubled#t1', ['dataforge-question']],
      ['troubled#t3', ['dataforge-question']],
    ])
  }, 60_000)

  it('prints nothing per test without the verbose reporter', async () => {
    const run = await runFixture({
      fixture: 'features',
      files: ['evals/matchers.eval.ts'],
      outputDir: temp.make(),
      cacheDir: temp.make(),
      extraReporters: ['default'],
    })
    expect(run.output).not.toContain('↳ F1')
  }, 60_000)
})

describe('a bad DATAFORGE_ANNOTATE', () => {
  it('fails the run before any test runs, naming the variable', async () => {
    const saved = process.env.DATAFORGE_ANNOTATE
    process.env.DATAFORGE_ANNOTATE = 'sometimes'
    try {
      const run = await runFixture({
        fixture: 'features',
        files: ['evals/matchers.eval.ts'],
        outputDir: temp.make(),
        cacheDir: temp.make(),
      })
      expect(run.exitCode).toBe(1)
      expect(run.output).toContain('InputError: DATAFORGE_ANNOTATE must be "failures" or "all", got "sometimes"')
      expect(run.tests.tests).toEqual([])
    } finally {
      if (saved === undefined) delete process.env.DATAFORGE_ANNOTATE
      else process.env.DATAFORGE_ANNOTATE = saved
    }
  }, 60_000)
})
