import type { AgentRunResult, AgentTask, Fix } from './schemas.js'

/** Per-trial context handed to an agent. */
export interface RunContext {
  /** The trial seed: the seed that generated the data, passed on so agents can be seeded too. */
  seed: number
  /** 0-based trial index. */
  trial: number
  /** Aborted when the trial's timeout expires. */
  signal: AbortSignal
}

export type AgentKind = 'oracle' | 'baseline' | 'model' | 'custom'

export interface RepairAgent {
  name: string
  /** Shown in reports: oracle/baseline/model/custom. Defaults to `custom`. */
  kind?: AgentKind
  /** Model id, for model-backed agents. */
  model?: string
  /** Provider id (groq, gemini, …) for model-backed agents. */
  provider?: string
  run(task: AgentTask, ctx: RunContext): Promise<Fix[] | AgentRunResult> | Fix[] | AgentRunResult
}
