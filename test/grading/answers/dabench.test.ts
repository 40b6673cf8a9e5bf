import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { RunRecord } from '../../../src/core/run-record.js'
import { DABENCH_SUB_ANSWERS, dabenchSummaries } from '../../../src/datasets/dabench/scores.js'
import {
  dabenchAnswer,
  dabenchEqual,
  dabenchResponsePairs,
  extractDabenchBlocks,
  parsePythonFloat,
} from '../../../src/grading/answers/dabench.js'

const OFFICIAL = resolve(import.meta.dirname, '../../fixtures/dabench/official')
const python = spawnSync('python3', ['--version']).status === 0

type Labels = Array<[string, string]>

interface Constructed {
  what: string
  labels: Labels
  response: string
  /** Our decision per label name, written out by hand; the official script must agree where Python runs. */
  expected: Record<string, boolean>
}

const FARE: Labels = [['mean_fare', '34.65']]
const TWO: Labels = [
  ['correlation_coefficient', '0.21'],
  ['relationship_type', 'linear'],
]

const CASES: Constructed[] = [
  { what: 'the exact string', labels: FARE, response: '@mean_fare[34.65]', expected: { mean_fare: true } },
  { what: 'a trailing zero', labels: FARE, response: '@mean_fare[34.650]', expected: { mean_fare: true } },
  { what: 'scientific notation', labels: FARE, response: '@mean_fare[3.465e1]', expected: { mean_fare: true } },
  { what: 'a plus sign', labels: FARE, response: '@mean_fare[+34.65]', expected: { mean_fare: true } },
  { what: 'spaces inside the brackets', labels: FARE, response: '@mean_fare[ 34.65 ]', expected: { mean_fare: true } },
  { what: "Python's digit underscores", labels: FARE, response: '@mean_fare[3_4.65]', expected: { mean_fare: true } },
  {
    what: 'fullwidth digits (float() reads them)',
    labels: FARE,
    response: '@mean_fare[３４.６５]',
    expected: { mean_fare: true },
  },
  { what: 'within 1e-6', labels: FARE, response: '@mean_fare[34.6500004]', expected: { mean_fare: true } },
  { what: 'off by 1e-3', labels: FARE, response: '@mean_fare[34.651]', expected: { mean_fare: false } },
  { what: 'a decimal comma', labels: FARE, response: '@mean_fare[34,65]', expected: { mean_fare: false } },
  { what: 'a currency sign', labels: FARE, response: '@mean_fare[$34.65]', expected: { mean_fare: false } },
  { what: 'more digits than asked', labels: FARE, response: '@mean_fare[34.6523]', expected: { mean_fare: false } },
  {
    what: 'text around the block',
    labels: FARE,
    response: 'After dropping NaNs, the mean is @mean_fare[34.65] dollars.',
    expected: { mean_fare: true },
  },
  {
    what: 'an extra, unasked block',
    labels: FARE,
    response: '@mean_fare[34.65]\n@median_fare[14.45]',
    expected: { mean_fare: true },
  },
  { what: 'a wrong name', labels: FARE, response: '@meanfare[34.65]', expected: { mean_fare: false } },
  { what: 'names are case-sensitive', labels: FARE, response: '@Mean_Fare[34.65]', expected: { mean_fare: false } },
  { what: 'a space before the bracket', labels: FARE, response: '@mean_fare [34.65]', expected: { mean_fare: false } },
  { what: 'the value on the next line', labels: FARE, response: '@mean_fare[\n34.65]', expected: { mean_fare: false } },
  { what: 'no block at all', labels: FARE, response: 'The mean fare is 34.65.', expected: { mean_fare: false } },
  {
    what: 'two blocks, the last right',
    labels: FARE,
    response: 'First try @mean_fare[30.00], corrected: @mean_fare[34.65]',
    expected: { mean_fare: true },
  },
  {
    what: 'two blocks, the last wrong',
    labels: FARE,
    response: '@mean_fare[34.65] … rounding again: @mean_fare[34.7]',
    expected: { mean_fare: false },
  },
  { what: 'doubled brackets', labels: FARE, response: '@mean_fare[[34.65]]', expected: { mean_fare: false } },
  {
    what: 'a stray closing bracket after',
    labels: FARE,
    response: '@mean_fare[34.65]]',
    expected: { mean_fare: true },
  },
  {
    what: 'both sub-answers',
    labels: TWO,
    response: '@correlation_coefficient[0.21]\n@relationship_type[linear]',
    expected: { correlation_coefficient: true, relationship_type: true },
  },
  {
    what: 'a missing sub-answer',
    labels: TWO,
    response: '@correlation_coefficient[0.21]',
    expected: { correlation_coefficient: true, relationship_type: false },
  },
  {
    what: 'sub-answers out of order',
    labels: TWO,
    response: '@relationship_type[linear] @correlation_coefficient[0.210]',
    expected: { correlation_coefficient: true, relationship_type: true },
  },
  {
    what: 'strings compare exactly',
    labels: TWO,
    response: '@correlation_coefficient[0.21] @relationship_type[Linear]',
    expected: { correlation_coefficient: true, relationship_type: false },
  },
  {
    what: 'quoted strings',
    labels: TWO,
    response: '@correlation_coefficient[0.21] @relationship_type["linear"]',
    expected: { correlation_coefficient: true, relationship_type: false },
  },
  {
    what: 'a label naming an answer twice keeps the last value',
    labels: [
      ['r', '0.38'],
      ['r', '0.56'],
    ],
    response: '@r[0.56]',
    expected: { r: true },
  },
  {
    what: "the first of a repeated label's values is wrong",
    labels: [
      ['r', '0.38'],
      ['r', '0.56'],
    ],
    response: '@r[0.38]',
    expected: { r: false },
  },
  {
    what: 'unicode word names',
    labels: [['moyenne_été', '12']],
    response: '@moyenne_été[12.0]',
    expected: { moyenne_été: true },
  },
  { what: 'nan equals only as a string', labels: [['x', 'nan']], response: '@x[NaN]', expected: { x: false } },
  {
    what: 'inf against inf is not within 1e-6',
    labels: [['x', 'inf']],
    response: '@x[Infinity]',
    expected: { x: false },
  },
  {
    what: 'an integer label as a float',
    labels: [['count', '10']],
    response: '@count[10.0]',
    expected: { count: true },
  },
]

/** The official script's `evaluate_responses` on one question: correctness per label name (null: the script left it out). */
function officialCorrectness(cases: Constructed[]): Array<Record<string, boolean> | null> {
  const dir = mkdtempSync(join(tmpdir(), 'dabench-official-'))
  try {
    const input = join(dir, 'cases.json')
    writeFileSync(
      input,
      JSON.stringify(
        cases.map((c, i) => ({
          label: { id: i, common_answers: c.labels },
          response: { id: i, response: c.response },
        })),
      ),
    )
    const program = [
      'import json, sys',
      `sys.path.insert(0, ${JSON.stringify(OFFICIAL)})`,
      'from eval_closed_form import evaluate_responses',
      'out = []',
      'for c in json.load(open(sys.argv[1], encoding="utf-8")):',
      '    r = evaluate_responses([c["label"]], [c["response"]])',
      '    out.append(r[0]["correctness"] if r else None)',
      'print(json.dumps(out))',
    ].join('\n')
    return JSON.parse(execFileSync('python3', ['-c', program, input], { cwd: dir, encoding: 'utf8' })) as Array<Record<
      string,
      boolean
    > | null>
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

function ours(c: Constructed): Record<string, boolean> {
  const verdict = dabenchAnswer(c.labels.map(([name, value]) => ({ name, value })))({ text: c.response })
  const names = [...new Set(c.labels.map(([n]) => n))]
  return Object.fromEntries(names.map((n, i) => [n, verdict.parts![i]!.passed]))
}

describe('DABench grader: the official semantics', () => {
  for (const c of CASES) {
    it(`${c.what}: ${JSON.stringify(c.response)}`, () => {
      expect(ours(c)).toEqual(c.expected)
      const verdict = dabenchAnswer(c.labels.map(([name, value]) => ({ name, value })))({ text: c.response })
      const right = Object.values(c.expected).filter(Boolean).length
      expect(verdict.passed).toBe(right === Object.keys(c.expected).length)
      expect(verdict.score).toBe(right / Object.keys(c.expected).length)
    })
  }

  it.skipIf(!python)(
    'eval_closed_form.py (run with python3) decides every constructed response as the grader does',
    () => {
      const official = officialCorrectness(CASES)
      CASES.forEach((c, i) => {
        expect(official[i], c.what).toEqual(ours(c))
      })
    },
  )

  it.skipIf(!python)('an empty response: the script leaves the question out; the grader counts it wrong', () => {
    const [official] = officialCorrectness([{ what: 'empty', labels: FARE, response: '', expected: {} }])
    expect(official).toBeNull()
    expect(dabenchAnswer([{ name: 'mean_fare', value: '34.65' }])({ text: '' })).toMatchObject({
      passed: false,
      score: 0,
    })
  })

  it.skipIf(!python)("ABQ, PSAQ and UASQ equal the script's figures on a set of answered questions", () => {
    const dir = mkdtempSync(join(tmpdir(), 'dabench-official-'))
    try {
      const questions = CASES.map((c, i) => ({
        id: i,
        question: c.what,
        concepts: [i % 3 ? 'Summary Statistics' : 'Correlation Analysis'],
        constraints: '',
        format: '',
        file_name: 'x.csv',
        level: 'easy',
      }))
      writeFileSync(join(dir, 'q.jsonl'), questions.map((q) => JSON.stringify(q)).join('\n'))
      writeFileSync(
        join(dir, 'l.jsonl'),
        CASES.map((c, i) => JSON.stringify({ id: i, common_answers: c.labels })).join('\n'),
      )
      writeFileSync(
        join(dir, 'r.jsonl'),
        CASES.map((c, i) => JSON.stringify({ id: i, response: c.response })).join('\n'),
      )
      execFileSync(
        'python3',
        [
          join(OFFICIAL, 'eval_closed_form.py'),
          '--questions_file_path',
          'q.jsonl',
          '--labels_file_path',
          'l.jsonl',
          '--responses_file_path',
          'r.jsonl',
        ],
        {
          cwd: dir,
          encoding: 'utf8',
        },
      )
      const out = JSON.parse(
        readFileSync(join(dir, 'eval_outputs', readdirSync(join(dir, 'eval_outputs'))[0]!), 'utf8'),
      ) as {
        main_results: Record<string, number>
        concept_accuracy_analysis: Record<string, number>
      }
      const records = CASES.map((c, i) => {
        const labels = c.labels.map(([name, value]) => ({ name, value }))
        const verdict = dabenchAnswer(labels)({ text: c.response })
        return {
          agent: 'a',
          model: null,
          suite: 'dabench',
          caseId: `dabench-${i}`,
          category: 'easy',
          status: 'ok',
          correct: verdict.passed,
          metrics: {
            score: verdict.score!,
            [DABENCH_SUB_ANSWERS]: new Set(c.labels.map(([n]) => n)).size,
            [`dabench.concept:${questions[i]!.concepts[0]}`]: 1,
          },
        } as unknown as RunRecord
      })
      const [summary] = dabenchSummaries(records)
      const r4 = (x: number) => Math.round(x * 1e4) / 1e4
      expect(r4(summary!.overall.abq.point)).toBe(out.main_results['Accuracy by Question'])
      expect(r4(summary!.overall.psaq.point)).toBe(out.main_results['Accuracy Proportional by Sub-Question'])
      expect(r4(summary!.overall.uasq.point)).toBe(out.main_results['Accuracy by Sub-Question'])
      for (const c of summary!.byConcept)
        expect(r4(c.abq.point), c.concept).toBe(out.concept_accuracy_analysis[c.concept])
      for (const s of [summary!.overall.abq, summary!.overall.psaq, summary!.overall.uasq]) {
        expect(s.low).toBeLessThanOrEqual(s.point)
        expect(s.high).toBeGreaterThanOrEqual(s.point)
        expect(s.high - s.low).toBeGreaterThan(0)
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('DABench grader: pieces', () => {
  it("extracts blocks as Python's re.findall does", () => {
    expect(extractDabenchBlocks('@a[1] @b_2[x y] @c[] @d[1]2]')).toEqual([
      ['a', '1'],
      ['b_2', 'x y'],
      ['c', ''],
      ['d', '1'],
    ])
    // Python's `.` crosses \r (JavaScript's would not).
    expect(extractDabenchBlocks('@a[1\r2]')).toEqual([['a', '1\r2']])
  })

  it("reads numbers as Python's float() does", () => {
    expect(parsePythonFloat(' 1_000.5 ')).toBe(1000.5)
    expect(parsePythonFloat('1.')).toBe(1)
    expect(parsePythonFloat('.5e-1')).toBe(0.05)
    expect(parsePythonFloat('-INF')).toBe(Number.NEGATIVE_INFINITY)
    expect(parsePythonFloat('nan')).toBeNaN()
    for (const bad of ['1__0', '_1', '1_', '0x10', '1,000', '', '.', 'e5', '1e', '١٢x'])
      expect(parsePythonFloat(bad), bad).toBeNull()
    expect(parsePythonFloat('١٢')).toBe(12)
    expect(dabenchEqual(undefined, '1')).toBe(false)
  })

  it('reads a structured value: blocks in a string, [name, value] pairs, a one-row table, a scalar for a one-answer question', () => {
    expect(dabenchResponsePairs({ value: '@a[1]', text: '@a[2] @b[3]' })).toEqual([
      ['a', '2'],
      ['b', '3'],
      ['a', '1'],
    ])
    expect(dabenchResponsePairs({ value: [['a', 1.5], '@b[x]', ['c', true]] })).toEqual([
      ['a', '1.5'],
      ['b', 'x'],
      ['c', 'True'],
    ])
    expect(dabenchResponsePairs({ value: { columns: ['a', 'b'], rows: [['1', '2']] } })).toEqual([
      ['a', '1'],
      ['b', '2'],
    ])
    expect(
      dabenchResponsePairs({
        value: {
          columns: ['name', 'value'],
          rows: [
            ['a', '1'],
            ['b', '2'],
          ],
        },
      }),
    ).toEqual([
      ['a', '1'],
      ['b', '2'],
    ])
    expect(dabenchResponsePairs({ value: 34.65 }, 'mean_fare')).toEqual([['mean_fare', '34.65']])
    expect(dabenchResponsePairs({ value: 34.65 })).toEqual([])
    const two = dabenchAnswer([
      { name: 'a', value: '1' },
      { name: 'b', value: '2' },
    ])
    expect(two({ value: 1 })).toMatchObject({ passed: false, score: 0 })
    expect(
      two({
        value: [
          ['a', 1],
          ['b', 2],
        ],
      }),
    ).toMatchObject({ passed: true, score: 1 })
    expect(
      dabenchAnswer([{ name: 'mean_fare', value: '34.65' }])({ value: 34.65, text: 'the mean fare' }),
    ).toMatchObject({ passed: true })
  })

  it('a refusal is wrong on every sub-answer; the detail names what was missing or wrong', () => {
    const g = dabenchAnswer(TWO.map(([name, value]) => ({ name, value })))
    expect(g({ refused: true, text: '@correlation_coefficient[0.21]' })).toMatchObject({ passed: false, score: 0 })
    const v = g({ text: '@correlation_coefficient[0.3]' })
    expect(v.detail).toBe(
      '0/2 sub-answers right: @correlation_coefficient: expected "0.21", found "0.3"; @relationship_type: expected "linear", missing',
    )
  })

  it('refuses labels that could never match', () => {
    expect(() => dabenchAnswer([])).toThrow(/non-empty/)
    expect(() => dabenchAnswer([{ name: 'two words', value: '1' }])).toThrow(/answer name "two words" is not a word/)
  })
})
