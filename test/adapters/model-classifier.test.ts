import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { classificationPrompt, matchLabel, modelClassifier } from '../../src/adapters/model-classifier.js'
import { type ChatClient, createChatClient } from '../../src/adapters/providers/index.js'
import { type ConformanceSpec, evaluateConformance } from '../../src/grading/conformance/index.js'
import { FakeProvider, errorReply, userMessageOf, type ProviderRequest } from '../helpers/fake-llm-upstream.js'
import { chatCompletion } from '../helpers/tool-model.js'
import { FAKE_KEY, tempDir } from '../helpers/providers.js'

const spec: ConformanceSpec = {
  properties: [
    {
      name: 'sentiment',
      distribution: { positive: 50, negative: 50 },
      planField: 'asked',
      description: "the reviewer's overall feeling",
    },
  ],
}
const samples = [
  { asked: 'positive', text: 'I love this kettle' },
  { asked: 'positive', text: 'Love the colour' },
  { asked: 'negative', text: 'It broke, I hate it' },
  { asked: 'negative', text: 'Hate the noise' },
]

/** The judge: reads the sample text from the prompt; "love" → positive, "hate" → negative. */
function judge(request: ProviderRequest) {
  const text = userMessageOf(request)
  return chatCompletion(text.includes('love') || text.includes('Love') ? ' "positive" ' : 'Negative.', {
    promptTokens: 50,
    completionTokens: 2,
  })
}

let server: FakeProvider
const clients: ChatClient[] = []
beforeEach(async () => {
  server = await new FakeProvider().start()
})
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()))
  await server.stop()
})

function client(cache?: { mode: 'record' | 'replay' | 'off'; dir: string }): ChatClient {
  const c = createChatClient('openai-compatible', {
    baseUrl: server.baseUrl,
    model: 'judge-1',
    env: { OPENAI_API_KEY: FAKE_KEY },
    envFile: join(tempDir(), 'absent.env'),
    cache: cache ?? { mode: 'off', dir: tempDir() },
    maxServerRetries: 0,
    log: () => undefined,
  })
  clients.push(c)
  return c
}

describe('model classifier (OpenAI chat-completions on 127.0.0.1)', () => {
  it('prompts with the allowed labels, hides the plan field, and reads normalized answers', async () => {
    server.handler = judge
    const r = await evaluateConformance(samples, spec, { classify: modelClassifier(client()) })
    expect(r.status).toBe('SUCCEEDED')
    expect(r.conformanceScore).toBe(100)
    expect(r.distributionAnalysis[0]).toMatchObject({
      classifier: 'model:openai-compatible/judge-1',
      totalSamplesAnalyzed: 4,
      planAgreement: 1,
    })
    expect(server.requests).toHaveLength(4)
    const body = server.requests[0]!.body as {
      model: string
      temperature: number
      messages: Array<{ role: string; content: string }>
    }
    expect(body.model).toBe('judge-1')
    expect(body.temperature).toBe(0)
    const user = userMessageOf(server.requests[0]!)
    expect(user).toContain('Property: sentiment')
    expect(user).toContain("Meaning: the reviewer's overall feeling")
    expect(user).toContain('Allowed labels: positive, negative')
    expect(user).not.toContain('asked')
    expect(r.usage).toMatchObject({ calls: 4, promptTokens: 200, completionTokens: 8 })
    expect(JSON.stringify(r)).not.toContain(FAKE_KEY)
  })

  it('answers outside the labels and failed calls leave samples unclassified, and say how many', async () => {
    server.handler = (request) => {
      const text = userMessageOf(request)
      if (text.includes('kettle')) return chatCompletion('It is mostly positive, I think')
      if (text.includes('noise')) return errorReply(400, 'context too long')
      return judge(request)
    }
    const r = await evaluateConformance(samples, spec, { classify: modelClassifier(client()) })
    const a = r.distributionAnalysis[0]!
    expect(r.status).toBe('SUCCEEDED')
    expect(a).toMatchObject({ totalSamples: 4, totalSamplesAnalyzed: 2, unclassifiedSamples: 2, classifierErrors: 1 })
    expect(r.sampleClassifications[0]!.unclassifiedReasons['sentiment']).toBe(
      'answer "It is mostly positive, I think" is not one of positive, negative',
    )
    expect(r.sampleClassifications[3]!.unclassifiedReasons['sentiment']).toMatch(
      /^openai-compatible \(openai-compatible, judge-1\): HTTP 400/,
    )
    expect(r.conformanceExplanation).toContain('2 of 4 samples analyzed, 2 unclassified (1 classifier failures)')
  })

  it('a model that fails on every sample gives FAILED with its message', async () => {
    server.handler = () => errorReply(503, 'overloaded')
    const r = await evaluateConformance(samples, spec, { classify: modelClassifier(client()) })
    expect(r.status).toBe('FAILED')
    expect(r.conformanceScore).toBeNull()
    expect(r.errorMessage).toMatch(
      /^the classifier model:openai-compatible\/judge-1 labelled none of the 4 samples for property "sentiment" \(sample 0: .*HTTP 503/,
    )
    expect(r.sampleClassifications).toHaveLength(4)
  })

  it('records classifications in the cache and replays them without calling the server', async () => {
    server.handler = judge
    const dir = tempDir()
    const live = await evaluateConformance(samples, spec, {
      classify: modelClassifier(client({ mode: 'record', dir })),
    })
    expect(readdirSync(dir).filter((f) => f.endsWith('.json'))).toHaveLength(4)
    for (const f of readdirSync(dir)) expect(readFileSync(join(dir, f), 'utf8')).not.toContain(FAKE_KEY)
    const replayed = await evaluateConformance(samples, spec, {
      classify: modelClassifier(client({ mode: 'replay', dir })),
    })
    expect(replayed.conformanceScore).toBe(live.conformanceScore)
    expect(replayed.usage).toMatchObject({ cachedCalls: 4, promptTokens: 0, completionTokens: 0 })
    expect(server.requests).toHaveLength(4)
  })

  it('keeps at most `concurrency` calls in flight', async () => {
    server.handler = async (request) => {
      await new Promise((resolve) => setImmediate(resolve))
      return judge(request)
    }
    const many = Array.from({ length: 12 }, (_, i) => ({
      asked: i % 2 ? 'negative' : 'positive',
      text: i % 2 ? 'hate' : 'love',
    }))
    await evaluateConformance(many, spec, { classify: modelClassifier(client(), { concurrency: 2 }) })
    expect(server.requests).toHaveLength(12)
    expect(server.maxInFlight).toBeLessThanOrEqual(2)
  })
})

describe('label matching and prompt', () => {
  it('accepts exact labels, case, quotes and a trailing period; nothing else', () => {
    const labels = ['positive', 'negative', 'Mixed']
    expect(matchLabel('positive', labels)).toBe('positive')
    expect(matchLabel('  "Negative". ', labels)).toBe('negative')
    expect(matchLabel('mixed', labels)).toBe('Mixed')
    expect(matchLabel('Label: positive', labels)).toBe('positive')
    expect(matchLabel('positive or negative', labels)).toBeNull()
    expect(matchLabel('', labels)).toBeNull()
  })

  it('shows only the text field when asked', () => {
    const [, user] = classificationPrompt(
      { text: 'Great!', asked: 'positive', id: 3 },
      { name: 'sentiment', labels: ['positive'], hiddenFields: ['asked'] },
      'text',
    )
    expect(user!.content).toContain('Sample:\nGreat!\n')
    expect(user!.content).not.toContain('"id"')
  })
})
