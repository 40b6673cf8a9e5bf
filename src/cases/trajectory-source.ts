import type { LlmCall } from '../core/llm.js'
import type { RecordToolCall } from '../core/transcript.js'
import type { TrialLedger } from '../gateway/types.js'
import type { Trajectory } from '../grading/trajectory.js'
import type { DataforgeMeta } from '../test-meta/build.js'

/**
 * Where a trial's trajectory comes from at test time: the gateway's ledger (its model calls, and the tool calls
 * read from their requests and answers) and the tool calls an agent ran itself, put on the test's meta. Each is
 * read through the one accessor below, so a change of where they are kept is a change here.
 */

/** The tool calls the gateway read from a trial's model calls (the ledger's `toolCalls`; none on a ledger without them). */
export function ledgerToolCalls(ledger: TrialLedger): readonly RecordToolCall[] {
  return (ledger as TrialLedger & { toolCalls?: readonly RecordToolCall[] }).toolCalls ?? []
}

/** The tool calls an agent reported of itself on the test's meta (the data agent's own SQL), none when absent. */
export function metaToolCalls(meta: DataforgeMeta): readonly RecordToolCall[] {
  return (meta as DataforgeMeta & { toolCalls?: readonly RecordToolCall[] }).toolCalls ?? []
}

/** The part of a gateway trial a trajectory reads: calls `from` … `to` of its ledger. */
export interface LedgerView {
  ledger: TrialLedger
  from?: number
  to?: number
}

/**
 * The trajectory so far: the model calls and tool calls in the ledger's range, then the agent's own tool calls
 * not already there; steps are the model calls when the gateway saw any, else the steps the agent reported.
 */
export function trialTrajectory(view: LedgerView | null, meta: DataforgeMeta): Trajectory {
  let modelCalls: readonly LlmCall[] = []
  let toolCalls: readonly RecordToolCall[] = []
  if (view) {
    const { ledger, from = 0, to } = view
    modelCalls = ledger.calls.slice(from, to)
    const end = to ?? Number.POSITIVE_INFINITY
    toolCalls = ledgerToolCalls(ledger)
      .filter((c) => c.call === null || (c.call >= from && c.call < end))
      .map((c) => (c.call === null || from === 0 ? c : { ...c, call: c.call - from }))
  }
  const own = metaToolCalls(meta).filter((c) => !toolCalls.includes(c))
  return {
    modelCalls,
    toolCalls: own.length ? [...toolCalls, ...own] : toolCalls,
    steps: modelCalls.length > 0 ? modelCalls.length : (meta.steps ?? 0),
  }
}
