import type { RepairAgent, RunContext } from '../core/agent.js'
import { AgentFailure } from '../core/errors.js'
import { truthReveals } from '../core/ground-truth.js'
import type { AgentTask } from '../core/schemas.js'
import { toFailureKind } from '../core/failure-kind.js'
import { type NormalizedOutput, normalizeAgentOutput } from './normalize-output.js'

interface Invocation {
  output: NormalizedOutput
  /** The agent read the task's truth (the mock oracle, `dataforge-evals/testing`): the run is an `oracle` run. */
  oracle: boolean
}

/**
 * Calls a repair agent once and normalizes what it returned, for both front doors (the CLI's trial loop and
 * `evalCase`'s bound agent). Output that is not fixes, or too large to be honest, throws `invalid_output`; an
 * adapter's reported failure throws with its kind; the agent's own exceptions pass through unchanged.
 */
export async function invokeRepairAgent(agent: RepairAgent, task: AgentTask, ctx: RunContext): Promise<Invocation> {
  const before = truthReveals(task)
  const raw = await agent.run(task, ctx)
  const output = normalizeAgentOutput(raw, { maxFixes: maxFixesFor(task) })
  if (output.failure) {
    throw new AgentFailure(toFailureKind(output.failure.kind), output.failure.message, {
      usage: output.usage,
      steps: output.steps,
      warnings: output.warnings,
    })
  }
  return { output, oracle: agent.kind === 'oracle' || truthReveals(task) !== before }
}

/** More fixes than four per cell is not an honest answer (duplicates aside, one per cell is all that counts). */
function maxFixesFor(task: AgentTask): number {
  return 4 * task.dirty.rows.length * Math.max(1, task.columns.length)
}
