import { readFileSync } from 'node:fs'
import { expect, test } from 'vitest'
import type { ConformanceSpec } from 'dataforge-evals'

// Synthetic-data conformance: 60 generated product reviews (fixtures/conformance/reviews.jsonl) were asked for
// a 40/30/30 sentiment mix (each sample carries the label it was asked for in `requested_sentiment`), an even
// topic mix, and a rating from 1 to 5. Labels come from the samples' own fields here; pass a function or a
// model classifier (`modelClassifier(createChatClient('groq-llama-70b'))`) as `classify` to label them instead.
const samples = readFileSync(new URL('../fixtures/conformance/reviews.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line) as Record<string, unknown>)
const spec = JSON.parse(readFileSync(new URL('../fixtures/conformance/reviews.spec.json', import.meta.url), 'utf8')) as ConformanceSpec

test('review generator follows the requested sentiment and topic mix', () => {
  expect(samples).toMatchDistribution(spec, { minScore: 95, alpha: 0.05 })
})

test('sentiment labelled from the rating by a function classifier', () => {
  const sentiment = (s: Record<string, unknown>) => {
    const rating = Number(s['rating'])
    return rating >= 4 ? 'positive' : rating <= 2 ? 'negative' : 'neutral'
  }
  expect(samples).toMatchDistribution({ properties: [spec.properties[0]!] }, { classify: { sentiment }, minScore: 95 })
})
