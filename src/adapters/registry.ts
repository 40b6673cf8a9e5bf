import type { RepairAgent } from '../core/agent.js'
import { InputError } from '../core/errors.js'
import { baselineAgent } from './baseline/index.js'
import { loadAgentModule, looksLikeModulePath } from './load-agent-module.js'
import { mockAgent, noopAgent } from './mock-oracle.js'
import { PROVIDER_PRESETS, createProviderAgent, type ProviderAgentOptions } from './providers/index.js'

export interface AgentListing {
  name: string
  kind: string
  description: string
  /** Environment variable holding the API key, for model-backed agents. */
  apiKeyEnv?: string
  defaultModel?: string
}

const LOCAL_AGENTS: Record<string, { agent: RepairAgent; description: string }> = {
  mock: { agent: mockAgent, description: 'privileged oracle: returns the ground truth (F1 = 1); for testing the harness only' },
  noop: { agent: noopAgent, description: 'proposes nothing: the floor' },
  baseline: {
    agent: baselineAgent,
    description: 'deterministic non-LLM repairer: null placeholders, majority formats, edit-distance typos, functional dependencies',
  },
}

export function listAgents(): AgentListing[] {
  const local = Object.entries(LOCAL_AGENTS).map(([name, { agent, description }]) => ({
    name,
    kind: agent.kind ?? 'custom',
    description,
  }))
  const providers = Object.values(PROVIDER_PRESETS).map((p) => ({
    name: p.id,
    kind: 'model',
    description: `${p.provider} via its OpenAI-compatible API (${p.baseUrl ?? 'needs --base-url'})`,
    apiKeyEnv: p.apiKeyEnv ?? undefined,
    defaultModel: p.defaultModel ?? undefined,
  }))
  return [...local, ...providers]
}

/** Resolves an agent name, a provider preset, or a path to a user module. */
export async function resolveAgent(spec: string, opts: { cwd: string; provider?: ProviderAgentOptions }): Promise<RepairAgent> {
  const local = LOCAL_AGENTS[spec]
  if (local) return local.agent
  if (spec in PROVIDER_PRESETS) return createProviderAgent(spec, opts.provider ?? {})
  if (looksLikeModulePath(spec)) return loadAgentModule(spec, opts.cwd)
  const known = listAgents().map((a) => a.name)
  throw new InputError(`unknown agent "${spec}": use one of ${known.join(', ')}, or a path to a module (./my-agent.ts)`)
}
