import { existsSync } from 'node:fs'
import { basename, extname, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { createJiti } from 'jiti'
import { agentKindOf, type RepairAgent } from '../core/agent.js'
import type { DataAgent } from '../core/data-agent.js'
import { InputError } from '../core/errors.js'

export function looksLikeModulePath(spec: string): boolean {
  return spec.startsWith('.') || spec.startsWith('/') || /\.(c|m)?(t|j)s$/.test(spec)
}

/**
 * Imports a user agent module (`.ts` through jiti, `.js` natively) and returns its default export or named
 * `agent` export; a factory function (one without `isAgent(candidate)` true) is called first.
 */
async function importAgentExport(
  spec: string,
  cwd: string,
  isAgent: (x: unknown) => boolean,
): Promise<{ candidate: unknown; path: string; exports: string[] }> {
  const path = resolve(cwd, spec)
  if (!existsSync(path)) throw new InputError(`agent module ${spec} not found (resolved to ${path})`)
  let mod: Record<string, unknown>
  try {
    mod = /\.(c|m)?ts$/.test(path)
      ? ((await createJiti(import.meta.url, { interopDefault: false }).import(path)) as Record<string, unknown>)
      : ((await import(pathToFileURL(path).href)) as Record<string, unknown>)
  } catch (error) {
    throw new InputError(
      `agent module ${spec} failed to load: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
    )
  }
  let candidate = mod.agent ?? mod.default
  if (typeof candidate === 'function' && !isAgent(candidate)) candidate = await (candidate as () => unknown)()
  return { candidate, path, exports: Object.keys(mod) }
}

/**
 * Loads a user agent from a `.ts` or `.js` module: the default export or a named `agent` export,
 * either an agent object or a factory function returning one.
 */
export async function loadAgentModule(spec: string, cwd: string): Promise<RepairAgent> {
  const { candidate, path, exports } = await importAgentExport(spec, cwd, (x) => typeof x === 'function' && 'run' in x)
  if (!candidate || typeof candidate !== 'object' || typeof (candidate as RepairAgent).run !== 'function') {
    throw new InputError(
      `agent module ${spec} must export an agent ({ name, run(task, ctx) }) as default or as "agent"; found exports [${exports.join(', ')}]`,
    )
  }
  const agent = candidate as RepairAgent
  const name = typeof agent.name === 'string' && agent.name ? agent.name : basename(path, extname(path))
  return {
    name,
    kind: agentKindOf(agent),
    model: agent.model,
    provider: agent.provider,
    run: (task, ctx) => agent.run(task, ctx),
  }
}

/** Loads a user data agent into this process (`isolate: false`): trusted code only. */
export async function loadDataAgentModule(spec: string, cwd: string): Promise<DataAgent> {
  const isDataAgent = (x: unknown) => Boolean(x) && typeof (x as DataAgent).session === 'function'
  const { candidate, path, exports } = await importAgentExport(spec, cwd, isDataAgent)
  if (!isDataAgent(candidate)) {
    throw new InputError(
      `agent module ${spec} must export a data agent ({ name, session(tables) }) as default or as "agent"; found exports [${exports.join(', ')}]`,
    )
  }
  const a = candidate as DataAgent
  const name = typeof a.name === 'string' && a.name ? a.name : basename(path, extname(path))
  return {
    name,
    kind: agentKindOf(a),
    model: a.model,
    provider: a.provider,
    session: (tables, ctx) => a.session(tables, ctx),
  }
}
