import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Token, lexer } from 'marked'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunRecord } from '../../../src/core/run-record.js'
import { githubOutputPlan } from '../../../src/report-builder/github-output.js'
import { runCli } from '../../helpers/cli-harness.js'
import { makeRecord } from '../../helpers/stats-records.js'

const jsonl = (rows: RunRecord[]) => `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`
const cases = (n: number, pass: (i: number) => boolean) =>
  Array.from({ length: n }, (_, i) => makeRecord({ caseId: `c${i}`, correct: pass(i) }))

function tableCount(markdown: string): number {
  let n = 0
  const walk = (tokens: Token[]) => {
    for (const t of tokens) {
      if (t.type === 'table') n++
      if ('tokens' in t && Array.isArray(t.tokens)) walk(t.tokens as Token[])
    }
  }
  walk(lexer(markdown))
  return n
}

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dfe-github-'))
  await writeFile(join(dir, 'base.jsonl'), jsonl(cases(20, () => true)))
  await writeFile(join(dir, 'worse.jsonl'), jsonl(cases(20, (i) => i >= 12)))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('githubOutputPlan', () => {
  it('is on under GitHub Actions or when asked, off when told', () => {
    expect(githubOutputPlan(undefined, {})).toBeNull()
    expect(githubOutputPlan(undefined, { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: '/s.md' })).toEqual({
      reportUrl: null,
      summaryPath: '/s.md',
    })
    expect(githubOutputPlan(false, { GITHUB_ACTIONS: 'true' })).toBeNull()
    expect(githubOutputPlan(true, {})).toEqual({ reportUrl: null, summaryPath: null })
    expect(githubOutputPlan({ reportUrl: 'https://a.test/x' }, {})).toBeNull()
    expect(
      githubOutputPlan(
        { reportUrl: 'https://a.test/x' },
        { GITHUB_ACTIONS: 'true', DATAFORGE_REPORT_URL: 'https://b.test' },
      )?.reportUrl,
    ).toBe('https://a.test/x')
  })

  it('refuses a report URL that is not http(s), naming where it came from', () => {
    expect(() => githubOutputPlan(true, { DATAFORGE_REPORT_URL: 'javascript:alert(1)' })).toThrow(
      /DATAFORGE_REPORT_URL must be an http\(s\) URL/,
    )
    expect(() => githubOutputPlan({ reportUrl: 'https://a.test/has space' }, { GITHUB_ACTIONS: 'true' })).toThrow(
      /github\.reportUrl/,
    )
  })
})

describe('compare under GitHub Actions', () => {
  it('exits 1 with an ::error per failing group, a job summary and pr-comment.md beside --output', async () => {
    const summary = join(dir, 'summary.md')
    const r = await runCli(['compare', 'base.jsonl', 'worse.jsonl', '--output', 'cmp/comparison.md'], dir, {
      GITHUB_ACTIONS: 'true',
      GITHUB_STEP_SUMMARY: summary,
    })
    expect(r.code).toBe(1)
    const errors = r.stdout.split('\n').filter((l) => l.startsWith('::error '))
    expect(errors.length).toBeGreaterThanOrEqual(1)
    expect(errors[0]).toMatch(
      /^::error title=baseline · evals\/repair\.eval\.ts · repair::.*regression \(pass\/fail\) vs A/,
    )
    const text = await readFile(summary, 'utf8')
    expect(text).toMatch(/^## dataforge-evals compare\n\n❌ \*\*Gate failed\*\*/)
    expect(tableCount(text)).toBe(1)
    const comment = await readFile(join(dir, 'cmp/pr-comment.md'), 'utf8')
    expect(comment).toContain('0.400')
    expect(tableCount(comment)).toBe(1)
  })

  it('--github writes the comment without GitHub Actions; no change exits 0 and says so', async () => {
    const r = await runCli(['compare', 'base.jsonl', 'base.jsonl', '--output', 'same/comparison.md', '--github'], dir)
    expect(r.code).toBe(0)
    expect(r.stdout).not.toMatch(/^::error/m)
    const comment = await readFile(join(dir, 'same/pr-comment.md'), 'utf8')
    expect(comment).toContain('✅ **Gate passed**')
    expect(comment).toContain('No group changed against the baseline')
  })
})

describe('run under GitHub Actions', () => {
  it('the repeat gate failing: exit 1, one ::error per case that missed, the summary with the leaderboard, pr-comment.md in the report folder', async () => {
    const summary = join(dir, 'run-summary.md')
    const r = await runCli(
      [
        'run',
        '--agent',
        'noop',
        '--dataset',
        'synthetic',
        '--rows',
        '30',
        '--trials',
        '1',
        '--min-passes',
        '1',
        '--quiet',
        '--output',
        'run/r.md',
        '--output-json',
        'run/r.json',
      ],
      dir,
      { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary },
    )
    expect(r.code).toBe(1)
    const errors = r.stdout.split('\n').filter((l) => l.startsWith('::error '))
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatch(
      /^::error title=dataforge-evals gate::noop · synthetic · .*passed 0 of 1 trials, the repeat gate needs 1$/,
    )
    const text = await readFile(summary, 'utf8')
    expect(text).toContain('❌ **Gate failed**: 1 failure')
    expect(tableCount(text)).toBe(1)
    expect(await readFile(join(dir, 'run/pr-comment.md'), 'utf8')).toContain('No baseline to compare with')
    expect((await runCli(['verify', join(dir, 'run')], dir)).code).toBe(0)
  })
})
