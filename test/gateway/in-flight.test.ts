import OpenAI from 'openai'
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { RepairAgent } from '../../src/core/agent.js'
import { closeSharedGateway, type GatewayTrial, resolveLlmConfig } from '../../src/gateway/index.js'
import { runEvaluation } from '../../src/run/run-evaluation.js'
import { gate, startCalls, until } from '../helpers/gate.js'
import { gatewayFixture } from '../helpers/gateway-fixture.js'

// Issue 36, item 7: calls still in flight when a trial ends are cancelled upstream and counted to their trial.

const SECRET = 'sk-inflight-test-SECRET-44332211'
const fx = gatewayFixture(SECRET, { trialConcurrency: 2 }, 'in flight')
let slow = gate()
beforeEach(() => {
  slow = gate()
  fx.fake.handler = async () => {
    await slow.opened
    return undefined
  }
})
afterEach(() => slow.open())
afterAll(() => closeSharedGateway())

const openai = (trial: GatewayTrial) =>
  new OpenAI({ baseURL: trial.llm.baseURL, apiKey: trial.llm.apiKey, maxRetries: 0 })

describe('calls in flight when the trial ends', () => {
  it('calls=3, 6 calls started, the trial ends at once: the upstream requests are aborted and the ledger counts them', {
    timeout: 30_000,
  }, async () => {
    const before = fx.fake.requests.length
    const trial = fx.gateway.openTrial(fx.spec({ budget: { calls: 3 } }))
    const { outcomes, settled } = startCalls(openai(trial), 6)
    // Three are refused by the budget; of the three admitted, two go upstream (trialConcurrency 2), one waits.
    await until(() => settled() >= 3 && fx.fake.requests.length - before >= 2)
    const ledger = trial.finish()
    const sent = fx.fake.requests.slice(before)
    expect(await until(() => sent.every((r) => r.closedEarly))).toBe(true)
    const results = await Promise.all(outcomes)
    expect(results.filter((r) => r === 403)).toHaveLength(3)
    expect(results.filter((r) => r === 'ok')).toHaveLength(0)
    expect(fx.fake.requests.length - before).toBe(2)
    expect(ledger.usage.calls).toBe(2)
    expect(ledger.failure?.kind).toBe('budget_exceeded')
    const cancelled = ledger.calls.filter((c) => c.status === 499)
    expect(cancelled.map((c) => [c.cache, c.error?.replace(/case .* ended/, 'CASE ended')])).toEqual([
      ['live', 'cancelled: CASE ended while this call was in flight; the gateway aborted it upstream'],
      ['live', 'cancelled: CASE ended while this call was in flight; the gateway aborted it upstream'],
      ['refused', 'cancelled: CASE ended while this call waited for a slot; it was not sent'],
    ])
    // Settled once: the cut connections add nothing after the trial ended.
    expect(trial.finish().calls).toHaveLength(6)
  })

  it('cancelInFlight ends a turn: its calls are cancelled and counted, the trial goes on', {
    timeout: 30_000,
  }, async () => {
    const trial = fx.gateway.openTrial(fx.spec())
    const client = openai(trial)
    const before = fx.fake.requests.length
    const { outcomes } = startCalls(client, 1)
    await until(() => fx.fake.requests.length > before)
    expect(trial.cancelInFlight()).toBe(1)
    expect(await Promise.all(outcomes)).toEqual([null])
    slow.open()
    await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'next turn' }] })
    const ledger = trial.finish()
    expect(ledger.calls.map((c) => c.status)).toEqual([499, 200])
    expect(ledger.usage.calls).toBe(2)
  })

  it('through a run: an agent that returns while its calls are in flight gets a record that counts them', {
    timeout: 60_000,
  }, async () => {
    const before = fx.fake.requests.length
    const agent: RepairAgent = {
      name: 'leaves-calls-behind',
      async run(_task, ctx) {
        const { settled } = startCalls(
          new OpenAI({ baseURL: ctx.llm!.baseURL, apiKey: ctx.llm!.apiKey, maxRetries: 0 }),
          6,
        )
        await until(() => settled() >= 3 && fx.fake.requests.length - before >= 3)
        return []
      },
    }
    const llm = resolveLlmConfig({
      llm: { baseUrl: fx.fake.baseUrl, keyEnv: 'GW_RUN_KEY', budget: { calls: 3 } },
      env: { GW_RUN_KEY: SECRET },
      cache: { mode: 'off', dir: fx.dir },
    })
    const { records } = await runEvaluation({
      agents: [agent],
      datasets: [{ id: 'synthetic', rows: 5 }],
      trials: 1,
      seed: 1,
      timeoutMs: null,
      passF1: 1,
      provenance: { projectCommit: null, runDateUtc: '2026-01-01T00:00:00Z' },
      llm,
    })
    const [record] = records
    expect(record!.usage.calls).toBe(3)
    expect(record!.usageSource).toBe('gateway')
    expect(record!.failureKind).toBe('budget_exceeded')
    expect(record!.llmCalls.filter((c) => c.status === 499 && c.cache === 'live')).toHaveLength(3)
    expect(record!.warnings).toContain(
      '3 model call(s) were still in flight when the agent answered; the gateway cancelled them (HTTP 499 in llmCalls) and counted those it had sent upstream',
    )
    const sent = fx.fake.requests.slice(before)
    expect(sent).toHaveLength(3)
    expect(await until(() => sent.every((r) => r.closedEarly))).toBe(true)
    expect(JSON.stringify(record)).not.toContain(SECRET)
  })
})
