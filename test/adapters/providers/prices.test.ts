import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { loadPriceFile, parsePriceMap } from '../../../src/adapters/providers/index.js'
import { main } from '../../../src/cli/main.js'
import type { CliIO } from '../../../src/cli/io.js'
import { InputError } from '../../../src/core/errors.js'
import { FakeProvider, type ProviderReply } from '../../helpers/fake-llm-upstream.js'
import { tempDir } from '../../helpers/providers.js'

const MODELS = {
  data: [
    { id: 'meta-llama/llama-3.3-70b-instruct', pricing: { prompt: '0.00000012', completion: '0.0000003' } },
    { id: 'google/gemini-2.0-flash-001', pricing: { prompt: '0.0000001', completion: '0.0000004' } },
    { id: 'meta-llama/llama-3.3-70b-instruct:free', pricing: { prompt: '0', completion: '0' } },
    { id: 'openrouter/auto', pricing: { prompt: '-1', completion: '-1' } },
    { id: 'per-million/typo', pricing: { prompt: '0.5', completion: '1.5' } },
    { id: 'broken' },
  ],
}

function io(cwd: string) {
  const out: string[] = []
  const err: string[] = []
  const cli: CliIO = { stdout: (t) => out.push(t), stderr: (t) => err.push(t), cwd, env: {} }
  return { cli, out, err }
}

/** A provider whose `GET …/models` answers `reply`; other paths get FakeProvider's own answers. */
async function modelsServer(reply: ProviderReply): Promise<FakeProvider> {
  const provider = await new FakeProvider().start()
  provider.handler = (request) => (request.method === 'GET' && request.url.endsWith('/models') ? reply : undefined)
  return provider
}

let server: FakeProvider | undefined
afterEach(async () => {
  await server?.stop()
  server = undefined
})

describe('dataforge-evals prices fetch', () => {
  it('reads the models endpoint and writes a price map in USD per token', async () => {
    server = await modelsServer({ json: MODELS })
    const dir = tempDir()
    const { cli, out, err } = io(dir)
    const code = await main(['prices', 'fetch', '--base-url', `${server.url}/api/v1`, '--out', 'prices.json'], cli)
    expect(err.join('')).toBe('')
    expect(code).toBe(0)
    expect(out.join('')).toBe('wrote prices for 3 models to prices.json\n')
    expect(server.requests.map((r) => r.url)).toEqual(['/api/v1/models'])
    const written = JSON.parse(readFileSync(join(dir, 'prices.json'), 'utf8'))
    expect(Object.keys(written.models)).toEqual([
      'google/gemini-2.0-flash-001',
      'meta-llama/llama-3.3-70b-instruct',
      'meta-llama/llama-3.3-70b-instruct:free',
    ])
    const prices = loadPriceFile(join(dir, 'prices.json'))
    expect(prices['meta-llama/llama-3.3-70b-instruct']).toEqual({ prompt: 0.00000012, completion: 0.0000003 })
  })

  it('prints the map to stdout without --out', async () => {
    server = await modelsServer({ json: MODELS })
    const { cli, out } = io(tempDir())
    expect(await main(['prices', 'fetch', '--base-url', `${server.url}/api/v1/`], cli)).toBe(0)
    expect(server.requests.map((r) => r.url)).toEqual(['/api/v1/models'])
    expect(JSON.parse(out.join('')).models['google/gemini-2.0-flash-001']).toEqual({
      prompt: 0.0000001,
      completion: 0.0000004,
    })
  })

  it('returns 2 with one line on stderr for bad usage or a bad answer', async () => {
    server = await modelsServer({ json: { nothing: true } })
    const cases: string[][] = [
      [],
      ['update'],
      ['fetch', '--bogus'],
      ['fetch', '--base-url', 'ftp://example'],
      ['fetch', '--base-url', `${server.url}/api/v1`],
    ]
    for (const argv of cases) {
      const { cli, err } = io(tempDir())
      expect(await main(['prices', ...argv], cli)).toBe(2)
      expect(err).toHaveLength(1)
      expect(err[0]!.trim().split('\n')).toHaveLength(1)
    }
    const failing = await modelsServer({ status: 500, json: { data: [] } })
    try {
      const { cli, err } = io(tempDir())
      expect(await main(['prices', 'fetch', '--base-url', failing.url], cli)).toBe(2)
      expect(err[0]).toMatch(/HTTP 500/)
    } finally {
      await failing.stop()
    }
  })

  it('prints help', async () => {
    const { cli, out } = io(tempDir())
    expect(await main(['prices', '--help'], cli)).toBe(0)
    expect(out.join('')).toMatch(/prices fetch \[--base-url URL\] \[--out prices.json\]/)
  })
})

describe('price maps', () => {
  it('accepts numbers or numeric strings, flat or under "models"', () => {
    expect(parsePriceMap({ m: { prompt: '0.0000001', completion: 0.0000002 } }, 'x')).toEqual({
      m: { prompt: 0.0000001, completion: 0.0000002 },
    })
    expect(parsePriceMap({ source: 'y', models: { m: { prompt: 0.000001, completion: 0.000002 } } }, 'x')).toEqual({
      m: { prompt: 0.000001, completion: 0.000002 },
    })
  })

  it('refuses a price per million tokens, naming the model and the field; 0.01 USD per token is the bound', () => {
    const perMillion = { 'llama-3.3-70b-versatile': { prompt: 0.59, completion: 0.79 } }
    expect(() => parsePriceMap(perMillion, 'prices.json')).toThrow(
      'prices.json: model "llama-3.3-70b-versatile" field prompt: 0.59 is not a price per token (0.01 or more); prices are USD per token; divide per-million prices by 1,000,000',
    )
    expect(() => parsePriceMap({ m: { prompt: 0.0000001, completion: '0.01' } }, 'x')).toThrow(
      /model "m" field completion: 0.01 is not a price per token/,
    )
    expect(parsePriceMap({ m: { prompt: 0.00059, completion: 0.0099 } }, 'x')).toEqual({
      m: { prompt: 0.00059, completion: 0.0099 },
    })
  })

  it('a per-million price file stops `run --prices` before any trial: exit 2, one line', async () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'prices.json'), JSON.stringify({ 'gpt-4o-mini': { prompt: 0.15, completion: 0.6 } }))
    const { cli, out, err } = io(dir)
    const code = await main(
      [
        'run',
        '--agent',
        'noop',
        '--dataset',
        'synthetic',
        '--llm',
        'http://127.0.0.1:9/v1',
        '--prices',
        'prices.json',
        '--quiet',
      ],
      cli,
    )
    expect(err.join('').trim().split('\n')).toEqual([
      expect.stringMatching(
        /prices\.json: model "gpt-4o-mini" field prompt: 0\.15 is not a price per token .*; prices are USD per token; divide per-million prices by 1,000,000$/,
      ),
    ])
    expect(code).toBe(2)
    expect(out.join('')).not.toMatch(/wrote/)
  })

  it('names the file, model and field at fault', () => {
    expect(() => parsePriceMap({ m: { prompt: 'cheap', completion: 0 } }, 'prices.json')).toThrow(
      /prices.json: model "m" field prompt/,
    )
    const dir = tempDir()
    writeFileSync(join(dir, 'bad.json'), '{oops')
    expect(() => loadPriceFile(join(dir, 'bad.json'))).toThrow(InputError)
    expect(() => loadPriceFile(join(dir, 'bad.json'))).toThrow(/bad\.json is not valid JSON/)
    expect(() => loadPriceFile(join(dir, 'missing.json'))).toThrow(/missing\.json cannot be read/)
  })
})
