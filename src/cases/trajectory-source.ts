import type { LlmCall } from '../core/llm.js'
import type { RecordToolCall } from '../core/transcript.js'
import type { Trajectory } from '../grading/trajectory.js'
import type { DataforgeMeta } from '../test-meta/build.js'

/**
 * Where a trial's trajectory comes from at test time: its gateway trial's calls so far (`CaseTrial.calls`: the
 * model calls, and the tool calls read from their answers with the tools the agent noted running itself, as the
 * record's `toolCalls` list them). Without a gateway trial, what the meta holds.
 */
export function trialTrajectory(
  seen: { modelCalls: readonly LlmCall[]; toolCalls: readonly RecordToolCall[] } | null,
  meta: DataforgeMeta,
): Trajectory {
  const modelCalls = seen?.modelCalls ?? meta.llm?.calls ?? []
  const toolCalls = seen?.toolCalls ?? meta.llm?.toolCalls ?? []
  // Steps are the model calls when the gateway saw any, else the steps the agent reported.
  return { modelCalls, toolCalls, steps: modelCalls.length > 0 ? modelCalls.length : (meta.steps ?? 0) }
}
