import { AgentFailure } from '../core/errors.js'
import type { LlmAccess, LlmCall } from '../core/llm.js'
import type { Usage } from '../core/schemas.js'
import { isZeroUsage } from '../core/usage.js'
import type { GatewayTrial } from '../gateway/gateway.js'
import type { RecordToolCall } from '../core/transcript.js'
import type { LlmConfig, LlmOutcome } from '../gateway/trial-llm.js'
import type { LlmOption } from '../gateway/upstream.js'
import type { DataforgeMeta } from '../test-meta/build.js'
import { failureOf } from '../test-meta/cap.js'

/**
 * The model gateway for the runner doors (`evalCase`, `conversation`, `qaSuite`, Jest): the case's `llm` option or
 * `DATAFORGE_LLM`, resolved once per case. Without either nothing of the gateway loads (the workers stay lean).
 */
export function caseLlm(llm: LlmOption | undefined, what: string): () => Promise<LlmConfig | null> {
  if (llm === undefined && !process.env['DATAFORGE_LLM']?.trim()) return async () => null
  let config: Promise<LlmConfig | null> | null = null
  return () => {
    config ??= import('../gateway/config.js').then(({ resolveLlmConfig }) =>
      resolveLlmConfig({ ...(llm !== undefined ? { llm, source: `${what}: llm` } : {}) }),
    )
    return config
  }
}

/** One trial's registration with the gateway, for a runner door: `llm` for the agent, `put` for each test's meta. */
export interface CaseTrial {
  readonly llm: LlmAccess
  /** Marks where the next turn's calls start. */
  mark(): number
  /** A turn is answered: its calls still in flight are cancelled and counted to it. */
  endTurn(): void
  /**
   * Puts calls `from` … `to` (all when omitted) on `meta`: usage, whose usage counts, traces, a gateway failure.
   * Returns that failure, to throw: it fails the trial whatever the agent returned.
   */
  put(meta: DataforgeMeta, from?: number, to?: number): AgentFailure | null
  finish(): void
  /** Calls `from` … `to` so far and their tool calls (what `ctx.trajectory()` reads). */
  calls(from?: number, to?: number): { modelCalls: readonly LlmCall[]; toolCalls: readonly RecordToolCall[] }
}

export async function openCaseTrial(
  config: () => Promise<LlmConfig | null>,
  ids: { caseId: string; trial: number; seed: number },
): Promise<CaseTrial | null> {
  const resolved = await config()
  if (!resolved) return null
  const gw = await import('../gateway/trial-llm.js')
  const trial = (await gw.openLlmTrial(resolved, ids)) as GatewayTrial
  return {
    llm: trial.llm,
    mark: () => trial.ledger.calls.length,
    endTurn: () => void trial.cancelInFlight(),
    put: (meta, from, to) => putLlmOutcome(meta, gw.outcomeSince(trial, from, to)),
    finish: () => void trial.finish(),
    calls: (from = 0, to) => ({
      modelCalls: trial.ledger.calls.slice(from, to),
      toolCalls: gw.toolCallsSince(trial.ledger, from, to),
    }),
  }
}

/**
 * The gateway's count replaces what the agent reported when it saw calls (no double count); its failure is the
 * trial's, put on the meta with its kind and returned as the failure to throw (null when the gateway refused nothing).
 */
export function putLlmOutcome(meta: DataforgeMeta, llm: LlmOutcome): AgentFailure | null {
  const agentUsage: Usage | null = meta.usage
  let usageSource: 'gateway' | 'agent' | null
  if (llm.calls.length > 0) {
    meta.usage = llm.usage
    usageSource = 'gateway'
  } else usageSource = agentUsage && !isZeroUsage(agentUsage) ? 'agent' : null
  meta.llm = {
    upstream: llm.upstream,
    usageSource,
    calls: llm.calls,
    toolCalls: llm.toolCalls,
    transcript: llm.transcript,
  }
  if (llm.cancelled) meta.warnings = [...(meta.warnings ?? []), llm.cancelled]
  if (!llm.failure) return null
  meta.failure = failureOf(meta, llm.failure.kind, `model gateway: ${llm.failure.message}`)
  return new AgentFailure(llm.failure.kind, meta.failure.message)
}
