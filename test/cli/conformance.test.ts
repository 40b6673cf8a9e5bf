import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runCli, withTempDir } from '../helpers/cli-harness.js'
import { FakeProvider, userMessageOf } from '../helpers/fake-llm-upstream.js'
import { chatCompletion } from '../helpers/tool-model.js'
import { FAKE_KEY } from '../helpers/providers.js'
import { expectSelfContainedHtml } from '../helpers/html-self-contained.js'

const SPEC = { properties: [{ name: 'sentiment', distribution: { positive: 40, negative: 30, neutral: 30 } }] }

/** 45/28/27 samples as JSONL: the worked example. */
function workedExample(dir: string, field = 'sentiment'): string {
  const lines: string[] = []
  for (const [label, n] of [
    ['positive', 45],
    ['negative', 28],
    ['neutral', 27],
  ] as const) {
    for (let i = 0; i < n; i++)
      lines.push(JSON.stringify({ id: lines.length, [field]: label, text: `${label} text ${i}` }))
  }
  writeFileSync(join(dir, 's.jsonl'), `${lines.join('\n')}\n`)
  return 's.jsonl'
}

function writeSpec(dir: string, spec: unknown = SPEC, name = 'spec.json'): string {
  writeFileSync(join(dir, name), JSON.stringify(spec))
  return name
}

describe('dataforge-evals conformance', () => {
  it('evaluates JSONL samples, writes the Markdown and the JSON with its run record', () =>
    withTempDir(async (dir) => {
      const r = await runCli(
        [
          'conformance',
          '--samples',
          workedExample(dir),
          '--spec',
          writeSpec(dir),
          '--classifier',
          'field:sentiment',
          '--output',
          'c.md',
          '--output-json',
          'c.json',
          '--agent',
          'review-gen',
        ],
        dir,
      )
      expect(r.code).toBe(0)
      expect(r.stderr).toBe('conformance: PENDING\nconformance: PROCESSING\nconformance: SUCCEEDED\n')
      expect(r.stdout).toMatch(
        /^ok: conformance 95\.0 · worst sentiment 95\.0 · p sentiment 0\.6106; wrote .*c\.md, .*c\.json, .*c\.html\n$/,
      )
      const md = readFileSync(join(dir, 'c.md'), 'utf8')
      expect(md).toContain('- conformance score: 95.0 of 100')
      expect(md).toContain('| positive | 40.0 | 40 | 45 | 45.0 | +5.0 |')
      expect(md).toContain('exact multinomial (5151 outcomes)')
      const json = JSON.parse(readFileSync(join(dir, 'c.json'), 'utf8'))
      expect(json).toMatchObject({ status: 'SUCCEEDED', conformanceScore: 95, errorMessage: null })
      expect(json.distributionAnalysis[0].evaluatedDistributions).toEqual({ positive: 45, negative: 28, neutral: 27 })
      expect(json.runRecord).toMatchObject({
        caseId: 's.jsonl',
        suite: 'conformance',
        agent: 'review-gen',
        status: 'ok',
        correct: true,
        metrics: { conformanceScore: 95, 'conformance.sentiment.score': 95, 'conformance.sentiment.analyzed': 100 },
      })
    }))

  it("reads CSV, defaults to each property's own field, and exits 1 below --min-score", () =>
    withTempDir(async (dir) => {
      writeFileSync(join(dir, 's.csv'), 'sentiment,text\npositive,a\npositive,b\nnegative,c\nneutral,d\n')
      const r = await runCli(['conformance', '--samples', 's.csv', '--spec', writeSpec(dir), '--min-score', '90'], dir)
      // 50/25/25 against 40/30/30: TVD ½(0.10 + 0.05 + 0.05) = 0.10 → 90.0, just at the bar.
      expect(r.code).toBe(0)
      expect(r.stdout).toContain('- conformance score: 90.0 of 100')
      const strict = await runCli(
        ['conformance', '--samples', 's.csv', '--spec', writeSpec(dir), '--min-score', '95'],
        dir,
      )
      expect(strict.code).toBe(1)
      expect(strict.stdout).toMatch(/FAIL: conformance 90\.0 .*\(score 90\.0 is below 95\.0\)\n$/)
    }))

  it('names a per-property classifier field, and exits 1 with the message when the classifier labels nothing', () =>
    withTempDir(async (dir) => {
      const samples = workedExample(dir, 'label')
      const ok = await runCli(
        ['conformance', '--samples', samples, '--spec', writeSpec(dir), '--classifier', 'sentiment=field:label'],
        dir,
      )
      expect(ok.code).toBe(0)
      const failed = await runCli(
        ['conformance', '--samples', samples, '--spec', writeSpec(dir), '--output-json', 'c.json'],
        dir,
      )
      expect(failed.code).toBe(1)
      // Fail closed with one line that says why, once; the reports are written.
      expect(failed.stdout.trimEnd().split('\n').at(-1)).toBe(
        'FAIL: conformance FAILED: the classifier field:sentiment labelled none of the 100 samples for property "sentiment" (sample 0: no value in field "sentiment"); wrote c.json',
      )
      expect(JSON.parse(readFileSync(join(dir, 'c.json'), 'utf8')).runRecord).toMatchObject({
        status: 'failed',
        failureKind: 'exception',
        correct: null,
      })
    }))

  describe('the HTML report', () => {
    it('--output c.md writes c.html beside it: the conformance section with its score, self-contained', () =>
      withTempDir(async (dir) => {
        const r = await runCli(
          ['conformance', '--samples', workedExample(dir), '--spec', writeSpec(dir), '--output', 'out/c.md'],
          dir,
        )
        expect(r.code, r.stderr).toBe(0)
        expect(r.stdout).toMatch(/; wrote out\/c\.md, out\/c\.html\n$/)
        const html = readFileSync(join(dir, 'out', 'c.html'), 'utf8')
        expect(html).toMatch(/^<!doctype html>/i)
        const section = /<section id="conformance">([\s\S]*?)<\/section>/.exec(html)?.[1]
        expect(section).toBeDefined()
        expect(section).toContain('<h2>Conformance</h2>')
        expect(section).toMatch(/<td class="num"[^>]*>95\.0<\/td>/)
        expect(section).toContain('sentiment 95.0')
        expect(section).toContain('<svg')
        expect(html).toContain('a conformance run is correct when its evaluation succeeded')
        // No runs.jsonl here: the footer claims no file it did not write.
        expect(html).not.toContain('runs.jsonl')
        expectSelfContainedHtml(html)
      }))

    it('--output-html puts the page elsewhere, with or without --output', () =>
      withTempDir(async (dir) => {
        const samples = workedExample(dir)
        const spec = writeSpec(dir)
        const moved = await runCli(
          ['conformance', '--samples', samples, '--spec', spec, '--output', 'c.md', '--output-html', 'pages/conf.html'],
          dir,
        )
        expect(moved.code, moved.stderr).toBe(0)
        expect(moved.stdout).toMatch(/; wrote c\.md, pages\/conf\.html\n$/)
        expect(existsSync(join(dir, 'c.html'))).toBe(false)
        expect(readFileSync(join(dir, 'pages', 'conf.html'), 'utf8')).toContain('<section id="conformance">')
        const withJson = await runCli(
          ['conformance', '--samples', samples, '--spec', spec, '--output', 'j.md', '--output-json', 'j.json'],
          dir,
        )
        expect(withJson.code, withJson.stderr).toBe(0)
        expect(readFileSync(join(dir, 'j.html'), 'utf8')).toMatch(/every run is in j\.json\. Each run, its transcript/)

        const alone = await runCli(
          ['conformance', '--samples', samples, '--spec', spec, '--output-html', 'only.html'],
          dir,
        )
        expect(alone.code, alone.stderr).toBe(0)
        expect(alone.stdout).toContain('- conformance score: 95.0 of 100')
        expect(alone.stdout).toMatch(/; wrote only\.html\n$/)
        expectSelfContainedHtml(readFileSync(join(dir, 'only.html'), 'utf8'))
      }))

    it('refuses a page that would overwrite another output, derived or given (exit 2, nothing written)', () =>
      withTempDir(async (dir) => {
        const derived = await runCli(
          ['conformance', '--samples', workedExample(dir), '--spec', writeSpec(dir), '--output', 'c.html'],
          dir,
        )
        expect(derived.code).toBe(2)
        expect(derived.stderr).toMatch(
          /^dataforge-evals: --output-html and --output are the same file \(.*c\.html\); give each its own path\n$/,
        )
        const given = await runCli(
          [
            'conformance',
            '--samples',
            's.jsonl',
            '--spec',
            'spec.json',
            '--output-json',
            'c.json',
            '--output-html',
            'c.json',
          ],
          dir,
        )
        expect(given.code).toBe(2)
        expect(given.stderr).toMatch(
          /^dataforge-evals: --output-html and --output-json are the same file \(.*c\.json\)/,
        )
        expect(existsSync(join(dir, 'c.html'))).toBe(false)
        expect(existsSync(join(dir, 'c.json'))).toBe(false)
      }))
  })

  describe('with a model classifier on loopback', () => {
    let server: FakeProvider
    beforeEach(async () => {
      server = await new FakeProvider().start()
      server.handler = (request) => chatCompletion(/"text":"(\w+) text/.exec(userMessageOf(request))?.[1] ?? 'unsure')
    })
    afterEach(() => server.stop())

    it('agent:openai-compatible classifies each sample through the provider client', () =>
      withTempDir(async (dir) => {
        const samples = workedExample(dir, 'hidden')
        const r = await runCli(
          [
            'conformance',
            '--samples',
            samples,
            '--spec',
            writeSpec(dir),
            '--classifier',
            'agent:openai-compatible',
            '--base-url',
            server.baseUrl,
            '--model',
            'judge-1',
            '--output-json',
            'c.json',
          ],
          dir,
          { OPENAI_API_KEY: FAKE_KEY },
        )
        expect(r.code).toBe(0)
        expect(server.requests).toHaveLength(100)
        expect(r.stdout).toContain('ok: conformance 95.0')
        const json = readFileSync(join(dir, 'c.json'), 'utf8')
        expect(json).not.toContain(FAKE_KEY)
        expect(JSON.parse(json).runRecord).toMatchObject({
          model: 'judge-1',
          provider: 'openai-compatible',
          usage: { calls: 100 },
        })
      }))

    it('a missing key is a one-line input error naming the variable, before any call', () =>
      withTempDir(async (dir) => {
        const r = await runCli(
          [
            'conformance',
            '--samples',
            workedExample(dir),
            '--spec',
            writeSpec(dir),
            '--classifier',
            'agent:openai-compatible',
            '--base-url',
            server.baseUrl,
            '--model',
            'm',
          ],
          dir,
          { OPENAI_API_KEY: '' },
        )
        expect(r.code).toBe(2)
        expect(r.stderr).toMatch(/^dataforge-evals: .*OPENAI_API_KEY.*\n$/)
        expect(server.requests).toHaveLength(0)
      }))
  })

  describe("a spec of two properties (the docs' sentiment and topic)", () => {
    const TWO = {
      properties: [
        { name: 'sentiment', distribution: { positive: 40, negative: 30, neutral: 30 } },
        { name: 'topic', distribution: { delivery: 34, quality: 33, price: 33 } },
      ],
    }
    /** 100 samples: sentiment 40/30/30 in `mood`, topic 34/33/33 in `about`, each exactly as requested. */
    function twoProperties(dir: string): string {
      const moods = [...Array(40).fill('positive'), ...Array(30).fill('negative'), ...Array(30).fill('neutral')]
      const topics = [...Array(34).fill('delivery'), ...Array(33).fill('quality'), ...Array(33).fill('price')]
      const lines = moods.map((mood, i) => JSON.stringify({ mood, about: topics[i] }))
      writeFileSync(join(dir, 'two.jsonl'), `${lines.join('\n')}\n`)
      return 'two.jsonl'
    }

    it('classifies each property by its own --classifier PROPERTY=field:NAME', () =>
      withTempDir(async (dir) => {
        const r = await runCli(
          [
            'conformance',
            '--samples',
            twoProperties(dir),
            '--spec',
            writeSpec(dir, TWO),
            '--classifier',
            'topic=field:about',
            '--classifier',
            'sentiment=field:mood',
            '--output-json',
            'c.json',
          ],
          dir,
        )
        expect(r.code, r.stderr).toBe(0)
        const result = JSON.parse(readFileSync(join(dir, 'c.json'), 'utf8'))
        expect(result.conformanceScore).toBe(100)
        expect(
          result.distributionAnalysis.map((a: { propertyName: string; totalSamplesAnalyzed: number }) => [
            a.propertyName,
            a.totalSamplesAnalyzed,
          ]),
        ).toEqual([
          ['sentiment', 100],
          ['topic', 100],
        ])
      }))

    it('refuses a bare field classifier, naming the properties it would label from one field (exit 2, nothing written)', () =>
      withTempDir(async (dir) => {
        const r = await runCli(
          [
            'conformance',
            '--samples',
            twoProperties(dir),
            '--spec',
            writeSpec(dir, TWO),
            '--classifier',
            'field:mood',
            '--output-json',
            'c.json',
          ],
          dir,
        )
        expect(r.code).toBe(2)
        expect(r.stderr).toBe(
          'dataforge-evals: --classifier field:mood would label all 2 properties (sentiment, topic) from the one field "mood"; ' +
            'give one per property (--classifier sentiment=field:… --classifier topic=field:…) or none (each property reads its own field)\n',
        )
        expect(r.stdout).toBe('')
        expect(existsSync(join(dir, 'c.json'))).toBe(false)
      }))
  })

  describe('bad input: exit 2 with one line naming what is wrong', () => {
    const cases: Array<[string, (dir: string) => string[], RegExp]> = [
      [
        'shares not summing to 100',
        (d) => [
          '--samples',
          workedExample(d),
          '--spec',
          writeSpec(d, {
            properties: [{ name: 'sentiment', distribution: { positive: 40, negative: 30, neutral: 20 } }],
          }),
        ],
        /^dataforge-evals: spec\.json: property "sentiment": shares sum to 90, not 100 \(± 0\.01\)\n$/,
      ],
      [
        'an unknown property in the spec',
        (d) => [
          '--samples',
          workedExample(d),
          '--spec',
          writeSpec(d, { properties: [{ name: 'sentiment', distribution: { a: 100 }, weight: 2 }] }),
        ],
        /^dataforge-evals: spec\.json: properties\[0\]: unknown property "weight"\n$/,
      ],
      [
        'a classifier for an unknown property',
        (d) => ['--samples', workedExample(d), '--spec', writeSpec(d), '--classifier', 'tone=field:x'],
        /^dataforge-evals: --classifier: unknown property "tone"; the spec has "sentiment"\n$/,
      ],
      [
        'empty samples',
        (d) => {
          writeFileSync(join(d, 'e.jsonl'), '\n')
          return ['--samples', 'e.jsonl', '--spec', writeSpec(d)]
        },
        /^dataforge-evals: e\.jsonl: no samples; there is nothing to evaluate\n$/,
      ],
      [
        'a bad JSONL line',
        (d) => {
          writeFileSync(join(d, 'b.jsonl'), '{"sentiment":"positive"}\n{oops\n')
          return ['--samples', 'b.jsonl', '--spec', writeSpec(d)]
        },
        /^dataforge-evals: b\.jsonl line 2: not valid JSON/,
      ],
      [
        'a spec that is not JSON',
        (d) => {
          writeFileSync(join(d, 'spec.json'), '{')
          return ['--samples', workedExample(d), '--spec', 'spec.json']
        },
        /^dataforge-evals: spec\.json: not valid JSON/,
      ],
      [
        'a missing samples file',
        (d) => ['--samples', 'nope.jsonl', '--spec', writeSpec(d)],
        /^dataforge-evals: nope\.jsonl: no such file\n$/,
      ],
      [
        'a classifier of unknown kind',
        (d) => ['--samples', workedExample(d), '--spec', writeSpec(d), '--classifier', 'regex:x'],
        /^dataforge-evals: --classifier: expected field:NAME or agent:ID, got "regex:x"\n$/,
      ],
      [
        'an output path that is a folder',
        (d) => ['--samples', workedExample(d), '--spec', writeSpec(d), '--output', '.'],
        /^dataforge-evals: --output: .* is a folder; give a file path\n$/,
      ],
      ['no --spec', (d) => ['--samples', workedExample(d)], /^dataforge-evals: conformance: --spec is required/],
      [
        'a plan field missing on a sample',
        (d) => [
          '--samples',
          workedExample(d),
          '--spec',
          writeSpec(d, { properties: [{ ...SPEC.properties[0], planField: 'asked' }] }),
        ],
        /^dataforge-evals: s\.jsonl\[0\]: no plan field "asked" for property "sentiment"\n$/,
      ],
    ]
    for (const [name, args, message] of cases) {
      it(name, () =>
        withTempDir(async (dir) => {
          const r = await runCli(['conformance', ...args(dir)], dir)
          expect(r.code).toBe(2)
          expect(r.stderr).toMatch(message)
          expect(r.stderr.trim().split('\n')).toHaveLength(1)
          expect(r.stdout).toBe('')
        }),
      )
    }
  })
})
