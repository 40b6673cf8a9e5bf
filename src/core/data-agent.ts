import type { AgentProvenance } from './agent.js'
import type { Answer } from './answer.js'
import type { LlmAccess } from './llm.js'
import type { Table } from './schemas.js'

/** One conversation with a data agent over named tables; it keeps state between questions. */
export interface DataSession {
  ask(question: string, ctx?: { signal?: AbortSignal }): Promise<Answer> | Answer
  close?(): Promise<void> | void
}

/** A question-answering data agent: `agent.session(tables).ask(question)`. */
export interface DataAgent {
  name: string
  kind?: 'oracle' | 'baseline' | 'model' | 'custom'
  model?: string
  provider?: string
  provenance?: AgentProvenance
  /** `ctx.llm`: the model gateway for this trial's session, when the run has an upstream. */
  session(tables: Record<string, Table>, ctx: { seed: number; llm?: LlmAccess }): Promise<DataSession> | DataSession
}
