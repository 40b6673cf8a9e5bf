import { existsSync, readFileSync } from 'node:fs'
import { basename, extname, relative, resolve } from 'node:path'
import { InputError } from '../core/errors.js'
import { sha256Hex } from '../core/hash.js'

/** An agent that runs in its own process: a JS/TS module (under the permission model) or any command. */
export type IsolatedSpec =
  | { type: 'module'; path: string; display: string }
  | { type: 'command'; argv: string[]; display: string }

/** `cmd:python3 agent.py` → a command; `{ command: [...] }` in eval files means the same. */
export function isCommandSpec(spec: string): boolean {
  return spec.startsWith('cmd:')
}

export function commandSpec(argv: readonly string[], cwd: string): IsolatedSpec {
  if (!argv.length || argv.some((a) => typeof a !== 'string' || !a))
    throw new InputError('agent command must be a non-empty list of non-empty strings')
  const display = argv.map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(' ')
  return { type: 'command', argv: argv.map((a, i) => (i > 0 && isLocalFile(a, cwd) ? resolve(cwd, a) : a)), display }
}

export function parseCommandSpec(spec: string, cwd: string): IsolatedSpec {
  const argv = splitCommand(spec.slice('cmd:'.length).trim())
  if (!argv.length) throw new InputError(`agent "${spec}": give a command after "cmd:", e.g. cmd:python3 my_agent.py`)
  return commandSpec(argv, cwd)
}

export function moduleSpec(spec: string, cwd: string): IsolatedSpec {
  const path = resolve(cwd, spec)
  if (!existsSync(path)) throw new InputError(`agent module ${spec} not found (resolved to ${path})`)
  return { type: 'module', path, display: relative(cwd, path) || spec }
}

/** The name reports use before the agent says otherwise: the script's or module's file name. */
export function defaultName(spec: IsolatedSpec): string {
  if (spec.type === 'module') return basename(spec.path, extname(spec.path))
  const script = spec.argv.slice(1).find((a) => existsSync(a)) ?? spec.argv[0]!
  return basename(script, extname(script))
}

/** Provenance: where the agent came from and the sha256 of its module or script. */
export function provenanceOf(spec: IsolatedSpec): { source: string; sha256: string | null; isolated: boolean } {
  if (spec.type === 'module')
    return { source: `module:${spec.display}`, sha256: sha256Hex(readFileSync(spec.path)), isolated: true }
  const script = spec.argv.slice(1).find((a) => existsSync(a))
  return { source: `cmd:${spec.display}`, sha256: script ? sha256Hex(readFileSync(script)) : null, isolated: true }
}

function isLocalFile(arg: string, cwd: string): boolean {
  return !arg.startsWith('-') && existsSync(resolve(cwd, arg))
}

/** Splits a command line on whitespace, honouring single and double quotes (no other shell syntax). */
function splitCommand(line: string): string[] {
  const out: string[] = []
  let current = ''
  let quote: string | null = null
  let started = false
  for (const ch of line) {
    if (quote) {
      if (ch === quote) quote = null
      else current += ch
    } else if (ch === '"' || ch === "'") {
      quote = ch
      started = true
    } else if (/\s/.test(ch)) {
      if (started) out.push(current)
      current = ''
      started = false
    } else {
      current += ch
      started = true
    }
  }
  if (quote) throw new InputError(`agent command has an unclosed ${quote}: ${line}`)
  if (started) out.push(current)
  return out
}
