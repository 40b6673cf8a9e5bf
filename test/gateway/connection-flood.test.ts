import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { connect, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import OpenAI from 'openai'
import { afterEach, describe, expect, it } from 'vitest'
import type { RunRecord } from '../../src/core/run-record.js'
import type { GatewayTrial } from '../../src/gateway/index.js'
import { cliCommand, finished } from '../helpers/cli-child.js'
import { gate, startCalls, until } from '../helpers/gate.js'
import { gatewayFixture } from '../helpers/gateway-fixture.js'

// Issue 36, item 9: a flood of connections to the gateway must not exhaust the harness's file descriptors. The
// caps are lowered here so a bounded loop (400 sockets) shows what 19,000 did.

const SECRET = 'sk-flood-test-SECRET-12121212'
const fx = gatewayFixture(SECRET, { maxConnections: 40, trialConnections: 4 }, 'flood')
const openai = (trial: GatewayTrial) =>
  new OpenAI({ baseURL: trial.llm.baseURL, apiKey: trial.llm.apiKey, maxRetries: 0 })
const flood: Socket[] = []
let slow = gate()
afterEach(() => {
  slow.open()
  for (const socket of flood.splice(0)) socket.destroy()
})

/** Opens `n` idle connections to the gateway, 50 at a time; counts those the gateway has not closed. */
async function openIdle(n: number): Promise<() => number> {
  const port = Number(new URL(fx.gateway.url).port)
  let open = 0
  for (let done = 0; done < n; done += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, n - done) }, () => {
        const socket = connect(port, '127.0.0.1')
        flood.push(socket)
        socket.on('error', () => undefined)
        socket.once('close', () => open--)
        return new Promise<void>((resolve) =>
          socket
            .once('connect', () => {
              open++
              resolve()
            })
            .once('close', () => resolve()),
        )
      }),
    )
  }
  return () => open
}

describe('a connection flood', () => {
  it('400 idle sockets: the gateway keeps at most maxConnections open, closing the oldest idle ones; calls still go through', {
    timeout: 60_000,
  }, async () => {
    const stillOpen = await openIdle(400)
    expect(await until(() => stillOpen() <= 40)).toBe(true)
    const trial = fx.gateway.openTrial(fx.spec())
    const reply = await openai(trial).chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'still here' }],
    })
    expect(reply.choices[0]!.message.content).toBe('echo:ereh llits')
    expect(trial.finish().failure).toBeNull()
    expect(stillOpen()).toBeLessThanOrEqual(40)
  })

  it("a trial holding more than trialConnections busy connections gets its extra calls refused and fails as invalid_request; another trial's call is answered", {
    timeout: 60_000,
  }, async () => {
    slow = gate()
    fx.fake.handler = async () => {
      await slow.opened
      return undefined
    }
    const before = fx.fake.requests.length
    const greedy = fx.gateway.openTrial(fx.spec({ caseId: 'greedy' }))
    const { outcomes, settled } = startCalls(openai(greedy), 12)
    await until(() => settled() >= 8 && fx.fake.requests.length - before >= 4)
    const polite = fx.gateway.openTrial(fx.spec({ caseId: 'polite' }))
    const other = startCalls(openai(polite), 1)
    expect(await until(() => fx.fake.requests.length - before >= 5)).toBe(true)
    slow.open()
    const results = await Promise.all(outcomes)
    expect(results.filter((r) => r === 'ok')).toHaveLength(4)
    expect(results.filter((r) => r === 429)).toHaveLength(8)
    expect(await Promise.all(other.outcomes)).toEqual(['ok'])
    const ledger = greedy.finish()
    expect(ledger.failure).toMatchObject({
      kind: 'invalid_request',
      message: expect.stringContaining('more than 4 connections to the model gateway at once'),
    })
    expect(ledger.usage.calls).toBe(4)
    expect(polite.finish().failure).toBeNull()
  })
})

const hasPython = spawnSync('python3', ['--version']).status === 0

describe.skipIf(!hasPython)('a connection flood from a cmd: agent (CLI, open files limited to 256)', () => {
  it('the harness keeps its file descriptors: the run goes on, the record and reports are written', {
    timeout: 180_000,
  }, async () => {
    const out = mkdtempSync(join(tmpdir(), 'dfg-gw-flood-'))
    try {
      const [node, ...args] = cliCommand()
      const argv = [
        ...args,
        'run',
        '--dataset',
        'synthetic',
        '--rows',
        '4',
        '--agent',
        'cmd:python3 py_flood_agent.py',
        '--llm',
        fx.fake.baseUrl,
        '--llm-key-env',
        'GW_FLOOD_KEY',
        '--quiet',
        '--output',
        join(out, 'report.md'),
        '--output-json',
        join(out, 'report.json'),
      ]
      // The limit is the child's own (a shell sets it, then runs the CLI): this process keeps its descriptors.
      const child = spawn('sh', ['-c', 'ulimit -n 256 && exec "$@"', 'sh', node!, ...argv], {
        cwd: resolve(import.meta.dirname, 'fixtures'),
        env: { ...process.env, NO_COLOR: '1', GW_FLOOD_KEY: SECRET },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      const result = await finished(child)
      expect(result.stderr).toMatch(/FLOOD (2[0-4]\d)/)
      expect(result.code).toBe(0)
      const [record] = readFileSync(join(out, 'runs.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as RunRecord)
      expect(record).toMatchObject({ agent: 'py-flood', status: 'ok', usageSource: 'gateway' })
      expect(record!.usage.calls).toBe(1)
      expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain('py-flood')
    } finally {
      rmSync(out, { recursive: true, force: true })
    }
  })
})
