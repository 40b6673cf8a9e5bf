import { describe, expect, it } from 'vitest'
import { DataAgentFailure, newTurnStats } from '../../src/adapters/data-agent/stats.js'
import { ProviderFailure } from '../../src/adapters/providers/failure.js'
import { AgentFailure } from '../../src/core/errors.js'
import { emptyUsage } from '../../src/core/usage.js'
import { classifyFailure } from '../../src/run/classify-failure.js'

// A failure's kind is set where it happens and read from its structure; what the run spent travels typed on it.

describe('classifyFailure', () => {
  it("takes the kind from the failure and what it spent from its typed spent, checked (an agent's code may put anything)", () => {
    const failure = new AgentFailure('rate_limited', 'slow down', {
      usage: { calls: 2, promptTokens: 10, costUsd: -1 },
      steps: 3,
      warnings: ['retried'],
      metrics: { toolCalls: 4, broken: Number.NaN },
    })
    expect(classifyFailure(failure)).toEqual({
      failureKind: 'rate_limited',
      failureMessage: 'slow down',
      usage: { ...emptyUsage(), calls: 2, promptTokens: 10 },
      steps: 3,
      warnings: ['retried'],
      metrics: { toolCalls: 4 },
    })
    expect(classifyFailure(new AgentFailure('refusal', 'no', { steps: -1 }))).toEqual({
      failureKind: 'refusal',
      failureMessage: 'no',
    })
  })

  it("reads a provider's and a data agent's failure through the same spent", () => {
    const usage = { ...emptyUsage(), calls: 1, completionTokens: 7 }
    const provider = new ProviderFailure('parse_failure', 'no JSON', usage, 2, ['cut'])
    expect(provider.spent).toEqual({ usage, steps: 2, warnings: ['cut'] })
    expect(classifyFailure(provider)).toMatchObject({
      failureKind: 'parse_failure',
      usage,
      steps: 2,
      warnings: ['cut'],
    })
    const data = new DataAgentFailure('no_answer', 'ran out of steps', newTurnStats())
    expect(classifyFailure(data)).toMatchObject({ failureKind: 'no_answer', metrics: data.metrics })
  })

  it('never reads a kind from the text: anything but an AgentFailure is an exception', () => {
    expect(classifyFailure(new Error('request timed out'))).toEqual({
      failureKind: 'exception',
      failureMessage: 'Error: request timed out',
    })
    expect(classifyFailure(new AgentFailure('exception', 'timeout'))).toEqual({
      failureKind: 'exception',
      failureMessage: 'timeout',
    })
    expect(classifyFailure('gone')).toEqual({ failureKind: 'exception', failureMessage: 'thrown non-error: gone' })
  })
})
