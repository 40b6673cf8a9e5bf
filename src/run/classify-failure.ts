import { AgentFailure } from '../core/errors.js'
import type { FailureKind, Usage } from '../core/schemas.js'
import { addUsage, emptyUsage } from '../core/usage.js'
import { sanitizeUsage } from './normalize-output.js'

export interface ClassifiedFailure {
  failureKind: FailureKind
  failureMessage: string
  /** What the run spent before failing, when the failure carries it (`AgentFailure.spent`). */
  usage?: Usage
  steps?: number
  warnings?: string[]
  /** Counters the agent kept before failing (a data agent's tool calls). */
  metrics?: Record<string, number>
}

/**
 * A failure's kind comes from the error's structure (`AgentFailure.kind`, set where it happened), never from its
 * message; anything else thrown is an `exception`. What it spent is checked here, once, for every door: an
 * agent's own code may put anything there.
 */
export function classifyFailure(error: unknown): ClassifiedFailure {
  if (error instanceof AgentFailure)
    return { failureKind: error.kind, failureMessage: error.message, ...checkedSpent(error) }
  const message = error instanceof Error ? `${error.name}: ${error.message}` : `thrown non-error: ${String(error)}`
  return { failureKind: 'exception', failureMessage: message }
}

function checkedSpent({ spent }: AgentFailure): Pick<ClassifiedFailure, 'usage' | 'steps' | 'warnings' | 'metrics'> {
  const metrics =
    spent.metrics && typeof spent.metrics === 'object'
      ? Object.fromEntries(
          Object.entries(spent.metrics).filter(
            (kv): kv is [string, number] => typeof kv[1] === 'number' && Number.isFinite(kv[1]),
          ),
        )
      : null
  return {
    ...(metrics ? { metrics } : {}),
    ...(spent.usage && typeof spent.usage === 'object'
      ? { usage: addUsage(emptyUsage(), sanitizeUsage(spent.usage)) }
      : {}),
    ...(typeof spent.steps === 'number' && Number.isInteger(spent.steps) && spent.steps >= 0
      ? { steps: spent.steps }
      : {}),
    ...(Array.isArray(spent.warnings) ? { warnings: spent.warnings.map(String) } : {}),
  }
}
