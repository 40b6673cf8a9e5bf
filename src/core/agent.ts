import type { LlmAccess } from './llm.js'
import type { AgentRunResult, AgentTask, Fix } from './schemas.js'

/** Per-trial context handed to an agent. */
export interface RunContext {
  /** The trial seed: the seed that generated the data, passed on so agents can be seeded too. */
  seed: number
  /** 0-based trial index. */
  trial: number
  /** Aborted when the trial's timeout expires. */
  signal: AbortSignal
  /** The model gateway for this trial, when the run has an upstream (`llm` option, `--llm`, `DATAFORGE_LLM`). */
  llm?: LlmAccess
}

export type AgentKind = 'oracle' | 'baseline' | 'model' | 'custom'

/** An agent's kind as reports name it: `custom` when it states none. */
export function agentKindOf<K extends string>(agent: { kind?: K | undefined }): K | 'custom' {
  return agent.kind ?? 'custom'
}

/** Where an agent came from, recorded on every RunRecord. */
export interface AgentProvenance {
  /** `builtin:NAME`, `module:PATH` (relative to the working directory) or `cmd:COMMAND`. */
  source: string
  /** sha256 of the module file or the command's script; null for built-ins and agent objects. */
  sha256: string | null
  /** True when the agent runs in its own process (src/isolation/). */
  isolated: boolean
  /** The wall it runs behind (absent: in this process, or not known). */
  isolation?: IsolationInfo
}

/** An agent in the harness's own process: nothing walls it off (trusted code). */
export const IN_PROCESS: IsolationInfo = Object.freeze({ level: 'none', tool: null, version: null, files: 'all' })

/**
 * The wall an agent ran behind, on every RunRecord and in the reproducibility block. `level`: `sandbox` (an OS
 * sandbox: bubblewrap), `process` (its own process; module agents under Node's permission model, command agents
 * unrestricted), `none` (in the harness's process: trusted code).
 */
export interface IsolationInfo {
  level: 'sandbox' | 'process' | 'none'
  /** `bubblewrap`, `node-permission-model`, or null (nothing restricts its files). */
  tool: string | null
  /** The tool's version (bubblewrap's, or Node's for the permission model). */
  version: string | null
  /** What of the disk it can read: `sandbox` (only what is mounted), `agent folder and node_modules`, `unrestricted`, `all` (in process). */
  files: string
}

export interface RepairAgent {
  name: string
  /** Shown in reports: oracle/baseline/model/custom. Defaults to `custom`. */
  kind?: AgentKind
  /** Model id, for model-backed agents. */
  model?: string
  /** Provider id (groq, gemini, …) for model-backed agents. */
  provider?: string
  /** Set by the registry; agent objects passed straight to `evalCase` have none (they are trusted, in-process). */
  provenance?: AgentProvenance
  run(task: AgentTask, ctx: RunContext): Promise<Fix[] | AgentRunResult> | Fix[] | AgentRunResult
}
