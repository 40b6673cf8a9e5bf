import OpenAI from 'openai'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { GatewayTrial } from '../../src/gateway/index.js'
import { gate, startCalls, until } from '../helpers/gate.js'
import { gatewayFixture } from '../helpers/gateway-fixture.js'

// Issue 36, item 6 and the per-trial concurrency: a budget holds however many calls arrive at once.

const SECRET = 'sk-budget-test-SECRET-99887766'
const fx = gatewayFixture(SECRET, { trialConcurrency: 3 }, 'budget')
let slow = gate()
beforeEach(() => {
  slow = gate()
})
// A test that fails halfway leaves no call hanging at the provider for the next one.
afterEach(() => slow.open())
const slowProvider = () => {
  fx.fake.handler = async () => {
    await slow.opened
    return undefined
  }
}
const openai = (trial: GatewayTrial) =>
  new OpenAI({ baseURL: trial.llm.baseURL, apiKey: trial.llm.apiKey, maxRetries: 0 })

const callsAtOnce = (trial: GatewayTrial, n: number, extra: Record<string, unknown> = {}) =>
  startCalls(openai(trial), n, extra)

describe('budgets are enforced before forwarding, with the calls in flight reserved', () => {
  it('calls=1 with 60 slow calls at once: one reaches the upstream, 59 are refused, the trial is budget_exceeded', {
    timeout: 60_000,
  }, async () => {
    slowProvider()
    const before = fx.fake.requests.length
    const trial = fx.gateway.openTrial(fx.spec({ budget: { calls: 1 } }))
    const { outcomes, settled } = callsAtOnce(trial, 60)
    await until(() => settled() >= 59)
    slow.open()
    const results = await Promise.all(outcomes)
    expect(fx.fake.requests.length - before).toBe(1)
    expect(results.filter((r) => r === 'ok')).toHaveLength(1)
    expect(results.filter((r) => r === 403)).toHaveLength(59)
    const ledger = trial.finish()
    expect(ledger.usage.calls).toBe(1)
    expect(ledger.failure?.kind).toBe('budget_exceeded')
    expect(ledger.failure?.message).toMatch(/budget exceeded: this would be call 2 of at most 1 \(1 in flight\)/)
    expect(ledger.calls.filter((c) => c.cache === 'refused' && c.status === 403)).toHaveLength(59)
  })

  it('tokens: each call in flight reserves its prompt estimate plus max_tokens, so calls at once cannot all pass the limit', {
    timeout: 60_000,
  }, async () => {
    slowProvider()
    const before = fx.fake.requests.length
    const trial = fx.gateway.openTrial(fx.spec({ budget: { tokens: 100 } }))
    const { outcomes, settled } = callsAtOnce(trial, 10, { max_tokens: 50 })
    await until(() => settled() >= 8)
    slow.open()
    const results = await Promise.all(outcomes)
    // About 19 prompt tokens (76 characters / 4) + 50 each: the first two are admitted, then 138 reserved of 100.
    expect(fx.fake.requests.length - before).toBe(2)
    expect(results.filter((r) => r === 403)).toHaveLength(8)
    const ledger = trial.finish()
    expect(ledger.usage.calls).toBe(2)
    expect(ledger.failure?.message).toMatch(/0 tokens spent and \d+ reserved by 2 call\(s\) in flight of at most 100/)
  })

  it('a budget with room for every call refuses none, and the reservations are released (sequential calls go on)', async () => {
    const trial = fx.gateway.openTrial(fx.spec({ budget: { calls: 6, tokens: 100_000 } }))
    const { outcomes } = callsAtOnce(trial, 3)
    expect(await Promise.all(outcomes)).toEqual(['ok', 'ok', 'ok'])
    const client = openai(trial)
    for (let i = 0; i < 3; i++)
      await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'next' }] })
    await expect(
      client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'seventh' }] }),
    ).rejects.toThrow(/call 7 of at most 6/)
    expect(trial.finish().usage.calls).toBe(6)
  })
})

describe('concurrency per trial', () => {
  it('at most trialConcurrency calls of one trial reach the upstream at once; the rest wait their turn and are answered', {
    timeout: 60_000,
  }, async () => {
    slowProvider()
    fx.fake.maxInFlight = 0
    const before = fx.fake.requests.length
    const trial = fx.gateway.openTrial(fx.spec())
    const other = fx.gateway.openTrial(fx.spec({ caseId: 'other' }))
    const { outcomes } = callsAtOnce(trial, 10)
    await until(() => fx.fake.requests.length - before >= 3)
    // Given time, a fourth call of the same trial does not come; another trial's call does.
    expect(await until(() => fx.fake.requests.length - before > 3, 500)).toBe(false)
    const otherCall = callsAtOnce(other, 1)
    expect(await until(() => fx.fake.requests.length - before === 4)).toBe(true)
    slow.open()
    expect(await Promise.all([...outcomes, ...otherCall.outcomes])).toEqual(Array(11).fill('ok'))
    expect(fx.fake.maxInFlight).toBe(4)
    expect(trial.finish().usage.calls).toBe(10)
    other.finish()
  })
})
