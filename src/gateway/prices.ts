import { readFileSync } from 'node:fs'
import { InputError } from '../core/errors.js'
import { checkJsonDepth } from '../core/json-depth.js'
import { isPlainObject } from '../core/is-plain-object.js'

/** USD per token, by model id. */
export interface ModelPrice {
  prompt: number
  completion: number
}
export type PriceMap = Record<string, ModelPrice>

/**
 * A price at or above this is no price per token: 0.01 USD per token is 10,000 USD per million tokens, far above any
 * model's. Such a number is a price per million (or per thousand) tokens, which would inflate every cost a million-fold.
 */
const MAX_USD_PER_TOKEN = 0.01

/**
 * Reads a price map: `{ "<model>": { "prompt": n, "completion": n } }`, optionally wrapped in `{ "models": … }`
 * (the shape `prices fetch` writes). Prices may be numbers or numeric strings, in USD per token.
 */
export function parsePriceMap(value: unknown, source: string): PriceMap {
  const root = isPlainObject(value) && isPlainObject(value['models']) ? value['models'] : value
  if (!isPlainObject(root))
    throw new InputError(`${source}: expected an object mapping model ids to { prompt, completion }`)
  const out: PriceMap = {}
  for (const [model, entry] of Object.entries(root)) {
    if (!isPlainObject(entry)) throw new InputError(`${source}: model "${model}": expected { prompt, completion }`)
    out[model] = {
      prompt: priceField(entry['prompt'], `${source}: model "${model}" field prompt`),
      completion: priceField(entry['completion'], `${source}: model "${model}" field completion`),
    }
  }
  return out
}

export function loadPriceFile(file: string): PriceMap {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch {
    throw new InputError(`price file ${file} cannot be read`)
  }
  let json: unknown
  checkJsonDepth(text, (line) => `price file ${file}: line ${line}`)
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new InputError(`price file ${file} is not valid JSON: ${(error as Error).message}`)
  }
  return parsePriceMap(json, `price file ${file}`)
}

export function resolvePrices(prices: string | PriceMap | undefined): PriceMap | undefined {
  if (prices === undefined) return undefined
  return typeof prices === 'string' ? loadPriceFile(prices) : parsePriceMap(prices, 'prices option')
}

export function costUsd(price: ModelPrice | undefined, promptTokens: number, completionTokens: number): number {
  if (!price) return 0
  return promptTokens * price.prompt + completionTokens * price.completion
}

/**
 * OpenRouter's `/models` answer → price map. `pricing.prompt` and `pricing.completion` are USD per token as
 * strings; models without a usable price (routers report -1; none may reach `MAX_USD_PER_TOKEN`) are left out.
 */
export function priceMapFromOpenRouterModels(body: unknown, source: string): PriceMap {
  const data = isPlainObject(body) ? body['data'] : undefined
  if (!Array.isArray(data)) throw new InputError(`${source}: expected a JSON object with a "data" array of models`)
  const out: PriceMap = {}
  for (const model of data) {
    if (!isPlainObject(model) || typeof model['id'] !== 'string' || !isPlainObject(model['pricing'])) continue
    const prompt = Number(model['pricing']['prompt'])
    const completion = Number(model['pricing']['completion'])
    const usable = (price: number) => Number.isFinite(price) && price >= 0 && price < MAX_USD_PER_TOKEN
    if (!usable(prompt) || !usable(completion)) continue
    out[model['id']] = { prompt, completion }
  }
  const sorted: PriceMap = {}
  for (const id of Object.keys(out).sort()) sorted[id] = out[id]!
  return sorted
}

function priceField(value: unknown, where: string): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value
  if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) {
    throw new InputError(`${where}: expected a non-negative number of USD per token`)
  }
  if (n >= MAX_USD_PER_TOKEN) {
    throw new InputError(
      `${where}: ${n} is not a price per token (${MAX_USD_PER_TOKEN} or more); prices are USD per token; divide per-million prices by 1,000,000`,
    )
  }
  return n
}
