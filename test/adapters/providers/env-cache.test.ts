import { describe, expect, it } from 'vitest'
import { resolveProviderConfig } from '../../../src/adapters/providers/index.js'
import { resolveUpstream } from '../../../src/gateway/upstream.js'

describe('record/replay chosen by the environment', () => {
  it('DATAFORGE_CACHE and DATAFORGE_CACHE_DIR apply when no cache option is given (e.g. in eval files)', () => {
    const config = resolveProviderConfig('local-ollama', {
      env: { DATAFORGE_CACHE: 'replay', DATAFORGE_CACHE_DIR: 'cassettes' },
      cwd: '/srv/project',
    })
    expect(config.cache).toEqual({ mode: 'replay', dir: '/srv/project/cassettes' })
  })

  it('an explicit option wins over the environment, and the default is off', () => {
    const explicit = resolveProviderConfig('local-ollama', {
      env: { DATAFORGE_CACHE: 'replay' },
      cache: { mode: 'record', dir: '/tmp/c' },
    })
    expect(explicit.cache).toEqual({ mode: 'record', dir: '/tmp/c' })
    expect(resolveProviderConfig('local-ollama', { env: {}, cwd: '/srv/project' }).cache).toEqual({
      mode: 'off',
      dir: '/srv/project/.dataforge-cache',
    })
  })

  it('a bad mode in the environment is an error naming the variable', () => {
    expect(() => resolveProviderConfig('local-ollama', { env: { DATAFORGE_CACHE: 'sometimes' } })).toThrow(
      /DATAFORGE_CACHE: "sometimes" is not a cache mode/,
    )
  })
})

describe('replay without a key', () => {
  it('replay mode needs no API key (no call is made); other modes still name the missing variable', () => {
    const replay = resolveProviderConfig('groq-llama-70b', { env: { DATAFORGE_CACHE: 'replay' }, cwd: '/srv/project' })
    expect(replay.cache?.mode).toBe('replay')
    expect(replay.apiKey).toBe('')
    expect(() => resolveProviderConfig('groq-llama-70b', { env: { DATAFORGE_CACHE: 'auto' } })).toThrow(/GROQ_API_KEY/)
    expect(
      resolveProviderConfig('groq-llama-70b', { env: { DATAFORGE_CACHE: 'replay', GROQ_API_KEY: 'k' } }).apiKey,
    ).toBe('k')
  })
})

describe('a base URL with a credential in it', () => {
  it('is refused by the built-in agents and by --llm alike, the URL itself never echoed', () => {
    const env = { OPENAI_API_KEY: 'k' }
    for (const baseUrl of ['http://user:s3cret@127.0.0.1/v1', 'http://127.0.0.1/v1?api_key=s3cret']) {
      const refusal = () => resolveProviderConfig('openai-compatible', { env, baseUrl, model: 'm' })
      expect(refusal).toThrow(
        '--base-url: credentials do not belong in the URL; put the key in an environment variable (--api-key-env)',
      )
      expect(() => resolveUpstream(baseUrl, { env, source: '--llm' })).toThrow(
        '--llm: credentials do not belong in the URL; put the key in an environment variable (--llm-key-env)',
      )
    }
    expect(() =>
      resolveProviderConfig('openai-compatible', { env, baseUrl: 'http://s3cret@[bad', model: 'm' }),
    ).toThrow(/^--base-url: not a valid URL$/)
  })
})
