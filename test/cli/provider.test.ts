import { readFile, readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runCli, withTempDir } from '../helpers/cli-harness.js'
import { FakeProvider } from '../helpers/fake-llm-upstream.js'
import { chatCompletion } from '../helpers/tool-model.js'

const KEY = 'sk-test-9f8e7d6c5b4a'
const products = (file: string) => join(process.cwd(), 'fixtures/repair/products', file)

async function allText(dir: string): Promise<string> {
  let text = ''
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) text += await readFile(join(entry.parentPath, entry.name), 'utf8')
  }
  return text
}

describe('dataforge-evals run with a model provider (loopback server)', () => {
  let server: FakeProvider | undefined
  afterEach(async () => {
    await server?.stop()
    server = undefined
  })

  it('accounts tokens, quota and cost, records then replays without the server or the key, and never writes the key', async () => {
    server = await new FakeProvider().start()
    server.handler = () =>
      chatCompletion(JSON.stringify({ fixes: [{ row: 2, column: 'department', new_value: 'Computing' }] }), {
        promptTokens: 900,
        completionTokens: 40,
      })
    await withTempDir(async (dir) => {
      await writeFile(
        join(dir, 'prices.json'),
        JSON.stringify({ 'tiny-model': { prompt: 0.000001, completion: 0.000002 } }),
      )
      const common = [
        'run',
        '--agent',
        'openai-compatible',
        '--base-url',
        server!.baseUrl,
        '--model',
        'tiny-model',
        '--api-key-env',
        'MY_KEY',
      ]
      const data = [
        '--dataset',
        'products',
        '--dirty-csv',
        products('dirty.csv'),
        '--clean-csv',
        products('clean.csv'),
        '--prices',
        'prices.json',
        '--cache-dir',
        'cassettes',
      ]
      const live = await runCli(
        [...common, ...data, '--cache', 'record', '--output-json', 'live/report.json', '--output', 'live/report.md'],
        dir,
        { MY_KEY: KEY },
      )
      expect(live.code, live.stderr).toBe(0)
      expect(server!.requests).toHaveLength(1)
      expect(server!.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`)
      const record = JSON.parse(await readFile(join(dir, 'live/report.json'), 'utf8')).records[0]
      expect(record).toMatchObject({ status: 'ok', model: 'tiny-model', tp: 1, fp: 0, fn: 11, cached: false })
      expect(record.usage).toMatchObject({ calls: 1, promptTokens: 900, completionTokens: 40, cachedCalls: 0 })
      expect(record.usage.costUsd).toBeCloseTo(900e-6 + 80e-6, 12)

      await server!.stop()
      server = undefined
      // Replay needs neither the server nor the key: what CI does with committed cassettes.
      const replay = await runCli(
        [
          ...common,
          ...data,
          '--cache',
          'replay',
          '--output-json',
          'replay/report.json',
          '--output',
          'replay/report.md',
        ],
        dir,
        {},
      )
      expect(replay.code, replay.stderr).toBe(0)
      const replayed = JSON.parse(await readFile(join(dir, 'replay/report.json'), 'utf8'))
      expect(replayed.records[0]).toMatchObject({ tp: 1, fp: 0, fn: 11, cached: true })
      expect(replayed.records[0].usage).toMatchObject({
        calls: 1,
        cachedCalls: 1,
        promptTokens: 0,
        costUsd: 0,
        cachedPromptTokens: 900,
      })
      expect(replayed.reproducibility.cache).toEqual({ cachedRuns: 1, cachedCalls: 1, liveCalls: 0 })
      expect(await readFile(join(dir, 'replay/report.md'), 'utf8')).toMatch(/tokens saved by cache/)

      const everything = (await allText(dir)) + live.stdout + live.stderr + replay.stdout + replay.stderr
      expect(everything).not.toContain(KEY)
    })
  })

  it('a missing key is a clear error naming the variable, before any call', async () => {
    server = await new FakeProvider().start()
    await withTempDir(async (dir) => {
      const res = await runCli(
        [
          'run',
          '--agent',
          'openai-compatible',
          '--base-url',
          server!.baseUrl,
          '--model',
          'm',
          '--api-key-env',
          'ABSENT_KEY',
          '--dataset',
          'synthetic',
        ],
        dir,
        {},
      )
      expect(res.code).toBe(2)
      expect(res.stderr).toMatch(/ABSENT_KEY/)
      expect(server!.requests).toHaveLength(0)
      expect(await readdir(dir)).toEqual([])
    })
  })

  it('an unparseable answer is a parse_failure kept apart from scores', async () => {
    server = await new FakeProvider().start()
    server.handler = () => chatCompletion('Sure! I fixed a few things in the table for you.')
    await withTempDir(async (dir) => {
      const res = await runCli(
        [
          'run',
          '--agent',
          'openai-compatible',
          '--base-url',
          server!.baseUrl,
          '--model',
          'm',
          '--dataset',
          'synthetic',
          '--rows',
          '20',
          '--quiet',
        ],
        dir,
        { OPENAI_API_KEY: KEY },
      )
      // Nothing scored: the run fails, and its reports are still written.
      expect(res.code, res.stderr).toBe(1)
      expect(res.stderr).toMatch(/run failed: no trial scored: the one trial errored/)
      const record = JSON.parse(await readFile(join(dir, 'reports/run/report.json'), 'utf8')).records[0]
      expect(record).toMatchObject({ status: 'failed', failureKind: 'parse_failure', f1: null })
      expect(record.usage.calls).toBe(1)
    })
  })

  it('a 200 answer that is not JSON never puts any part of the key into stderr or any report file', async () => {
    server = await new FakeProvider().start()
    // The gateway echoes the Authorization header as its body.
    server.handler = (request) => ({
      text: String(request.headers.authorization),
      headers: { 'content-type': 'text/plain' },
    })
    await withTempDir(async (dir) => {
      const res = await runCli(
        [
          'run',
          '--agent',
          'openai-compatible',
          '--base-url',
          server!.baseUrl,
          '--model',
          'm',
          '--dataset',
          'synthetic',
          '--rows',
          '20',
        ],
        dir,
        { OPENAI_API_KEY: KEY },
      )
      // No trial scored, so the run fails (exit 1) with its reports written.
      expect(res.code, res.stderr).toBe(1)
      expect(res.stderr).toMatch(/run failed: no trial scored: the one trial errored/)
      const record = JSON.parse(await readFile(join(dir, 'reports/run/report.json'), 'utf8')).records[0]
      expect(record).toMatchObject({ status: 'failed', failureKind: 'provider_error' })
      expect(record.failureMessage).toMatch(
        /^model gateway: case "synthetic" trial 1 .*answered HTTP 200 with a body that is not JSON \(\d+ characters\)$/,
      )
      const everything = `${res.stdout}${res.stderr}${await allText(dir)}`
      expect(everything).not.toContain(KEY.slice(0, 6))
      expect(everything).not.toContain('Bearer')
    })
  })
})
