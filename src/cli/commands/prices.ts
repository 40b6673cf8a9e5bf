import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { fetch } from 'undici'
import { priceMapFromOpenRouterModels } from '../../adapters/providers/index.js'
import type { Command } from '../io.js'

export const DEFAULT_PRICES_BASE_URL = 'https://openrouter.ai/api/v1'

export const PRICES_HELP = `Usage: dataforge-evals prices fetch [--base-url URL] [--out prices.json]

Reads OpenRouter's models endpoint (GET <base-url>/models) and writes a price map, USD per token by model id,
for --prices. Without --out the map goes to stdout.

Options:
  --base-url URL   API base (default ${DEFAULT_PRICES_BASE_URL})
  --out FILE       where to write the price map
`

const OPTIONS = {
  'base-url': { type: 'string' },
  out: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const

const FETCH_TIMEOUT_MS = 30_000

/** `prices fetch`: 0 on success, 2 on bad usage or an unusable answer; errors are one line on stderr. */
export const pricesCommand: Command = async (argv, io) => {
  const fail = (message: string) => {
    io.stderr(`dataforge-evals prices: ${message.split('\n')[0]}\n`)
    return 2
  }
  const [sub, ...rest] = argv
  if (sub === '--help' || sub === '-h' || sub === 'help') {
    io.stdout(PRICES_HELP)
    return 0
  }
  if (sub !== 'fetch') return fail(sub ? `unknown subcommand "${sub}"; use: prices fetch` : 'missing subcommand; use: prices fetch')
  let values: { 'base-url'?: string; out?: string; help?: boolean }
  try {
    values = parseArgs({ args: rest, options: OPTIONS, allowPositionals: false, strict: true }).values
  } catch (error) {
    return fail((error as Error).message)
  }
  if (values.help) {
    io.stdout(PRICES_HELP)
    return 0
  }
  const base = values['base-url'] ?? DEFAULT_PRICES_BASE_URL
  let url: string
  try {
    const parsed = new URL(`${base.replace(/\/+$/, '')}/models`)
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('not http')
    url = parsed.toString()
  } catch {
    return fail(`--base-url: "${base}" is not an http(s) URL`)
  }
  let body: unknown
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), headers: { accept: 'application/json' } })
    if (!response.ok) return fail(`GET ${url}: HTTP ${response.status}`)
    const text = await response.text()
    try {
      body = JSON.parse(text)
    } catch {
      return fail(`GET ${url}: the answer is not JSON`)
    }
  } catch (error) {
    const cause = (error as Error).cause instanceof Error ? `: ${((error as Error).cause as Error).message}` : ''
    return fail(`GET ${url}: ${(error as Error).message}${cause}`)
  }
  let models: ReturnType<typeof priceMapFromOpenRouterModels>
  try {
    models = priceMapFromOpenRouterModels(body, `GET ${url}`)
  } catch (error) {
    return fail((error as Error).message)
  }
  const count = Object.keys(models).length
  if (count === 0) return fail(`GET ${url}: no model with a usable price`)
  const text = `${JSON.stringify({ source: url, unit: 'USD per token', models }, null, 2)}\n`
  if (values.out === undefined) {
    io.stdout(text)
    return 0
  }
  const out = resolve(io.cwd, values.out)
  try {
    await mkdir(dirname(out), { recursive: true })
    await writeFile(out, text, 'utf8')
  } catch (error) {
    return fail(`cannot write ${values.out}: ${(error as Error).message}`)
  }
  io.stdout(`wrote prices for ${count} models to ${values.out}\n`)
  return 0
}
