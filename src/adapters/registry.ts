import { agentKindOf, type RepairAgent } from '../core/agent.js'
import { InputError } from '../core/errors.js'
import {
  commandSpec,
  type IsolatedSpec,
  isCommandSpec,
  moduleSpec,
  parseCommandSpec,
  provenanceOf,
} from '../isolation/agent-spec.js'
import { type IsolatedAgent, type IsolationOptions, startIsolatedAgent } from '../isolation/isolated-agent.js'
import { mockAgent } from '../testing/mock-oracle.js'
import { baselineAgent } from './baseline/index.js'
import type { DataAgent } from '../core/data-agent.js'
import { loadAgentModule, loadDataAgentModule, looksLikeModulePath } from './load-agent-module.js'
import { noopAgent } from './noop.js'
import { PROVIDER_PRESETS, createProviderAgent, type ProviderAgentOptions } from './providers/index.js'

export interface AgentListing {
  name: string
  kind: string
  description: string
  /** The commands that take it as `--agent`: `run` (repair agents), `qa` (question agents), or both (provider presets). */
  commands: Array<'run' | 'qa'>
  /** Environment variable holding the API key, for model-backed agents. */
  apiKeyEnv?: string
  defaultModel?: string
}

const LOCAL_AGENTS: Record<string, { agent: RepairAgent; description: string }> = {
  mock: {
    agent: mockAgent,
    description: 'privileged oracle: returns the ground truth (F1 = 1); for testing the harness only',
  },
  noop: { agent: noopAgent, description: 'proposes nothing: the floor' },
  baseline: {
    agent: baselineAgent,
    description:
      'deterministic non-LLM repairer: null placeholders, majority formats, edit-distance typos, functional dependencies',
  },
}

/** The repair agents by name and the provider presets (which `qa` takes too, as `model-qa` over the preset). */
export function listAgents(): AgentListing[] {
  const local = Object.entries(LOCAL_AGENTS).map(
    ([name, { agent, description }]): AgentListing => ({
      name,
      kind: agentKindOf(agent),
      description,
      commands: ['run'],
    }),
  )
  const providers = Object.values(PROVIDER_PRESETS).map(
    (p): AgentListing => ({
      name: p.id,
      kind: 'model',
      description: `${p.provider} via its OpenAI-compatible API (${p.baseUrl || 'needs --base-url'})`,
      commands: ['run', 'qa'],
      apiKeyEnv: p.keyEnv ?? undefined,
      defaultModel: p.defaultModel ?? undefined,
    }),
  )
  return [...local, ...providers]
}

export interface ResolveOptions {
  cwd: string
  provider?: ProviderAgentOptions
  /** Module agents run in their own process unless this is false (trusted code, debugging). Default true. */
  isolate?: boolean
  isolation?: Omit<IsolationOptions, 'cwd'>
}

/** An agent spec in an eval file: a name/path/`cmd:…` string, or a command as an argument list. */
export type AgentSpec = string | { command: readonly string[] }

/** Names a custom agent may not take: a report row named `baseline` must be the built-in baseline. */
export function builtInAgentNames(): string[] {
  return [...Object.keys(LOCAL_AGENTS), ...Object.keys(PROVIDER_PRESETS), 'data-agent']
}

/**
 * Resolves an agent name, a provider preset, a path to a user module, or `cmd:COMMAND`. Built-ins run in this
 * process; module agents run isolated (their own process under Node's permission model) unless `isolate` is
 * false; commands always run in their own process. Close what you resolve with `closeAgent`.
 */
export async function resolveAgent(spec: AgentSpec, opts: ResolveOptions): Promise<RepairAgent> {
  if (typeof spec !== 'string')
    return checkName(await start(commandSpec(spec.command, opts.cwd), opts, 'repair'), spec.command.join(' '))
  const local = LOCAL_AGENTS[spec]
  if (local) return { ...local.agent, provenance: { source: `builtin:${spec}`, sha256: null, isolated: false } }
  if (spec in PROVIDER_PRESETS)
    return {
      ...createProviderAgent(spec, opts.provider ?? {}),
      provenance: { source: `builtin:${spec}`, sha256: null, isolated: false },
    }
  if (isCommandSpec(spec)) return checkName(await start(parseCommandSpec(spec, opts.cwd), opts, 'repair'), spec)
  if (looksLikeModulePath(spec)) {
    const module = moduleSpec(spec, opts.cwd)
    if (opts.isolate === false) {
      const agent = await loadAgentModule(spec, opts.cwd)
      return checkName(
        {
          ...agent,
          kind: agent.kind === 'model' ? ('model' as const) : ('custom' as const),
          provenance: { ...provenanceOf(module), isolated: false },
        },
        spec,
      )
    }
    return checkName(await start(module, opts, 'repair'), spec)
  }
  const known = listAgents().map((a) => a.name)
  throw new InputError(
    `unknown agent "${spec}": use one of ${known.join(', ')}, a path to a module (./my-agent.ts), or cmd:COMMAND`,
  )
}

/**
 * Resolves a data (question-answering) agent given by path or command: isolated by default, like `resolveAgent`.
 * Built-in data agents are objects (`createMockQaAgent`), passed as such.
 */
export async function resolveCustomDataAgent(
  spec: AgentSpec,
  opts: Omit<ResolveOptions, 'provider'>,
): Promise<DataAgent> {
  if (typeof spec !== 'string')
    return checkName(await start(commandSpec(spec.command, opts.cwd), opts, 'data'), spec.command.join(' '))
  if (isCommandSpec(spec)) return checkName(await start(parseCommandSpec(spec, opts.cwd), opts, 'data'), spec)
  if (!looksLikeModulePath(spec))
    throw new InputError(`data agent "${spec}": give a module path (./my-agent.ts), cmd:COMMAND, or an agent object`)
  const module = moduleSpec(spec, opts.cwd)
  if (opts.isolate === false) {
    const agent = await loadDataAgentModule(spec, opts.cwd)
    return checkName(
      {
        ...agent,
        kind: agent.kind === 'model' ? ('model' as const) : ('custom' as const),
        provenance: { ...provenanceOf(module), isolated: false },
      },
      spec,
    )
  }
  return checkName(await start(module, opts, 'data'), spec)
}

/** Starts an isolated agent; one that cannot start (bad module, missing command, no `ready`) is bad input. */
async function start(
  spec: IsolatedSpec,
  opts: Omit<ResolveOptions, 'provider'>,
  needs: 'repair' | 'data',
): Promise<IsolatedAgent> {
  const label = spec.type === 'module' ? `module ${spec.display}` : `cmd:${spec.display}`
  let agent: IsolatedAgent
  try {
    agent = await startIsolatedAgent(spec, { cwd: opts.cwd, ...opts.isolation })
  } catch (error) {
    throw new InputError(`agent ${label} did not start: ${error instanceof Error ? error.message : String(error)}`)
  }
  if (agent.capabilities && !agent.capabilities.includes(needs)) {
    await agent.close()
    const shape =
      needs === 'repair' ? 'a repair agent ({ name, run(task, ctx) })' : 'a data agent ({ name, session(tables) })'
    throw new InputError(
      `agent ${label} must export ${shape}; it offers only ${agent.capabilities.join(', ') || 'nothing'}`,
    )
  }
  return agent
}

function checkName<A extends { name: string }>(agent: A, spec: string): A {
  if (builtInAgentNames().includes(agent.name)) {
    void closeAgent(agent)
    throw new InputError(
      `agent ${spec} calls itself "${agent.name}", the name of a built-in agent; give it another name`,
    )
  }
  return agent
}

/** Ends an isolated agent's processes; a no-op for in-process agents. */
export async function closeAgent(agent: unknown): Promise<void> {
  const close = (agent as { close?: unknown } | null)?.close
  if (typeof close === 'function') await (close as () => Promise<void>).call(agent)
}
