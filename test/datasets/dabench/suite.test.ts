import { cpSync, mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { RunRecord } from '../../../src/core/run-record.js'
import { BUNDLED_DABENCH_DIR, loadDabenchSync } from '../../../src/datasets/dabench/load.js'
import { dabenchSuite } from '../../../src/datasets/dabench/suite.js'
import { parseDabenchCsv, pandasColumns } from '../../../src/datasets/dabench/table-csv.js'
import { loadQaSuite, loadQaSuiteSync } from '../../../src/datasets/questions/index.js'
import type { SingleQaCase } from '../../../src/datasets/questions/types.js'
import type { EvalReport } from '../../../src/report-builder/build.js'
import { runCli, withTempDir } from '../../helpers/cli-harness.js'

function reportIn(dir: string): EvalReport {
  return JSON.parse(readFileSync(join(dir, 'reports/qa/qa.json'), 'utf8')) as EvalReport
}

const QUESTION = {
  id: 7,
  question: 'What is the mean of x?',
  concepts: ['Summary Statistics'],
  constraints: 'Round to two decimals.',
  format: '@mean_x[mean]',
  file_name: 'small.csv',
  level: 'easy',
}

/** A data folder in the official layout; `questions`/`labels` are the JSONL files' text. */
function writeLayout(
  dir: string,
  files: { questions?: string; labels?: string; tables?: Record<string, string> },
): string {
  const root = join(dir, 'DA-Agent', 'data')
  mkdirSync(join(root, 'da-dev-tables'), { recursive: true })
  writeFileSync(join(root, 'da-dev-questions.jsonl'), files.questions ?? `${JSON.stringify(QUESTION)}\n`)
  writeFileSync(
    join(root, 'da-dev-labels.jsonl'),
    files.labels ?? `${JSON.stringify({ id: 7, common_answers: [['mean_x', '2.00']] })}\n`,
  )
  for (const [name, text] of Object.entries(files.tables ?? { 'small.csv': 'x,y\n1,a\n3,b\n' }))
    writeFileSync(join(root, 'da-dev-tables', name), text)
  return root
}

describe('DABench suite: the bundled slice', () => {
  it('102 questions as cases dabench-<id> over their CSV, asked with constraints and format, category the level', () => {
    const cases = dabenchSuite({ seed: 1 }) as SingleQaCase[]
    expect(cases).toHaveLength(102)
    expect(new Set(cases.map((c) => c.id)).size).toBe(102)
    const c = cases.find((x) => x.id === 'dabench-18')!
    const raw = readFileSync(join(BUNDLED_DABENCH_DIR, 'da-dev-questions.jsonl'), 'utf8')
      .split('\n')
      .map((l) => (l.trim() ? JSON.parse(l) : null))
      .find((q) => q?.id === 18)
    expect(c.question).toContain(raw.question)
    expect(c.question).toContain(`Constraints: ${raw.constraints}`)
    expect(c.question).toContain(`Format: ${raw.format}`)
    expect(c.question).toContain(raw.file_name)
    expect(c.category).toBe(raw.level)
    expect(Object.keys(c.data)).toEqual(['table'])
    expect(c.data.table!.rows.length).toBeGreaterThan(10)
    expect(c.metrics).toMatchObject({ 'dabench.subAnswers': expect.any(Number) })
    for (const concept of raw.concepts) expect(c.metrics![`dabench.concept:${concept}`]).toBe(1)
    // The prompt holds the question, never the table's rows or the expected values.
    expect(c.question.length).toBeLessThan(4000)
    expect(new Set(cases.map((x) => x.category))).toEqual(new Set(['easy', 'medium', 'hard']))
  })

  it('sync and async loading agree; --limit samples before tables are read', async () => {
    const ids = (cs: { id: string }[]) => cs.map((c) => c.id)
    expect(ids(loadQaSuiteSync('dabench', { seed: 3, limit: 5 }))).toEqual(
      ids(await loadQaSuite('dabench', { seed: 3, limit: 5 })),
    )
    expect(loadQaSuiteSync('dabench', { seed: 3, limit: 5 })).toHaveLength(5)
  })

  it("reads tables with pandas' defaults: BOM dropped, CR-only lines, Unnamed: i and .1 for empty and repeated names, short rows padded", () => {
    const logan = loadDabenchSync().find((q) => q.fileName === 'Current_Logan.csv')!
    expect(logan.table.columns.slice(0, 3)).toEqual(['JAMES LOGAN', 'Unnamed: 1', 'Unnamed: 2'])
    expect(parseDabenchCsv('\ufeffa,b\r1,2\r3\r', 'f.csv')).toEqual({
      columns: ['a', 'b'],
      rows: [
        ['1', '2'],
        ['3', ''],
      ],
    })
    expect(pandasColumns(['a', 'a', '', 'a.1', 'a'])).toEqual(['a', 'a.1', 'Unnamed: 2', 'a.1.1', 'a.2'])
    expect(() => parseDabenchCsv('a,b\n1,2\n1,2,3\n', 'f.csv')).toThrow(
      'f.csv: line 3 has 3 fields but the header has 2',
    )
  })
})

describe('qa --suite dabench', () => {
  it('mock-qa scores 100% and refuse 0%; the reports show ABQ, PSAQ and UASQ by level and concept', async () => {
    await withTempDir(async (dir) => {
      const res = await runCli(
        [
          'qa',
          '--agent',
          'mock-qa,refuse',
          '--suite',
          'dabench',
          '--quiet',
          '--output-html',
          join(dir, 'reports/qa/qa.html'),
        ],
        dir,
      )
      expect(res.code, res.stderr).toBe(0)
      const report = reportIn(dir)
      const oracle = report.records.filter((r) => r.agent === 'mock-qa')
      expect(oracle).toHaveLength(102)
      expect(oracle.every((r) => r.correct === true && r.metrics.score === 1 && r.caseId.startsWith('dabench-'))).toBe(
        true,
      )
      expect(
        report.records.filter((r) => r.agent === 'refuse').every((r) => r.correct === false && r.metrics.score === 0),
      ).toBe(true)
      const [mock, refuse] = ['mock-qa', 'refuse'].map((a) => report.dabench!.find((s) => s.agent === a)!)
      expect(mock!.overall).toMatchObject({
        questions: 102,
        subAnswers: 179,
        abq: { point: 1, low: 1, high: 1 },
        psaq: { point: 1 },
        uasq: { point: 1 },
      })
      expect(refuse!.overall).toMatchObject({ abq: { point: 0, low: 0, high: 0 }, uasq: { point: 0 } })
      expect(mock!.byLevel.map((l) => [l.level, l.questions])).toEqual([
        ['easy', 35],
        ['medium', 32],
        ['hard', 35],
      ])
      expect(mock!.byConcept.find((c) => c.concept === 'Summary Statistics')!.questions).toBe(43)
      const md = readFileSync(join(dir, 'reports/qa/qa.md'), 'utf8')
      expect(md).toContain('### DABench')
      expect(md).toContain(
        '| mock-qa | dabench | 102 | 179 | 100.0% [100.0, 100.0] | 100.0% [100.0, 100.0] | 100.0% [100.0, 100.0] | 0 |',
      )
      expect(md).toContain('#### DABench by level')
      expect(md).toContain('| refuse | Machine Learning | 8 |')
      const html = readFileSync(join(dir, 'reports/qa/qa.html'), 'utf8')
      expect(html).toContain('<section id="dabench"><h2>DABench</h2>')
      expect(html).toContain('id="dabench-concepts"')
    })
  }, 120_000)

  it('a partly right agent: PSAQ and UASQ credit right sub-answers, ABQ does not; failed runs count with none right', async () => {
    await withTempDir(async (dir) => {
      const root = writeLayout(dir, {
        questions: [
          { ...QUESTION, id: 1, format: '@a[v] @b[v]' },
          { ...QUESTION, id: 2, format: '@c[v]', level: 'hard', concepts: ['Outlier Detection'] },
          { ...QUESTION, id: 3, format: '@d[v]', level: 'hard', concepts: ['Outlier Detection'] },
        ]
          .map((q) => JSON.stringify(q))
          .join('\r\n'),
        labels: [
          {
            id: 1,
            common_answers: [
              ['a', '1'],
              ['b', '2'],
            ],
          },
          { id: 2, common_answers: [['c', '3']] },
          { id: 3, common_answers: [['d', '4']] },
        ]
          .map((q) => JSON.stringify(q))
          .join('\n'),
      })
      // Right on a (not b), right on c, throws on question 3.
      writeFileSync(
        join(dir, 'agent.mjs'),
        `export default { name: 'half', session() { return { ask(q) {
          if (q.includes('@d[v]')) throw new Error('boom')
          // An agent's counters cannot overwrite the case's facts.
          return { text: q.includes('@a[v]') ? '@a[1.0] @b[3]' : 'So @c[3].', metrics: { 'dabench.subAnswers': 99, lookups: 1 } }
        } } } }`,
      )
      const res = await runCli(
        ['qa', '--agent', './agent.mjs', '--suite', 'dabench', '--data-dir', root, '--quiet'],
        dir,
      )
      expect(res.code, res.stderr).toBe(0)
      const report = reportIn(dir)
      const failed = report.records.find((r: RunRecord) => r.caseId === 'dabench-3')!
      expect(failed.status).toBe('failed')
      expect(failed.metrics).toMatchObject({ 'dabench.subAnswers': 1, 'dabench.concept:Outlier Detection': 1 })
      expect(report.records.find((r) => r.caseId === 'dabench-1')!.metrics).toMatchObject({
        'dabench.subAnswers': 2,
        lookups: 1,
        score: 0.5,
      })
      const [s] = report.dabench!
      expect(s!.failedRuns).toBe(1)
      expect(s!.overall.abq.point).toBeCloseTo(1 / 3)
      expect(s!.overall.psaq.point).toBeCloseTo((0.5 + 1 + 0) / 3)
      expect(s!.overall.uasq.point).toBeCloseTo(2 / 4)
      expect(s!.byLevel.map((l) => [l.level, l.questions, l.abq.point])).toEqual([
        ['easy', 1, 0],
        ['hard', 2, 0.5],
      ])
      expect(report.records.find((r) => r.caseId === 'dabench-1')!.validationError).toBe(
        '1/2 sub-answers right: @b: expected "2", found "3"',
      )
    })
  }, 60_000)
})

describe('DABench loader: malformed files exit 2 naming the file and line', () => {
  const q = (over: Record<string, unknown>) => JSON.stringify({ ...QUESTION, ...over })
  const cases: Array<{ what: string; files: Parameters<typeof writeLayout>[1]; message: RegExp }> = [
    {
      what: 'a line that is not JSON',
      files: { questions: `${q({})}\n{"id": 8,\n` },
      message: /da-dev-questions\.jsonl:2: not a JSON object/,
    },
    {
      what: 'a JSON array',
      files: { labels: '[7]\n' },
      message: /da-dev-labels\.jsonl:1: expected a JSON object, got an array/,
    },
    {
      what: 'a missing field',
      files: { questions: JSON.stringify({ ...QUESTION, format: undefined }) },
      message: /da-dev-questions\.jsonl:1: field "format" must be a string, got nothing/,
    },
    {
      what: 'an id that is not a whole number',
      files: { questions: q({ id: '7' }) },
      message: /da-dev-questions\.jsonl:1: field "id" must be a whole number/,
    },
    {
      what: 'concepts not a list',
      files: { questions: q({ concepts: 'Summary Statistics' }) },
      message: /da-dev-questions\.jsonl:1: field "concepts" must be a non-empty list/,
    },
    {
      what: 'a file name with a path',
      files: { questions: q({ file_name: '../secret.csv' }) },
      message: /da-dev-questions\.jsonl:1: field "file_name" must name a file in da-dev-tables/,
    },
    {
      what: 'a repeated question id',
      files: { questions: `${q({})}\n\n${q({})}\n` },
      message: /da-dev-questions\.jsonl:3: question id 7 again \(first on line 1\)/,
    },
    {
      what: 'a question without labels',
      files: { questions: `${q({})}\n${q({ id: 8 })}\n` },
      message: /da-dev-questions\.jsonl:2: question 8 has no labels/,
    },
    {
      what: 'labels of no question',
      files: {
        labels: `${JSON.stringify({ id: 7, common_answers: [['mean_x', '2']] })}\n${JSON.stringify({ id: 9, common_answers: [['z', '1']] })}`,
      },
      message: /da-dev-labels\.jsonl:2: labels for question 9/,
    },
    {
      what: 'a label that is not a pair of strings',
      files: { labels: JSON.stringify({ id: 7, common_answers: [['mean_x', 2]] }) },
      message: /da-dev-labels\.jsonl:1: common_answers\[0\] must be a \[name, value\] pair of strings/,
    },
    {
      what: 'an answer name that is not a word',
      files: { labels: JSON.stringify({ id: 7, common_answers: [['mean x', '2']] }) },
      message: /da-dev-labels\.jsonl:1: common_answers\[0\]: answer name "mean x" is not a word/,
    },
    {
      what: 'a 100,000-deep array in a labels line (was an internal error)',
      files: { labels: `{"id": 7, "common_answers": ${'['.repeat(100_000)}${']'.repeat(100_000)}}\n` },
      message: /da-dev-labels\.jsonl:1: arrays or objects nested more than 256 levels deep/,
    },
    {
      what: 'a missing table',
      files: { tables: {} },
      message: /da-dev-questions\.jsonl:1: table small\.csv not found in /,
    },
    {
      what: 'a table row longer than the header',
      files: { tables: { 'small.csv': 'x\n1\n2,3\n' } },
      message: /small\.csv: line 3 has 2 fields but the header has 1/,
    },
  ]
  for (const c of cases) {
    it(c.what, async () => {
      await withTempDir(async (dir) => {
        const root = writeLayout(dir, c.files)
        const res = await runCli(['qa', '--agent', 'mock-qa', '--suite', 'dabench', '--data-dir', root, '--quiet'], dir)
        expect(res.code, res.stdout).toBe(2)
        expect(res.stderr).toMatch(c.message)
        expect(res.stderr.trim().split('\n')).toHaveLength(1)
      })
    })
  }

  it("a label naming an answer twice is one sub-answer with the last value, as the script's dict keeps it", async () => {
    await withTempDir(async (dir) => {
      const root = writeLayout(dir, {
        labels: JSON.stringify({
          id: 7,
          common_answers: [
            ['r', '0.38'],
            ['s', 'x'],
            ['r', '0.56'],
          ],
        }),
      })
      const [q] = loadDabenchSync({ dataDir: root })
      expect(q!.labels).toEqual([
        { name: 'r', value: '0.56' },
        { name: 's', value: 'x' },
      ])
      expect(dabenchSuite({ seed: 1, dataDir: root })[0]!.metrics).toMatchObject({ 'dabench.subAnswers': 2 })
    })
  })

  it('a table or a labels file that is a symlink out of the data folder is never read: exit 2 naming it; links inside the folder are followed', async () => {
    await withTempDir(async (dir) => {
      const root = writeLayout(dir, {})
      writeFileSync(join(dir, 'secret.csv'), 'x,y\n41,clean\n')
      renameSync(join(root, 'da-dev-tables/small.csv'), join(root, 'kept.csv'))
      symlinkSync(join(dir, 'secret.csv'), join(root, 'da-dev-tables/small.csv'))
      const qa = () => runCli(['qa', '--agent', 'mock-qa', '--suite', 'dabench', '--data-dir', root, '--quiet'], dir)
      const table = await qa()
      expect(table.code, table.stdout).toBe(2)
      expect(table.stderr).toMatch(
        /da-dev-tables\/small\.csv: leads out of the data folder .*DA-Agent\/data \(a link to .*secret\.csv\)/,
      )
      expect(table.stdout).toBe('')

      // A link that stays inside the folder is read.
      renameSync(join(root, 'da-dev-tables/small.csv'), join(dir, 'gone'))
      symlinkSync('../kept.csv', join(root, 'da-dev-tables/small.csv'))
      expect(loadDabenchSync({ dataDir: root })[0]!.table.rows).toEqual([
        ['1', 'a'],
        ['3', 'b'],
      ])

      writeFileSync(join(dir, 'labels.jsonl'), readFileSync(join(root, 'da-dev-labels.jsonl')))
      renameSync(join(root, 'da-dev-labels.jsonl'), join(dir, 'gone2'))
      symlinkSync(join(dir, 'labels.jsonl'), join(root, 'da-dev-labels.jsonl'))
      const labels = await qa()
      expect(labels.code).toBe(2)
      expect(labels.stderr).toMatch(/da-dev-labels\.jsonl: leads out of the data folder/)
    })
  })

  it('a folder without the layout says what it expects', async () => {
    await withTempDir(async (dir) => {
      const res = await runCli(['qa', '--agent', 'mock-qa', '--suite', 'dabench', '--data-dir', dir, '--quiet'], dir)
      expect(res.code).toBe(2)
      expect(res.stderr).toMatch(
        /no da-dev-questions\.jsonl \(expected DABench's layout, a clone's examples\/DA-Agent\/data/,
      )
    })
  })

  it('the bundled folder is itself in the official layout (the same loader reads a copy of it)', async () => {
    await withTempDir(async (dir) => {
      cpSync(BUNDLED_DABENCH_DIR, join(dir, 'data'), { recursive: true })
      expect(loadDabenchSync({ dataDir: join(dir, 'data') }).map((x) => x.id)).toEqual(
        loadDabenchSync().map((x) => x.id),
      )
    })
  })
})
