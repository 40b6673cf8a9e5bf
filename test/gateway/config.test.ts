import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseBudget, resolveLlmConfig, upstreamIdentity } from '../../src/gateway/index.js'

const off = { mode: 'off' as const, dir: '.dataforge-cache' }

describe('llm configuration (flags, options, DATAFORGE_LLM)', () => {
  it('none anywhere: no gateway', () => {
    expect(resolveLlmConfig({ env: {}, cache: off })).toBeNull()
  })

  it('DATAFORGE_LLM, DATAFORGE_LLM_KEY_ENV and DATAFORGE_LLM_BUDGET configure a run; an explicit option wins', () => {
    const env = {
      DATAFORGE_LLM: 'http://localhost:8080/v1',
      DATAFORGE_LLM_KEY_ENV: 'LOCAL_KEY',
      LOCAL_KEY: 'k-local-123',
      DATAFORGE_LLM_BUDGET: 'calls=3,usd=0.5',
    }
    const fromEnv = resolveLlmConfig({ env, cache: off })!
    expect(fromEnv.upstream).toMatchObject({
      id: 'http://localhost:*/v1',
      label: 'http://localhost:*/v1',
      apiKey: 'k-local-123',
      keyEnv: 'LOCAL_KEY',
    })
    expect(fromEnv.budget).toEqual({ calls: 3, usd: 0.5 })
    const explicit = resolveLlmConfig({
      llm: { preset: 'groq', budget: { tokens: 100 } },
      env: { ...env, GROQ_API_KEY: 'gsk-1234' },
      cache: off,
    })!
    expect(explicit.upstream).toMatchObject({
      id: 'groq',
      label: 'groq https://api.groq.com/openai/v1',
      provider: 'groq',
      apiKey: 'gsk-1234',
      quotaPerDay: 14_400,
    })
    expect(explicit.budget).toEqual({ tokens: 100 })
  })

  it('DATAFORGE_PRICES names a price file (relative to cwd) for every front door; --prices wins', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dataforge-prices-'))
    try {
      writeFileSync(
        join(dir, 'prices.json'),
        JSON.stringify({ 'local-model': { prompt: 0.0000002, completion: 0.0000006 } }),
      )
      const env = { DATAFORGE_LLM: 'http://127.0.0.1:8080/v1', DATAFORGE_PRICES: 'prices.json' }
      expect(resolveLlmConfig({ env, cwd: dir, cache: off })!.upstream.prices).toEqual({
        'local-model': { prompt: 0.0000002, completion: 0.0000006 },
      })
      const flag = { other: { prompt: 0.000001, completion: 0.000001 } }
      expect(resolveLlmConfig({ env, cwd: dir, cache: off, prices: flag })!.upstream.prices).toEqual(flag)
      expect(() =>
        resolveLlmConfig({ env: { ...env, DATAFORGE_PRICES: 'missing.json' }, cwd: dir, cache: off }),
      ).toThrow(/price file .*missing\.json cannot be read/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('a preset needs its key, named by its variable, except for a pure replay', () => {
    expect(() => resolveLlmConfig({ llm: 'anthropic', env: {}, cache: off, source: '--llm' })).toThrow(
      '--llm: upstream anthropic needs an API key: set ANTHROPIC_API_KEY',
    )
    expect(
      resolveLlmConfig({ llm: 'anthropic', env: {}, cache: { mode: 'replay', dir: 'x' } })!.upstream.apiKey,
    ).toBeNull()
  })

  it('bad input is an error naming where it came from', () => {
    expect(() => resolveLlmConfig({ llm: 'grok', env: {}, cache: off, source: '--llm' })).toThrow(
      /--llm: "grok" is neither a preset \(groq, .*\) nor an http\(s\) URL/,
    )
    expect(() => resolveLlmConfig({ llm: 'http://user:pw@127.0.0.1/v1', env: {}, cache: off })).toThrow(
      /credentials do not belong in the URL/,
    )
    expect(() => resolveLlmConfig({ llm: 'http://127.0.0.1/v1?api_key=x', env: {}, cache: off })).toThrow(
      /credentials do not belong in the URL/,
    )
    expect(() => resolveLlmConfig({ llm: { baseUrl: 'x', preset: 'groq' }, env: {}, cache: off })).toThrow(
      /either a preset name or a baseUrl/,
    )
    expect(() => parseBudget('tokens=lots', '--llm-budget')).toThrow('--llm-budget: tokens: "lots" is not a number')
    expect(() => parseBudget('dollars=1', '--llm-budget')).toThrow(
      '--llm-budget: "dollars=1" is not FIELD=NUMBER (fields tokens, usd, calls)',
    )
    expect(() => resolveLlmConfig({ llm: { preset: 'ollama', budget: { calls: 1.5 } }, env: {}, cache: off })).toThrow(
      'llm option.budget.calls: expected a non-negative integer, got 1.5',
    )
  })

  it('masks the port of loopback hosts only', () => {
    expect(upstreamIdentity('http://127.0.0.1:43117/v1/')).toBe('http://127.0.0.1:*/v1')
    expect(upstreamIdentity('http://[::1]:8000/v1')).toBe('http://[::1]:*/v1')
    expect(upstreamIdentity('https://llm.example.com:8443/v1')).toBe('https://llm.example.com:8443/v1')
  })
})
