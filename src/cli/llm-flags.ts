import { resolve } from 'node:path'
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
