import type { RepairAgent } from '../core/agent.js'
import type { DatasetInfo } from '../core/dataset-info.js'
import { AgentFailure } from '../core/errors.js'
import type { RepairScore } from '../core/repair-score.js'
import type { AgentTask, FailureKind } from '../core/schemas.js'
import { normalizeAgentOutput } from './normalize-output.js'
import { withTimeout } from './with-timeout.js'
import type { RecordOutcome } from '../report/records.js'
import { addUsage, emptyUsage, toFailureKind, type Usage } from '../core/schemas.js'

export interface RepairTrialInput {
  agent: RepairAgent
  task: AgentTask
  info: DatasetInfo
  trial: number
  seed: number
  timeoutMs: number | null
  grade: (task: AgentTask, fixes: unknown[]) => RepairScore
  passF1?: number
  signal?: AbortSignal
}

export interface RepairTrialResult {
  outcome: RecordOutcome
  model: string | null
}

/**
 * One trial: run the agent under its timeout, then grade. Never throws for agent misbehaviour: a timeout,
 * an exception or output that is not fixes becomes a failed outcome with its kind and message.
 */
export async function runRepairTrial(input: RepairTrialInput): Promise<RepairTrialResult> {
  const started = performance.now()
  const elapsed = () => (performance.now() - started) / 1000
  try {
    const raw = await withTimeout(
      input.timeoutMs,
      (signal) => input.agent.run(input.task, { seed: input.seed, trial: input.trial, signal }),
      input.signal,
    )
    const output = normalizeAgentOutput(raw)
    const runtimeS = elapsed()
    if (output.failure) {
      return {
        model: output.model ?? input.agent.model ?? null,
        outcome: {
          status: 'failed',
          failureKind: toFailureKind(output.failure.kind),
          failureMessage: output.failure.message,
          steps: output.steps,
          runtimeS,
          usage: output.usage,
          warnings: output.warnings,
        },
      }
    }
    const score = input.grade(input.task, output.fixes)
    return {
      model: output.model ?? input.agent.model ?? null,
      outcome: {
        status: 'ok',
        score,
        passF1: input.passF1,
        steps: output.steps,
        runtimeS,
        usage: output.usage,
        warnings: output.warnings,
      },
    }
  } catch (error) {
    return {
      model: input.agent.model ?? null,
      outcome: { status: 'failed', ...classifyFailure(error), runtimeS: elapsed() },
    }
  }
}

export interface ClassifiedFailure {
  failureKind: FailureKind
  failureMessage: string
  /** What the run spent before failing, when the failure carries it (provider failures do). */
  usage?: Usage
  steps?: number
  warnings?: string[]
}

export function classifyFailure(error: unknown): ClassifiedFailure {
  if (error instanceof AgentFailure) {
    const spent = spentBefore(error)
    return { failureKind: error.kind, failureMessage: error.message, ...spent }
  }
  if (error instanceof TypeError && /^agent returned /.test(error.message)) {
    return { failureKind: 'invalid_output', failureMessage: error.message }
  }
  const message = error instanceof Error ? `${error.name}: ${error.message}` : `thrown non-error: ${String(error)}`
  return { failureKind: 'exception', failureMessage: message }
}

function spentBefore(error: AgentFailure): Pick<ClassifiedFailure, 'usage' | 'steps' | 'warnings'> {
  const e = error as AgentFailure & { usage?: Partial<Usage>; steps?: unknown; warnings?: unknown }
  return {
    ...(e.usage && typeof e.usage === 'object' ? { usage: addUsage(emptyUsage(), e.usage) } : {}),
    ...(typeof e.steps === 'number' ? { steps: e.steps } : {}),
    ...(Array.isArray(e.warnings) ? { warnings: e.warnings.map(String) } : {}),
  }
}

