import type { AgentProvenance } from './agent.js'
import type { Answer } from './answer.js'
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
  session(tables: Record<string, Table>, ctx: { seed: number }): Promise<DataSession> | DataSession
}
