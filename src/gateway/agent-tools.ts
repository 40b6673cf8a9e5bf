import type { LlmAccess } from '../core/llm.js'
import type { AgentToolNote } from '../core/transcript-build.js'
import type { TrialLedger } from './types.js'

/*
 * Where an in-process agent notes the tools it ran itself (the data agent's SQL), so they join its trial's
 * transcript: the ledger of the trial whose `ctx.llm` the agent holds, found by its token. Kept on `globalThis`
 * under a `Symbol.for` key, so the ESM and CommonJS copies of the package (Jest loads both) share it.
 */

const KEY = Symbol.for('dataforge-evals.gateway.trial-ledgers')
const holder = globalThis as Record<symbol, unknown>
holder[KEY] ??= new Map<string, TrialLedger>()
const ledgers = holder[KEY] as Map<string, TrialLedger>

/** The gateway registers a trial's ledger under its token while the trial is open. */
export function registerLedger(token: string, ledger: TrialLedger): void {
  ledgers.set(token, ledger)
}

export function forgetLedger(token: string): void {
  ledgers.delete(token)
}

/** Characters of a tool's result a transcript keeps as its preview. */
const RESULT_PREVIEW_CHARS = 2_000

/**
 * Notes one tool the agent ran on the trial of `llm`: its input, a preview of its result (the first
 * RESULT_PREVIEW_CHARS characters) and the result's size. `callId` is the model's tool call it answered, if any.
 * Does nothing without a trial (the agent runs outside the harness) or once the trial is over.
 */
export function noteAgentTool(
  llm: LlmAccess | undefined,
  step: {
    name: string
    input: string
    result: string
    error: string | null
    ms: number | null
    callId?: string | null
  },
): void {
  const ledger = llm ? ledgers.get(llm.apiKey) : undefined
  if (!ledger) return
  const note: AgentToolNote = {
    step: {
      name: step.name,
      input: step.input,
      resultPreview: step.result.slice(0, RESULT_PREVIEW_CHARS),
      resultChars: step.result.length,
      error: step.error,
      ms: step.ms,
    },
    callId: step.callId ?? null,
    atCall: ledger.calls.length,
  }
  ledger.agentTools.push(note)
}
