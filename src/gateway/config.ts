import { resolve } from 'node:path'
import { type CacheOptions, resolveCacheOptions } from './cache.js'
import { loadPriceFile, type PriceMap } from './prices.js'
import { InputError } from '../core/errors.js'
import { readTrialBudget } from './budget.js'
import type { LlmConfig } from './trial-llm.js'
import type { Budget } from '../core/budget.js'
import { type LlmOption, resolveUpstream } from './upstream.js'

interface LlmConfigInput {
  /** The `llm:` option or `--llm`; when absent, `DATAFORGE_LLM` decides (none: no gateway). */
  llm?: LlmOption
  /** `--llm-key-env`, else `DATAFORGE_LLM_KEY_ENV`, else OPENAI_API_KEY (URL upstreams only). */
  keyEnv?: string
  /** `--llm-budget tokens=N,usd=X,calls=K` or `DATAFORGE_LLM_BUDGET`, unless the option carries a budget. */
  budget?: string | Budget
  env?: Record<string, string | undefined>
  cwd?: string
  /** Default: `DATAFORGE_CACHE` / `DATAFORGE_CACHE_DIR`. */
  cache?: CacheOptions
  /** `--prices FILE`, else the file `DATAFORGE_PRICES` names (relative to `cwd`). */
  prices?: PriceMap
  /** What `llm` came from, for messages (`--llm`, `llm option`). */
  source?: string
}

/**
 * The run's model configuration from options, flags and environment (the same rules for every front door), or
 * null when no upstream is named anywhere. Checked at once: an unknown preset, a bad URL or budget, a missing key.
 */
export function resolveLlmConfig(input: LlmConfigInput): LlmConfig | null {
  const env = input.env ?? process.env
  const cwd = input.cwd ?? process.cwd()
  let option = input.llm
  let source = input.source ?? 'llm option'
  if (option === undefined) {
    const fromEnv = env['DATAFORGE_LLM']?.trim()
    if (!fromEnv) return null
    option = fromEnv
    source = 'DATAFORGE_LLM'
  }
  const cache = input.cache ?? resolveCacheOptions(env, {}, cwd)
  const pricesFile = env['DATAFORGE_PRICES']?.trim()
  const prices = input.prices ?? (pricesFile ? loadPriceFile(resolve(cwd, pricesFile)) : undefined)
  const upstream = resolveUpstream(option, {
    env,
    cwd,
    replayOnly: cache.mode === 'replay',
    source,
    ...(prices ? { prices } : {}),
    ...(input.keyEnv ? { keyEnv: input.keyEnv } : {}),
  })
  const budgetRaw =
    typeof option === 'object' && option.budget !== undefined
      ? option.budget
      : (input.budget ?? env['DATAFORGE_LLM_BUDGET'])
  const budget =
    typeof budgetRaw === 'string'
      ? parseBudget(budgetRaw, input.budget !== undefined ? '--llm-budget' : 'DATAFORGE_LLM_BUDGET')
      : readTrialBudget(budgetRaw, `${source}.budget`)
  return { upstream, cache, ...(budget ? { budget } : {}) }
}

/** `tokens=5000,usd=0.25,calls=20` → a budget; an empty text is none. */
export function parseBudget(text: string, source: string): Budget | undefined {
  if (text.trim() === '') return undefined
  const out: Record<string, number> = {}
  for (const part of text.split(',')) {
    const match = /^\s*(tokens|usd|calls)\s*=\s*([^\s]+)\s*$/.exec(part)
    if (!match) throw new InputError(`${source}: "${part.trim()}" is not FIELD=NUMBER (fields tokens, usd, calls)`)
    const value = Number(match[2])
    if (!Number.isFinite(value)) throw new InputError(`${source}: ${match[1]}: "${match[2]}" is not a number`)
    out[match[1]!] = value
  }
  return readTrialBudget(out, source)
}
