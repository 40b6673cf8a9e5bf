import { type AgentProvenance, agentKindOf } from './agent.js'

/** Who ran a trial, as every meta and record names it. */
export interface AgentIdentity {
  agent: string
  /** oracle/baseline/model/custom: `oracle` also when the agent read the truth, whatever it calls itself. */
  agentKind: string
  model: string | null
  provider: string | null
  /** Where the agent came from (built-in, module, command) and the sha256 of its file; null for agent objects. */
  agentProvenance: AgentProvenance | null
}

/**
 * One trial's identity: which case, turn, data, agent, trial and seed. Every door (the CLI's `run` and `qa`,
 * `evalCase`, `conversation`, `qaSuite`, under Vitest and Jest) builds it with `trialIdentity`; a test's meta
 * carries it and `buildRunRecord` takes it, so the record names the trial as the door did.
 */
export interface TrialIdentity extends AgentIdentity {
  caseId: string
  /** The turn of a conversation or multi-turn question (1-based); null for a single-shot case. */
  turn: number | null
  suite: string
  dataset: string
  category: string | null
  trial: number
  seed: number
  /** Comparability epoch. */
  generation: string | null
  /** The data's identity (`RunRecord.datasetSha256`); null until the data is known. */
  datasetSha256: { dirty: string; clean: string } | null
}

/** What a door knows of a trial: the rest takes its neutral default (no turn, the suite named after the dataset…). */
export type TrialIdentityInput = Pick<TrialIdentity, 'caseId' | 'dataset' | 'agent' | 'trial' | 'seed'> & {
  [K in Exclude<keyof TrialIdentity, 'caseId' | 'dataset' | 'agent' | 'trial' | 'seed'>]?: TrialIdentity[K] | undefined
}

/** The agent's part of a trial's identity; `oracle` when the trial found it read the truth. */
export function agentIdentity(
  agent: {
    name: string
    kind?: string | undefined
    model?: string | undefined
    provider?: string | undefined
    provenance?: AgentProvenance | undefined
  },
  oracle = false,
): AgentIdentity {
  return {
    agent: agent.name,
    agentKind: oracle ? 'oracle' : agentKindOf(agent),
    model: agent.model ?? null,
    provider: agent.provider ?? null,
    agentProvenance: agent.provenance ?? null,
  }
}

/** A trial's identity with every field: what the door gave, the neutral defaults for the rest. */
export function trialIdentity(id: TrialIdentityInput): TrialIdentity {
  return {
    caseId: id.caseId,
    turn: id.turn ?? null,
    suite: id.suite ?? id.dataset,
    dataset: id.dataset,
    category: id.category ?? null,
    agent: id.agent,
    agentKind: agentKindOf({ kind: id.agentKind }),
    model: id.model ?? null,
    provider: id.provider ?? null,
    trial: id.trial,
    seed: id.seed,
    generation: id.generation ?? null,
    datasetSha256: id.datasetSha256 ?? null,
    agentProvenance: id.agentProvenance ?? null,
  }
}
