import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { InputError } from '../core/errors.js'

type Env = Record<string, string | undefined>

const LINE = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/

/**
 * Parses a `.env` file: `KEY=value`, optional `export`, single or double quotes, `#` comments.
 * Errors name the file and line but never echo the line, which may hold a secret.
 */
export function parseEnvFile(text: string, file: string): Record<string, string> {
  const out: Record<string, string> = {}
  const lines = text.split(/\r?\n/)
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    if (/^\s*(#.*)?$/.test(line)) continue
    const match = LINE.exec(line)
    if (!match) throw new InputError(`${file}:${i + 1}: expected KEY=value`)
    out[match[1]!] = unquote(match[2]!)
  }
  return out
}

function unquote(raw: string): string {
  const quote = raw[0]
  if ((quote === '"' || quote === "'") && raw.length >= 2 && raw.endsWith(quote)) {
    const inner = raw.slice(1, -1)
    return quote === '"' ? inner.replace(/\\n/g, '\n').replace(/\\"/g, '"') : inner
  }
  const hash = raw.search(/\s#/)
  return hash >= 0 ? raw.slice(0, hash).trimEnd() : raw
}

/**
 * The environment an adapter reads: the real environment wins over the `.env` file.
 * The file (`envFile`, default `.env` in `cwd`) is read only if present.
 */
export function loadEnvironment(opts: { env?: Env; envFile?: string; cwd?: string } = {}): Env {
  const env = opts.env ?? process.env
  const cwd = opts.cwd ?? process.cwd()
  const file = resolve(cwd, opts.envFile ?? '.env')
  if (!existsSync(file)) return { ...env }
  const fromFile = parseEnvFile(readFileSync(file, 'utf8'), file)
  const merged: Env = { ...fromFile }
  for (const [key, value] of Object.entries(env)) if (value !== undefined) merged[key] = value
  return merged
}

/** The API key for an agent, or an InputError naming the variable, thrown before any call. */
export function requireApiKey(agent: string, variable: string, env: Env): string {
  const value = env[variable]?.trim()
  if (!value) {
    throw new InputError(`agent ${agent} needs an API key: set ${variable} in the environment or in a .env file`)
  }
  return value
}
