import type { DataAgent } from '../core/data-agent.js'
import { InputError } from '../core/errors.js'
import { dataAgentFromCli } from './data-agent/index.js'
import { looksLikeModulePath } from './load-agent-module.js'
import { createProviderQaAgent, type ModelQaOptions } from './model-qa.js'
import { PROVIDER_PRESETS, type ProviderAgentOptions } from './providers/index.js'
import type { AgentListing } from './registry.js'
import { noopQaAgent, refusingAgent, suiteOracle } from './suite-oracle.js'
import { compareText } from '../core/order.js'
import type { ResolveOptions } from './registry.js'

export interface DataAgentOptions {
  /** Provider preset for model-backed agents (`--provider`); a preset name given as the spec wins. */
  provider?: string
  /** Model id (`--model`, or one entry of `--models`); default the preset's. */
  model?: string
  providerOptions?: ProviderAgentOptions & ModelQaOptions
}

interface DataAgentEntry {
  kind: string
  description: string
  create(opts: DataAgentOptions): DataAgent
}

function modelBacked(
  spec: string,
  opts: DataAgentOptions,
): { preset: string; options: ProviderAgentOptions & ModelQaOptions } {
  const preset = spec in PROVIDER_PRESETS ? spec : opts.provider
  if (!preset)
    throw new InputError(`agent ${spec} needs --provider (one of ${Object.keys(PROVIDER_PRESETS).join(', ')})`)
  if (!(preset in PROVIDER_PRESETS))
    throw new InputError(`--provider ${preset}: use one of ${Object.keys(PROVIDER_PRESETS).join(', ')}`)
  return { preset, options: { ...opts.providerOptions, ...(opts.model ? { model: opts.model } : {}) } }
}

/** Question-answering agents by name. Provider preset names also resolve, to `model-qa` over that preset. */
export const DATA_AGENTS: Record<string, DataAgentEntry> = {
  'mock-qa': {
    kind: 'oracle',
    description:
      'privileged oracle for question suites: answers with the expected answers (100%); tests the harness only',
    create: () => suiteOracle,
  },
  refuse: {
    kind: 'baseline',
    description: 'refuses every question: passes exactly the refusal cases',
    create: () => refusingAgent,
  },
  'noop-qa': {
    kind: 'baseline',
    description: 'answers nothing: passes no case, refusals included',
    create: () => noopQaAgent,
  },
  'model-qa': {
    kind: 'model',
    description:
      'a model answers from the tables in its prompt (head rows past a token budget), one JSON answer per question',
    create: (opts) => {
      const { preset, options } = modelBacked('model-qa', opts)
      return createProviderQaAgent(preset, options)
    },
  },
  'data-agent': {
    kind: 'model',
    description:
      'tool-calling agent: read-only SQL over DuckDB, saved results, Vega-Lite charts; sees schemas and 5 sample rows',
    create: (opts) =>
      dataAgentFromCli({
        ...opts.providerOptions,
        ...(opts.provider ? { provider: opts.provider } : {}),
        ...(opts.model ? { model: opts.model } : {}),
      }),
  },
}

/** The question agents by name, for `list-agents` (model-backed ones take their model from `--provider`). */
export function listDataAgents(): AgentListing[] {
  return Object.entries(DATA_AGENTS)
    .sort(([a], [b]) => compareText(a, b))
    .map(([name, entry]) => ({
      name,
      kind: entry.kind,
      description: entry.kind === 'model' ? `${entry.description} (needs --provider)` : entry.description,
      commands: ['qa'],
    }))
}

/** True when the spec names a model-backed agent (so `--models` makes one per model). */
export function isModelBackedSpec(spec: string): boolean {
  return spec in PROVIDER_PRESETS || DATA_AGENTS[spec]?.kind === 'model'
}

/** Resolves a question-answering agent by name; model-backed ones check key and URL now, before any call. */
export function resolveDataAgent(spec: string, opts: DataAgentOptions = {}): DataAgent {
  const entry = DATA_AGENTS[spec]
  if (entry) return entry.create(opts)
  if (spec in PROVIDER_PRESETS) {
    const { preset, options } = modelBacked(spec, opts)
    return createProviderQaAgent(preset, options)
  }
  throw new InputError(
    `unknown question agent "${spec}": use one of ${[...Object.keys(DATA_AGENTS), ...Object.keys(PROVIDER_PRESETS)].join(', ')}, or a path to a module (./my-agent.ts)`,
  )
}

/**
 * `resolveDataAgent`, plus user agents: a module path (`./my-agent.ts|js`, whose default or `agent` export is a
 * DataAgent or a factory of one) or `cmd:COMMAND`. They run in their own process (src/isolation/) unless
 * `isolate` is false; close them with `closeAgent` when done.
 */
export async function resolveDataAgentSpec(
  spec: string,
  opts: DataAgentOptions & { cwd: string; isolate?: boolean; isolation?: ResolveOptions['isolation'] },
): Promise<DataAgent> {
  if (DATA_AGENTS[spec] || spec in PROVIDER_PRESETS || !(looksLikeModulePath(spec) || spec.startsWith('cmd:')))
    return resolveDataAgent(spec, opts)
  const { resolveCustomDataAgent } = await import('./registry.js')
  return resolveCustomDataAgent(spec, {
    cwd: opts.cwd,
    isolate: opts.isolate !== false,
    ...(opts.isolation ? { isolation: opts.isolation } : {}),
  })
}
