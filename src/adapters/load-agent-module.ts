import { existsSync } from 'node:fs'
import { basename, extname, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { createJiti } from 'jiti'
import type { RepairAgent } from '../core/agent.js'
import type { DataAgent } from '../core/data-agent.js'
import { InputError } from '../core/errors.js'

export function looksLikeModulePath(spec: string): boolean {
  return spec.startsWith('.') || spec.startsWith('/') || /\.(c|m)?(t|j)s$/.test(spec)
}

/**
 * Loads a user agent *into this process* (`--no-isolate`, `isolate: false`): trusted code only. The default
 * export or a named `agent` export, an agent object or a factory function returning one.
 */
async function loadAgentExport(spec: string, cwd: string, method: 'run' | 'session'): Promise<{ agent: Record<string, unknown>; name: string }> {
  const path = resolve(cwd, spec)
  if (!existsSync(path)) throw new InputError(`agent module ${spec} not found (resolved to ${path})`)
  let mod: Record<string, unknown>
  try {
    mod = /\.(c|m)?ts$/.test(path)
      ? ((await createJiti(import.meta.url, { interopDefault: false }).import(path)) as Record<string, unknown>)
      : ((await import(pathToFileURL(path).href)) as Record<string, unknown>)
  } catch (error) {
    throw new InputError(`agent module ${spec} failed to load: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`)
  }
  let candidate = mod.agent ?? mod.default
  if (typeof candidate === 'function' && !('run' in candidate) && !('session' in candidate)) candidate = await (candidate as () => unknown)()
  if (!candidate || typeof candidate !== 'object' || typeof (candidate as Record<string, unknown>)[method] !== 'function') {
    const shape = method === 'run' ? '{ name, run(task, ctx) }' : '{ name, session(tables, ctx) }'
    throw new InputError(`agent module ${spec} must export an agent (${shape}) as default or as "agent"; found exports [${Object.keys(mod).join(', ')}]`)
  }
  const agent = candidate as Record<string, unknown>
  const name = typeof agent.name === 'string' && agent.name ? agent.name : basename(path, extname(path))
  return { agent, name }
}

export async function loadAgentModule(spec: string, cwd: string): Promise<RepairAgent> {
  const { agent, name } = await loadAgentExport(spec, cwd, 'run')
  const a = agent as unknown as RepairAgent
  return { name, kind: a.kind ?? 'custom', model: a.model, provider: a.provider, run: (task, ctx) => a.run(task, ctx) }
}

export async function loadDataAgentModule(spec: string, cwd: string): Promise<DataAgent> {
  const { agent, name } = await loadAgentExport(spec, cwd, 'session')
  const a = agent as unknown as DataAgent
  return { name, kind: a.kind ?? 'custom', model: a.model, provider: a.provider, session: (tables, ctx) => a.session(tables, ctx) }
}
