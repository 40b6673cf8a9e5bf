import type { ModelClassifier, ModelLabel, PropertyInfo, Sample } from '../grading/conformance/classify.js'
import type { ChatClient } from './providers/chat-client.js'
import type { ChatMessage } from './providers/chat-types.js'

export interface ModelClassifierOptions {
  /** Calls in flight at once (beside the client's own rate limits). Default 4. */
  concurrency?: number
  /** Show the model only this field of each sample (e.g. the review text); default the whole sample as JSON. */
  textField?: string
  /** Part of the cache key: classifications of different trials are independent samples. Default 0. */
  trial?: number
  seed?: number
  signal?: AbortSignal
  /** Names the evaluation in cache-miss errors. */
  caseId?: string
}

const SYSTEM_PROMPT =
  'You label generated data samples. Read the sample and answer with exactly one of the allowed labels, ' +
  'written as given, and nothing else. If none fits, answer "unclassifiable".'

/**
 * A classifier that asks a model, through a provider's chat client (rate limits, 429 backoff, accounting and
 * record/replay cache included), for each sample's label among the property's allowed labels. An answer that is
 * not one of them (after trimming quotes, a trailing period and case) leaves the sample unclassified; a failed
 * call leaves it unclassified as a classifier failure. The plan fields are never shown to the model.
 */
export function modelClassifier(client: ChatClient, opts: ModelClassifierOptions = {}): ModelClassifier {
  const limit = opts.concurrency ?? 4
  if (!(Number.isInteger(limit) && limit >= 1))
    throw new RangeError(`modelClassifier: concurrency must be a positive integer, got ${limit}`)
  const gate = semaphore(limit)
  return {
    kind: 'model',
    name: `${client.agent}/${client.model}`,
    async classify(sample: Sample, property: PropertyInfo, index: number): Promise<ModelLabel> {
      const release = await gate()
      try {
        const reply = await client.chat(
          { messages: classificationPrompt(sample, property, opts.textField), temperature: 0, maxTokens: 20 },
          {
            trial: opts.trial ?? 0,
            seed: opts.seed ?? 0,
            caseId: `${opts.caseId ?? 'conformance'} · ${property.name} · sample ${index}`,
            ...(opts.signal ? { signal: opts.signal } : {}),
          },
        )
        const answer = reply.content ?? reply.refusal ?? ''
        const label = matchLabel(answer, property.labels)
        return label === null
          ? {
              label: null,
              reason: `answer ${JSON.stringify(answer.slice(0, 80))} is not one of ${property.labels.join(', ')}`,
              usage: reply.usage,
            }
          : { label, usage: reply.usage }
      } finally {
        release()
      }
    },
  }
}

export function classificationPrompt(sample: Sample, property: PropertyInfo, textField?: string): ChatMessage[] {
  const shown =
    textField !== undefined
      ? String(sample[textField] ?? '')
      : JSON.stringify(withoutFields(sample, property.hiddenFields))
  const lines = [
    `Property: ${property.name}`,
    ...(property.description ? [`Meaning: ${property.description}`] : []),
    `Allowed labels: ${property.labels.join(', ')}`,
    '',
    'Sample:',
    shown,
    '',
    'Label:',
  ]
  return [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'user', content: lines.join('\n') },
  ]
}

function withoutFields(sample: Sample, hidden: readonly string[]): Sample {
  if (hidden.length === 0) return sample
  return Object.fromEntries(Object.entries(sample).filter(([k]) => !hidden.includes(k)))
}

/** The allowed label the answer names: exact, else ignoring case, surrounding quotes/backticks and a trailing period. */
export function matchLabel(answer: string, labels: readonly string[]): string | null {
  const trimmed = answer.trim()
  if (labels.includes(trimmed)) return trimmed
  const normalized = trimmed
    .replace(/^["'`*\s]+|["'`*.\s]+$/g, '')
    .replace(/^label:\s*/i, '')
    .toLowerCase()
  const hits = labels.filter((l) => l.toLowerCase() === normalized)
  return hits.length === 1 ? hits[0]! : null
}

function semaphore(limit: number): () => Promise<() => void> {
  let active = 0
  const waiting: Array<() => void> = []
  const release = () => {
    active--
    waiting.shift()?.()
  }
  return () =>
    new Promise((resolve) => {
      const start = () => {
        active++
        resolve(release)
      }
      if (active < limit) start()
      else waiting.push(start)
    })
}
