import { InputError } from '../core/errors.js'

/** `--agent a,b --agent c` → ['a', 'b', 'c']. */
export function splitList(values: string[] | undefined): string[] {
  return (values ?? [])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean)
}

/**
 * `--seed -5` → `--seed=-5` for options that take a value, so a negative number is read as the value and not as
 * an unknown flag (parseArgs would refuse it as ambiguous).
 */
export function joinNegativeNumbers(
  argv: readonly string[],
  options: Record<string, { type: 'string' | 'boolean' }>,
): string[] {
  const out: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    const next = argv[i + 1]
    const name = arg.startsWith('--') ? arg.slice(2) : null
    if (name && options[name]?.type === 'string' && next !== undefined && /^-(\d|\.\d)/.test(next)) {
      out.push(`${arg}=${next}`)
      i++
    } else out.push(arg)
  }
  return out
}

export function parseIntegerFlag(
  name: string,
  raw: string | undefined,
  fallback: number,
  range: { min?: number; max?: number },
): number {
  if (raw === undefined) return fallback
  if (!/^-?\d+$/.test(raw.trim())) throw new InputError(`--${name} must be an integer, got "${raw}"`)
  const value = Number(raw)
  if (!Number.isSafeInteger(value)) throw new InputError(`--${name} is too large to be exact, got "${raw}"`)
  checkRange(name, value, range, raw)
  return value
}

export function parseNumberFlag(
  name: string,
  raw: string | undefined,
  fallback: number,
  range: { min?: number; max?: number; exclusiveMin?: boolean },
): number {
  if (raw === undefined) return fallback
  const value = Number(raw)
  if (raw.trim() === '' || !Number.isFinite(value)) throw new InputError(`--${name} must be a number, got "${raw}"`)
  if (range.exclusiveMin && range.min !== undefined && value <= range.min)
    throw new InputError(`--${name} must be > ${range.min}, got "${raw}"`)
  checkRange(name, value, range, raw)
  return value
}

function checkRange(name: string, value: number, range: { min?: number; max?: number }, raw: string): void {
  if (range.min !== undefined && value < range.min)
    throw new InputError(`--${name} must be ≥ ${range.min}, got "${raw}"`)
  if (range.max !== undefined && value > range.max)
    throw new InputError(`--${name} must be ≤ ${range.max}, got "${raw}"`)
}

/** The flags `run` and `qa` share, by the same names: trials and seeds, timeout, rate, report files, repeat gate. */
export const EVALUATION_FLAGS = {
  trials: { type: 'string' },
  seed: { type: 'string' },
  'timeout-s': { type: 'string' },
  'min-passes': { type: 'string' },
  generation: { type: 'string' },
  rpm: { type: 'string' },
  output: { type: 'string' },
  'output-json': { type: 'string' },
  'output-html': { type: 'string' },
  timestamp: { type: 'boolean' },
  quiet: { type: 'boolean' },
  github: { type: 'boolean' },
  otel: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const

/** The provider flags every model-calling command takes (`run`, `qa`, `conformance`). */
export const PROVIDER_FLAGS = {
  model: { type: 'string' },
  'base-url': { type: 'string' },
  'api-key-env': { type: 'string' },
  cache: { type: 'string' },
  'cache-dir': { type: 'string' },
  prices: { type: 'string' },
  concurrency: { type: 'string' },
  llm: { type: 'string' },
  'llm-key-env': { type: 'string' },
  'llm-budget': { type: 'string' },
} as const
