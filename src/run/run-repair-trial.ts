import type { RepairAgent, RunContext } from '../core/agent.js'
import type { RecordOutcome } from '../core/build-run-record.js'
import type { DatasetInfo } from '../core/dataset-info.js'
import type { RepairScore } from '../core/repair-score.js'
import type { AgentTask } from '../core/schemas.js'
import { ownUpstreamOf } from '../gateway/agent-upstream.js'
import type { LlmConfig } from '../gateway/trial-llm.js'
import type { Containment } from './contain.js'
import { invokeRepairAgent } from './invoke-agent.js'
import { classifyFailure } from './classify-failure.js'
import { withTimeout } from './with-timeout.js'

interface RepairTrialInput {
  agent: RepairAgent
  task: AgentTask
  info: DatasetInfo
  trial: number
  seed: number
  timeoutMs: number | null
  grade: (task: AgentTask, fixes: unknown[]) => RepairScore
  passF1?: number
  signal?: AbortSignal
  /** In-process agents in the CLI: escaped errors and `process.exit` fail this trial instead of the run. */
  containment?: Containment
  /**
   * The run's model upstream: the agent gets `ctx.llm` (the gateway) and the record the gateway's count. A built-in
   * model agent's own upstream (its preset) wins over it.
   */
  llm?: LlmConfig | null
  /** Named in the gateway's messages (cache misses, budgets); default the task's name. */
  caseId?: string
}

interface RepairTrialResult {
  outcome: RecordOutcome
  model: string | null
  /** The agent read the truth: record the run as `oracle`, whatever the agent calls itself. */
  oracle: boolean
}

/**
 * One trial: run the agent under its timeout, then grade. Never throws for agent misbehaviour: a timeout,
 * an exception or output that is not fixes becomes a failed outcome with its kind and message.
 */
export async function runRepairTrial(input: RepairTrialInput): Promise<RepairTrialResult> {
  // A built-in model agent brings its preset's upstream; any other agent takes the run's.
  const config = ownUpstreamOf(input.agent) ?? input.llm
  if (!config) return runRepairTrialWith(input, undefined)
  // Loaded only for runs with an upstream: the test workers import this module and need no HTTP server.
  const gw = await import('../gateway/trial-llm.js')
  const trial = await gw.openLlmTrial(config, {
    caseId: input.caseId ?? input.task.name,
    trial: input.trial,
    seed: input.seed,
  })
  try {
    const result = await runRepairTrialWith(input, trial?.llm)
    // Ends the trial before its count is read: calls still in flight are cancelled and counted.
    trial?.finish()
    return { ...result, outcome: gw.applyLlmOutcome(result.outcome, trial ? gw.outcomeSince(trial) : null) }
  } finally {
    trial?.finish()
  }
}

async function runRepairTrialWith(input: RepairTrialInput, llm: RunContext['llm']): Promise<RepairTrialResult> {
  const started = performance.now()
  const startedAt = new Date().toISOString()
  const elapsed = () => (performance.now() - started) / 1000
  const invoke = (signal: AbortSignal) =>
    invokeRepairAgent(input.agent, input.task, {
      seed: input.seed,
      trial: input.trial,
      signal,
      ...(llm ? { llm } : {}),
    })
  try {
    const { output, oracle } = await withTimeout(
      input.timeoutMs,
      (signal) => (input.containment ? input.containment.run(() => invoke(signal)) : invoke(signal)),
      input.signal,
    )
    const score = input.grade(input.task, output.fixes)
    return {
      model: output.model ?? input.agent.model ?? null,
      oracle,
      outcome: {
        status: 'ok',
        score,
        passF1: input.passF1,
        steps: output.steps,
        runtimeS: elapsed(),
        startedAt,
        usage: output.usage,
        warnings: output.warnings,
      },
    }
  } catch (error) {
    return {
      model: input.agent.model ?? null,
      oracle: input.agent.kind === 'oracle',
      outcome: { status: 'failed', ...classifyFailure(error), runtimeS: elapsed(), startedAt },
    }
  }
}
