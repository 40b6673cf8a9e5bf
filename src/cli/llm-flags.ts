import { resolve } from 'node:path'
import { InputError } from '../core/errors.js'
import { resolveCacheOptions } from '../gateway/cache.js'
import type { CacheOptions } from '../gateway/cache.js'
import type { LlmConfig } from '../gateway/trial-llm.js'
import type { CliIO } from './io.js'

/** `--llm`, `--llm-key-env`, `--llm-budget` (or their DATAFORGE_LLM* variables): the gateway's upstream, or null. */
export async function runLlmConfig(
  values: { llm?: string; 'llm-key-env'?: string; 'llm-budget'?: string; prices?: string },
  io: CliIO,
  cache: CacheOptions,
): Promise<LlmConfig | null> {
  if (values.llm === undefined && !io.env.DATAFORGE_LLM?.trim()) return null
  const { resolveLlmConfig } = await import('../gateway/config.js')
  const { resolvePrices } = await import('../gateway/prices.js')
  const prices = resolvePrices(values.prices ? resolve(io.cwd, values.prices) : undefined)
  return resolveLlmConfig({
    ...(values.llm !== undefined ? { llm: values.llm, source: '--llm' } : {}),
    ...(values['llm-key-env'] !== undefined ? { keyEnv: values['llm-key-env'] } : {}),
    ...(values['llm-budget'] !== undefined ? { budget: values['llm-budget'] } : {}),
    env: io.env,
    cwd: io.cwd,
    cache,
    ...(prices ? { prices } : {}),
  })
}

/**
 * The provider flags whose use depends on other flags (`--prices` is read only by a provider agent or the
 * gateway, `--llm-budget` only with an upstream): each is checked up front, so a bad value is exit 2 before any
 * folder is made or agent started, whether or not `--llm` (or a provider agent) would use it.
 */
export async function checkProviderFlags(
  values: { prices?: string; 'llm-budget'?: string; 'llm-key-env'?: string; cache?: string; 'cache-dir'?: string },
  io: CliIO,
): Promise<void> {
  if (values.prices !== undefined) {
    const { loadPriceFile } = await import('../gateway/prices.js')
    loadPriceFile(resolve(io.cwd, values.prices))
  }
  if (values['llm-budget'] !== undefined) {
    const { parseBudget } = await import('../gateway/config.js')
    parseBudget(values['llm-budget'], '--llm-budget')
  }
  const keyEnv = values['llm-key-env']
  if (keyEnv !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(keyEnv)) {
    throw new InputError(`--llm-key-env: "${keyEnv}" is not an environment variable's name`)
  }
  resolveCacheOptions(
    io.env,
    {
      ...(values.cache !== undefined ? { cache: values.cache } : {}),
      ...(values['cache-dir'] !== undefined ? { cacheDir: values['cache-dir'] } : {}),
    },
    io.cwd,
  )
}

/** Whether the run had a price map (`--prices`, or `DATAFORGE_PRICES` for the gateway): a report's `config.priced`. */
export function pricesGiven(prices: unknown, env: Record<string, string | undefined>): boolean {
  return (typeof prices === 'string' && prices !== '') || Boolean(env['DATAFORGE_PRICES']?.trim())
}
