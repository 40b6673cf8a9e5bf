import type { CacheOptions } from './cache.js'
import type { RecordOutcome } from '../core/build-run-record.js'
import type { LlmCall } from '../core/llm.js'
import type { RecordToolCall, Transcript } from '../core/transcript.js'
import { type AgentToolNote, buildTranscript, toolCallsOf } from '../core/transcript-build.js'
import type { Usage } from '../core/schemas.js'
import { addUsageInPlace, emptyUsage, isZeroUsage } from '../core/usage.js'
import type { GatewayTrial } from './gateway.js'
import { sharedGateway } from './shared.js'
import type { Budget, CallPolicy, GatewayFailure, TrialLedger, Upstream } from './types.js'

/** A run's model configuration: where calls go, the cache mode, the per-trial budget. */
export interface LlmConfig {
  upstream: Upstream
  cache: CacheOptions
  budget?: Budget
  /** A built-in agent's own timeout, retries and backoff (default the gateway's). */
  policy?: CallPolicy
}

/** What the gateway saw of a trial (or of one turn of it). */
export interface LlmOutcome {
  /** The upstream's label (`Upstream.label`). */
  upstream: string
  usage: Usage
  calls: LlmCall[]
  failure: GatewayFailure | null
  /** The record's note on calls cancelled because the trial (or turn) ended with them in flight; null when none were. */
  cancelled: string | null
  /** The calls in full and the agent's own tool steps, capped (core/transcript-build.ts); null when there were none. */
  transcript: Transcript | null
  /** Each tool call, in order: the record's `toolCalls`. */
  toolCalls: RecordToolCall[]
}

/** Registers a trial with the process's gateway; null when the run has no upstream. */
export async function openLlmTrial(
  config: LlmConfig | null | undefined,
  ids: { caseId: string; trial: number; seed: number },
): Promise<GatewayTrial | null> {
  if (!config) return null
  const gateway = await sharedGateway()
  return gateway.openTrial({
    ...ids,
    upstream: config.upstream,
    cache: config.cache,
    ...(config.budget ? { budget: config.budget } : {}),
    ...(config.policy ? { policy: config.policy } : {}),
  })
}

/**
 * What the gateway saw of calls `from` … `to` of a trial (all of them by default: one turn of a conversation
 * otherwise). The trial's failure belongs to the range when the whole trial is asked for, or when one of the
 * range's calls carries it.
 */
export function outcomeSince(trial: GatewayTrial, from = 0, to?: number): LlmOutcome {
  const { ledger } = trial
  const whole = from === 0 && to === undefined
  const calls = ledger.calls.slice(from, to)
  const usage = emptyUsage()
  for (const u of ledger.callUsage.slice(from, to)) addUsageInPlace(usage, u)
  const failure =
    ledger.failure && (whole || calls.some((c) => c.error === ledger.failure?.message)) ? ledger.failure : null
  const { transcript, toolCalls } = buildTranscript(
    `${ledger.label} calls ${from}`,
    ledger.transcript.slice(from, to),
    stepsSince(ledger, from, to),
  )
  return {
    upstream: trial.upstreamLabel,
    usage,
    calls,
    failure,
    cancelled: cancelledCallsWarning(calls),
    transcript,
    toolCalls,
  }
}

/**
 * The tools the agent ran itself during calls `from` … `to`: a turn keeps the steps noted after its first call was
 * made, up to the next turn's first call (the first turn also those before any call; a whole trial all of them),
 * placed relative to its first call.
 */
function stepsSince(ledger: TrialLedger, from: number, to: number | undefined): AgentToolNote[] {
  const whole = from === 0 && to === undefined
  const end = to ?? ledger.calls.length
  const inTurn = (atCall: number) =>
    (atCall > from || (from === 0 && atCall === 0)) && (to === undefined || atCall <= end)
  return ledger.agentTools
    .filter((n) => whole || inTurn(n.atCall))
    .map((n) => (from === 0 ? n : { ...n, atCall: n.atCall - from }))
}

/** The tool calls of calls `from` … `to` so far, as the record's `toolCalls` will list them (`ctx.trajectory()`). */
export function toolCallsSince(ledger: TrialLedger, from = 0, to?: number): RecordToolCall[] {
  const calls = ledger.transcript.slice(from, to).map((c, i) => (c.index === i ? c : { ...c, index: i }))
  return toolCallsOf(calls, stepsSince(ledger, from, to))
}

/**
 * The record's note when calls were still in flight as the trial (or turn) ended: the gateway cancelled them
 * (HTTP 499 in `llmCalls`, error `cancelled: …`) and counted those it had sent. Null when there were none.
 */
function cancelledCallsWarning(calls: readonly LlmCall[]): string | null {
  const count = calls.filter((c) => c.status === 499 && c.error?.startsWith('cancelled:')).length
  return count === 0
    ? null
    : `${count} model call(s) were still in flight when the agent answered; the gateway cancelled them (HTTP 499 in llmCalls) and counted those it had sent upstream`
}

/**
 * Puts what the gateway saw on a trial's outcome. The gateway's count wins when it saw any call (the agent's own
 * `usage` is then ignored, with a warning when it reported some: no double count); the agent's report counts only
 * when no call went through the gateway. A call the gateway refused or could not answer fails the trial with its
 * kind (`budget_exceeded`, `cache_miss`, `rate_limited`, `provider_error`, `invalid_request`, `timeout`), whatever
 * the agent returned.
 */
export function applyLlmOutcome(outcome: RecordOutcome, llm: LlmOutcome | null): RecordOutcome {
  if (!llm) return outcome
  const out: RecordOutcome = {
    ...outcome,
    llmUpstream: llm.upstream,
    llmCalls: llm.calls,
    toolCalls: llm.toolCalls,
    transcriptId: llm.transcript?.id ?? null,
    transcript: llm.transcript,
  }
  if (llm.cancelled) out.warnings = [...(outcome.warnings ?? []), llm.cancelled]
  const agentUsage = outcome.usage
  if (llm.calls.length > 0) {
    out.usage = llm.usage
    out.usageSource = 'gateway'
    if (agentUsage && !isZeroUsage(agentUsage)) {
      out.warnings = [
        ...(out.warnings ?? []),
        'the agent also reported usage; the gateway counted its model calls, and that count is the one recorded',
      ]
    }
  } else out.usageSource = agentUsage && !isZeroUsage(agentUsage) ? 'agent' : null
  if (llm.failure) {
    // A built-in agent's own message repeats the gateway's; any other agent's says what it made of the refusal.
    const agentSaid =
      outcome.status === 'failed' && outcome.failureMessage && !outcome.failureMessage.includes(llm.failure.message)
        ? ` (the agent then failed: ${outcome.failureMessage})`
        : ''
    out.status = 'failed'
    out.failureKind = llm.failure.kind
    out.failureMessage = `model gateway: ${llm.failure.message}${agentSaid}`
    out.score = null
    out.correct = null
  }
  return out
}
