import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { fetch } from 'undici'
import { safeToken } from '../../adapters/providers/safe-token.js'
import { priceMapFromOpenRouterModels } from '../../adapters/providers/index.js'
import { InputError } from '../../core/errors.js'
import { writeFileAtomic } from '../../files/write-atomic.js'
import type { Command } from '../io.js'

const DEFAULT_PRICES_BASE_URL = 'https://openrouter.ai/api/v1'

const PRICES_HELP = `Usage: dataforge-evals prices fetch [--base-url URL] [--out prices.json]

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
  const fail = (message: string): never => {
    throw new InputError(`prices: ${message}`)
  }
  const [sub, ...rest] = argv
  if (sub === '--help' || sub === '-h' || sub === 'help') {
    io.stdout(PRICES_HELP)
    return 0
  }
  if (sub !== 'fetch')
    fail(sub ? `unknown subcommand "${sub}"; use: prices fetch` : 'missing subcommand; use: prices fetch')
  const { values } = parseArgs({ args: rest, options: OPTIONS, allowPositionals: false, strict: true })
  if (values.help) {
    io.stdout(PRICES_HELP)
    return 0
  }
  const base = values['base-url'] ?? DEFAULT_PRICES_BASE_URL
  let url = ''
  try {
    const parsed = new URL(`${base.replace(/\/+$/, '')}/models`)
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('not http')
    url = parsed.toString()
  } catch {
    fail(`--base-url: "${base}" is not an http(s) URL`)
  }
  let body: unknown
  let response: Awaited<ReturnType<typeof fetch>> | undefined
  try {
    response = await fetch(url, {
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
      headers: { accept: 'application/json' },
    })
  } catch (error) {
    const cause = (error as Error).cause instanceof Error ? `: ${((error as Error).cause as Error).message}` : ''
    fail(`GET ${url}: ${(error as Error).message}${cause}`)
  }
  if (!response!.ok) fail(`GET ${url}: HTTP ${response!.status}`)
  const text = await response!.text()
  try {
    body = JSON.parse(text)
  } catch {
    fail(
      `GET ${url}: the answer is not JSON (${Buffer.byteLength(text)} bytes, content type ${safeToken(response!.headers.get('content-type')?.split(';')[0]?.trim() || 'none')})`,
    )
  }
  const models = priceMapFromOpenRouterModels(body, `GET ${url}`)
  const count = Object.keys(models).length
  if (count === 0) fail(`GET ${url}: no model with a usable price`)
  const out = `${JSON.stringify({ source: url, unit: 'USD per token', models }, null, 2)}\n`
  if (values.out === undefined) {
    io.stdout(out)
    return 0
  }
  await writeFileAtomic(resolve(io.cwd, values.out), out)
  io.stdout(`wrote prices for ${count} models to ${values.out}\n`)
  return 0
}
