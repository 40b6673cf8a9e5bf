import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { InputError } from '../../src/core/errors.js'
import {
  type ConformanceSpec,
  type ConformanceStatus,
  conformanceMetrics,
  readConformanceMetrics,
  conformanceVerdict,
  evaluateConformance,
  evaluateConformanceSync,
} from '../../src/grading/conformance/index.js'

const SENTIMENT: ConformanceSpec = {
  properties: [{ name: 'sentiment', distribution: { positive: 40, negative: 30, neutral: 30 } }],
}

/** `counts` samples per label, in order, as records with the label in `sentiment`. */
function samplesOf(
  counts: Record<string, number>,
  extra: (i: number) => Record<string, unknown> = () => ({}),
): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = []
  for (const [label, n] of Object.entries(counts))
    for (let i = 0; i < n; i++) out.push({ id: out.length, sentiment: label, ...extra(out.length) })
  return out
}

const fixedClock = () => {
  let t = Date.UTC(2026, 0, 1)
  return () => {
    t += 1500
    return new Date(t)
  }
}

describe('evaluateConformance', () => {
  it('scores an exact match 100', async () => {
    const r = await evaluateConformance(samplesOf({ positive: 40, negative: 30, neutral: 30 }), SENTIMENT)
    expect(r.status).toBe('SUCCEEDED')
    expect(r.conformanceScore).toBe(100)
    expect(r.errorMessage).toBeNull()
    const a = r.distributionAnalysis[0]!
    expect(a.totalVariationDistance).toBe(0)
    expect(a.test!.pValue).toBeCloseTo(1, 12)
    expect(r.nonConformantAreas).toEqual([])
    expect(r.conformanceExplanation).toContain('every label exactly as requested')
  })

  it('the worked example: 45/28/27 evaluated against 40/30/30 requested scores 95.0', async () => {
    const r = await evaluateConformance(samplesOf({ positive: 45, negative: 28, neutral: 27 }), SENTIMENT, {
      now: fixedClock(),
    })
    // TVD = ½(|0.45 − 0.40| + |0.28 − 0.30| + |0.27 − 0.30|) = ½(0.05 + 0.02 + 0.03) = 0.05 → 100 × 0.95 = 95.0.
    expect(r.conformanceScore).toBe(95)
    expect(r.conformanceScore!.toFixed(1)).toBe('95.0')
    const a = r.distributionAnalysis[0]!
    expect(a).toMatchObject({
      propertyName: 'sentiment',
      totalSamples: 100,
      totalSamplesAnalyzed: 100,
      requestedDistributions: { positive: 40, negative: 30, neutral: 30 },
      expectedDistributions: { positive: 40, negative: 30, neutral: 30 },
      expectedSource: 'request',
      evaluatedDistributions: { positive: 45, negative: 28, neutral: 27 },
      totalVariationDistance: 0.05,
    })
    expect(a.test!.method).toBe('exact-multinomial')
    expect(a.test!.pValue).toBeCloseTo(0.6106345802, 8)
    expect(a.deviations.map((d) => d.label)).toEqual(['positive', 'neutral', 'negative'])
    expect(a.deviations[0]!.deviationPoints).toBeCloseTo(5, 9)
    expect(r.conformanceExplanation).toBe(
      'Conformance score 95.0 of 100 over 100 samples. sentiment scores 95.0 (100 samples analyzed; total variation distance 0.050): ' +
        'largest deviations positive 45.0% vs 40.0% requested (+5.0 points), neutral 27.0% vs 30.0% requested (-3.0 points); ' +
        'exact multinomial p = 0.6106, within sampling noise at α = 0.05.',
    )
    expect(r.conformantAreas).toEqual([
      'sentiment: positive 45.0%, negative 28.0%, neutral 27.0% against positive 40.0%, negative 30.0%, neutral 30.0% requested (p = 0.6106)',
    ])
    expect(r).toMatchObject({
      startedAt: '2026-01-01T00:00:01.500Z',
      completedAt: '2026-01-01T00:00:03.000Z',
      durationSeconds: 1.5,
    })
    expect(r.id).toMatch(/^conformance-[0-9a-f]{16}$/)
    expect(conformanceMetrics(r)).toEqual({
      conformanceScore: 95,
      'conformance.sentiment.analyzed': 100,
      'conformance.sentiment.score': 95,
      'conformance.sentiment.p': a.test!.pValue,
      'conformance.sentiment.positive.requested': 40,
      'conformance.sentiment.positive.evaluated': 45,
      'conformance.sentiment.neutral.requested': 30,
      'conformance.sentiment.neutral.evaluated': 27,
      'conformance.sentiment.negative.requested': 30,
      'conformance.sentiment.negative.evaluated': 28,
    })
  })

  it('readConformanceMetrics reads back what conformanceMetrics wrote, dotted names included; null for other runs', async () => {
    const r = await evaluateConformance(samplesOf({ positive: 45, negative: 28, neutral: 27 }), SENTIMENT, {
      now: fixedClock(),
    })
    const metrics = conformanceMetrics(r)
    const p = r.distributionAnalysis[0]!.test!.pValue
    expect(readConformanceMetrics(metrics)).toEqual({
      score: 95,
      rulesPassRate: null,
      properties: [
        {
          name: 'sentiment',
          score: 95,
          p,
          analyzed: 100,
          labels: [
            { label: 'positive', requested: 40, evaluated: 45 },
            { label: 'neutral', requested: 30, evaluated: 27 },
            { label: 'negative', requested: 30, evaluated: 28 },
          ],
        },
      ],
    })
    // A property named `tone.v2` beside one named `tone`: each keeps its own metrics and labels.
    const dotted = {
      'conformance.tone.analyzed': 10,
      'conformance.tone.score': 90,
      'conformance.tone.a.requested': 50,
      'conformance.tone.v2.analyzed': 8,
      'conformance.tone.v2.score': 70,
      'conformance.tone.v2.b.c.requested': 25,
      'conformance.rulesPassRate': 0.5,
    }
    const read = readConformanceMetrics(dotted)!
    expect(read.score).toBeNull()
    expect(read.rulesPassRate).toBe(0.5)
    expect(read.properties.map((x) => [x.name, x.score, x.labels.map((l) => l.label)])).toEqual([
      ['tone', 90, ['a']],
      ['tone.v2', 70, ['b.c']],
    ])
    expect(readConformanceMetrics({ 'conformance.rulesPassRate': 1 })).toEqual({
      score: null,
      rulesPassRate: 1,
      properties: [],
    })
    expect(readConformanceMetrics({ toolCalls: 3 })).toBeNull()
  })

  it('goes PENDING → PROCESSING → SUCCEEDED, and the explanation is deterministic', async () => {
    const seen: ConformanceStatus[] = []
    const samples = samplesOf({ positive: 45, negative: 28, neutral: 27 })
    const r1 = await evaluateConformance(samples, SENTIMENT, { onStatus: (s) => seen.push(s) })
    const r2 = evaluateConformanceSync(samples, SENTIMENT)
    expect(seen).toEqual(['PENDING', 'PROCESSING', 'SUCCEEDED'])
    expect(r2.conformanceExplanation).toBe(r1.conformanceExplanation)
    expect(r2.id).toBe(r1.id)
  })

  it('weights properties by samples analyzed, names the worst, and multiplies by the rules pass rate', async () => {
    const spec: ConformanceSpec = {
      properties: [
        { name: 'sentiment', distribution: { positive: 50, negative: 50 } },
        { name: 'topic', distribution: { billing: 50, shipping: 50 } },
      ],
      rules: z.object({ rating: z.number().int().min(1).max(5) }),
    }
    const samples = Array.from({ length: 10 }, (_, i) => ({
      sentiment: i < 5 ? 'positive' : 'negative', // exact: 100
      topic: i < 4 ? 'shipping' : i < 8 ? 'billing' : undefined, // 4/4 of 8 analyzed: 100; 2 unclassified
      rating: i === 9 ? 7 : 3, // one sample breaks the rules
    }))
    samples[0]!.topic = 'billing' // billing 5, shipping 3 → TVD ½(|.5 − .625| + |.5 − .375|) = 0.125 → 87.5
    const r = await evaluateConformance(samples, spec)
    const [s, t] = r.distributionAnalysis
    expect(s!.score).toBe(100)
    expect(t!.score).toBe(87.5)
    expect(t!.totalSamplesAnalyzed).toBe(8)
    expect(t!.unclassifiedSamples).toBe(2)
    // (100 × 10 + 87.5 × 8) / 18 = 94.444…, × 9/10 passing the rules = 85.0
    expect(r.conformanceScore).toBeCloseTo(((100 * 10 + 87.5 * 8) / 18) * 0.9, 9)
    expect(r.rules).toEqual({ samplesChecked: 10, samplesPassing: 9, passRate: 0.9, violationsByField: { rating: 1 } })
    expect(r.sampleClassifications[9]).toMatchObject({
      rulesPassed: false,
      labels: { sentiment: 'negative', topic: null },
    })
    expect(r.sampleClassifications[9]!.ruleViolations[0]).toMatch(/^rating: /)
    expect(r.sampleClassifications[9]!.unclassifiedReasons).toEqual({ topic: 'no value in field "topic"' })
    expect(r.conformanceExplanation).toContain('Worst property: topic.')
    expect(r.conformanceExplanation).toContain('8 of 10 samples analyzed, 2 unclassified')
    expect(r.conformanceExplanation).toContain('9 of 10 samples (90.0%) pass the rules; violations by field: rating 1.')
    expect(r.nonConformantAreas).toContain('rules: 1 of 10 samples fail (rating 1)')
  })

  it("the README's second example: (95.0 × 100 + 87.5 × 80) / 180 × 0.9 = 82.5", async () => {
    const spec: ConformanceSpec = {
      properties: [SENTIMENT.properties[0]!, { name: 'size', distribution: { small: 50, large: 50 } }],
      rules: { required: ['checked'] },
    }
    const samples = samplesOf({ positive: 45, negative: 28, neutral: 27 }, (i) => ({
      // size: 50 small and 30 large among the first 80 (TVD ½(0.125 + 0.125) = 0.125 → 87.5), 20 without a size.
      ...(i < 80 ? { size: i < 50 ? 'small' : 'large' } : {}),
      // 90 of the 100 pass the rules.
      ...(i % 10 === 3 ? {} : { checked: true }),
    }))
    const r = await evaluateConformance(samples, spec)
    expect(r.distributionAnalysis.map((a) => [a.score, a.totalSamplesAnalyzed])).toEqual([
      [95, 100],
      [87.5, 80],
    ])
    expect(r.rules!.passRate).toBe(0.9)
    expect(r.conformanceScore).toBe(82.5)
  })

  it('compiles JSON rules: required fields, formats, ranges (numeric strings accepted)', async () => {
    const spec = {
      ...SENTIMENT,
      rules: {
        required: ['text', 'email'],
        fields: { email: { format: 'email' }, rating: { type: 'integer', min: 1, max: 5 }, text: { minLength: 5 } },
      },
    }
    const samples = [
      { sentiment: 'positive', text: 'great stuff', email: 'a@b.co', rating: '4' },
      { sentiment: 'positive', text: 'ok', email: 'a@b.co', rating: 4 },
      { sentiment: 'negative', text: 'awful stuff', email: 'not-an-email', rating: 9 },
      { sentiment: 'neutral', text: 'meh it is', rating: 2 },
    ]
    const r = await evaluateConformance(samples, spec)
    expect(r.sampleClassifications.map((s) => s.rulesPassed)).toEqual([true, false, false, false])
    expect(r.sampleClassifications[1]!.ruleViolations).toEqual([expect.stringMatching(/^text: /)])
    expect(r.sampleClassifications[2]!.ruleViolations).toHaveLength(2)
    expect(r.sampleClassifications[3]!.ruleViolations).toEqual(['email: required field is missing or empty'])
    expect(r.rules!.violationsByField).toEqual({ email: 2, rating: 1, text: 1 })
  })

  it('counts the generation plan as the expected distribution and measures agreement with it', async () => {
    const spec: ConformanceSpec = {
      properties: [
        { name: 'sentiment', distribution: { positive: 40, negative: 30, neutral: 30 }, planField: 'asked' },
      ],
    }
    // Planned 4/3/3, but the generator drifted: sample 3 was asked for positive and came out neutral.
    const asked = [
      'positive',
      'positive',
      'positive',
      'positive',
      'negative',
      'negative',
      'negative',
      'neutral',
      'neutral',
      'neutral',
    ]
    const got = [
      'positive',
      'positive',
      'positive',
      'neutral',
      'negative',
      'negative',
      'negative',
      'neutral',
      'neutral',
      'neutral',
    ]
    const r = await evaluateConformance(
      asked.map((a, i) => ({ asked: a, sentiment: got[i] })),
      spec,
    )
    const a = r.distributionAnalysis[0]!
    expect(a.expectedSource).toBe('plan')
    expect(a.expectedDistributions).toEqual({ positive: 4, negative: 3, neutral: 3 })
    expect(a.evaluatedDistributions).toEqual({ positive: 3, negative: 3, neutral: 4 })
    expect(a.planAgreement).toBeCloseTo(0.9, 12)
    expect(r.sampleClassifications[3]!.planned).toEqual({ sentiment: 'positive' })
    await expect(evaluateConformance([{ sentiment: 'positive' }], spec)).rejects.toThrow(
      'samples[0]: no plan field "asked" for property "sentiment"',
    )
    await expect(evaluateConformance([{ sentiment: 'positive', asked: 'happy' }], spec)).rejects.toThrow(
      /samples\[0\]\.asked: planned label "happy"/,
    )
  })

  it('without a plan, expected counts are the request rounded by largest remainder over the analyzed samples', async () => {
    const spec: ConformanceSpec = {
      properties: [{ name: 'sentiment', distribution: { positive: 40, negative: 30, neutral: 30, mixed: 0 } }],
    }
    const r = await evaluateConformance(samplesOf({ positive: 4, negative: 2, neutral: 1 }), spec)
    // 7 × (0.4, 0.3, 0.3, 0) = 2.8, 2.1, 2.1, 0 → 2, 2, 2, 0 + the one left to the 0.8 remainder.
    expect(r.distributionAnalysis[0]!.expectedDistributions).toEqual({ positive: 3, negative: 2, neutral: 2, mixed: 0 })
  })

  it('orders deviations by size, equal sizes in spec order (no floating-point dust)', async () => {
    // 25/18/17 of 60: positive +1.667, neutral −1.667 (equal), negative 0.
    const r = await evaluateConformance(samplesOf({ positive: 25, negative: 18, neutral: 17 }), SENTIMENT)
    expect(r.distributionAnalysis[0]!.deviations.map((d) => d.label)).toEqual(['positive', 'neutral', 'negative'])
  })

  it('labels outside the request count against the score with 0% requested', async () => {
    const r = await evaluateConformance(samplesOf({ positive: 4, negative: 3, neutral: 2, sarcastic: 1 }), SENTIMENT)
    const a = r.distributionAnalysis[0]!
    expect(a.evaluatedDistributions).toEqual({ positive: 4, negative: 3, neutral: 2, sarcastic: 1 })
    expect(a.deviations[0]).toMatchObject({ label: 'neutral', deviationPoints: -10 })
    expect(a.score).toBe(90) // ½(0 + 0 + 0.1 + 0.1) = 0.1
    expect(a.test!.pValue).toBe(0) // impossible under the request
  })

  it('a classifier that fails on some samples leaves them out and says how many', async () => {
    const samples = samplesOf({ positive: 40, negative: 30, neutral: 30 })
    const classify = (s: Record<string, unknown>, _p: unknown, i: number) => {
      if (i % 10 === 0) throw new Error(`model hiccup on ${i}`)
      return s['sentiment'] as string
    }
    const r = await evaluateConformance(samples, SENTIMENT, { classify })
    const a = r.distributionAnalysis[0]!
    expect(r.status).toBe('SUCCEEDED')
    expect(a.totalSamples).toBe(100)
    expect(a.totalSamplesAnalyzed).toBe(90)
    expect(a.unclassifiedSamples).toBe(10)
    expect(a.classifierErrors).toBe(10)
    expect(a.unclassifiedExamples[0]).toEqual({ sampleIndex: 0, reason: 'model hiccup on 0' })
    // samples 0, 10, 20, 30 were positive, 40, 50, 60 negative, 70, 80, 90 neutral → 36/27/27 of 90 = 40/30/30.
    expect(r.conformanceScore).toBe(100)
    expect(r.conformanceExplanation).toContain('90 of 100 samples analyzed, 10 unclassified (10 classifier failures)')
  })

  it('a classifier that fails on all samples gives FAILED with the message and keeps what was computed', async () => {
    const spec: ConformanceSpec = { ...SENTIMENT, rules: { required: ['id'] } }
    const seen: ConformanceStatus[] = []
    const r = await evaluateConformance(samplesOf({ positive: 2, negative: 1 }), spec, {
      classify: async () => {
        throw new Error('HTTP 500 from the classifier')
      },
      onStatus: (s) => seen.push(s),
    })
    expect(seen).toEqual(['PENDING', 'PROCESSING', 'FAILED'])
    expect(r.status).toBe('FAILED')
    expect(r.conformanceScore).toBeNull()
    expect(r.errorMessage).toBe(
      'the classifier function:classify labelled none of the 3 samples for property "sentiment" (sample 0: HTTP 500 from the classifier)',
    )
    expect(r.conformanceExplanation).toMatch(/^Evaluation failed: the classifier/)
    expect(r.rules).toMatchObject({ samplesChecked: 3, samplesPassing: 3 })
    expect(r.distributionAnalysis[0]).toMatchObject({
      totalSamplesAnalyzed: 0,
      unclassifiedSamples: 3,
      classifierErrors: 3,
      score: null,
      test: null,
    })
    expect(r.sampleClassifications).toHaveLength(3)
    expect(conformanceVerdict(r, { minScore: 0 })).toMatchObject({
      passed: false,
      reasons: [expect.stringMatching(/^the evaluation failed/)],
    })
  })

  it('reads labels from a named field, or one classifier per property', async () => {
    const samples = [
      { label: 'positive', t: 'billing' },
      { label: 'negative', t: 'billing' },
    ]
    const spec: ConformanceSpec = {
      properties: [
        { name: 'sentiment', distribution: { positive: 50, negative: 50 } },
        { name: 'topic', distribution: { billing: 100 } },
      ],
    }
    const r = await evaluateConformance(samples, spec, {
      classify: { sentiment: 'field:label', topic: (s) => s['t'] as string },
    })
    expect(r.conformanceScore).toBe(100)
    expect(r.distributionAnalysis.map((a) => a.classifier)).toEqual(['field:label', 'function:topic'])
  })
})

describe('bad input', () => {
  const bad = async (samples: unknown, spec: unknown, opts = {}) => {
    const error = await evaluateConformance(samples, spec, opts).then(
      () => null,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(InputError)
    return (error as Error).message
  }

  it('shares not summing to 100 name the property', async () => {
    expect(await bad([{}], { properties: [{ name: 'tone', distribution: { warm: 50, cold: 49.5 } }] })).toBe(
      'spec: property "tone": shares sum to 99.5, not 100 (± 0.01)',
    )
    // 33.33 × 3 = 99.99 is within the tolerance.
    await expect(
      evaluateConformance([{ tone: 'a' }], {
        properties: [{ name: 'tone', distribution: { a: 33.33, b: 33.33, c: 33.34 } }],
      }),
    ).resolves.toMatchObject({ status: 'SUCCEEDED' })
  })

  it('unknown properties, negative shares, duplicates, empty samples and unknown classifier targets', async () => {
    expect(await bad([{}], { properties: [{ name: 'tone', distrib: { a: 100 } }] })).toBe(
      'spec: properties[0]: unknown property "distrib"',
    )
    expect(await bad([{}], { properties: [{ name: 'tone', distribution: { a: 100 } }], weights: 1 })).toBe(
      'spec: unknown property "weights"',
    )
    expect(await bad([{}], { properties: [{ name: 'tone', distribution: { a: 110, b: -10 } }] })).toBe(
      'spec: properties[0].distribution.b: shares must be ≥ 0',
    )
    expect(await bad([{}], { properties: [] })).toBe('spec: properties: at least one property is needed')
    expect(
      await bad([{}], {
        properties: [
          { name: 't', distribution: { a: 100 } },
          { name: 't', distribution: { a: 100 } },
        ],
      }),
    ).toBe('spec: property "t" appears twice')
    expect(await bad([], SENTIMENT)).toBe('samples: empty; there is nothing to evaluate')
    expect(await bad([{}, 'text'], SENTIMENT)).toBe('samples[1]: expected a record (an object), got string')
    expect(await bad([{}], SENTIMENT, { classify: { tone: 'field:x' } })).toBe(
      'classify: unknown property "tone"; the spec has "sentiment"',
    )
    expect(await bad([{}], { ...SENTIMENT, rules: { fields: { n: { min: 'one' } } } })).toMatch(
      /^spec: rules\.fields\.n\.min: /,
    )
  })

  it('one field classifier for a spec of several properties names them (a function or model is told the property)', async () => {
    const two = { properties: [SENTIMENT.properties[0]!, { name: 'topic', distribution: { price: 100 } }] }
    expect(await bad([{ sentiment: 'positive', topic: 'price' }], two, { classify: 'field:sentiment' })).toBe(
      'classify: field:sentiment would label all 2 properties (sentiment, topic) from the one field "sentiment"; ' +
        "give one per property ({ sentiment: 'field:…', topic: 'field:…' }) or none (each property reads its own field)",
    )
    const byName = await evaluateConformance([{ sentiment: 'positive', topic: 'price' }], two, {
      classify: (s, p) => s[p.name] as string,
    })
    expect(byName.distributionAnalysis.map((a) => a.totalSamplesAnalyzed)).toEqual([1, 1])
  })
})
