import type { FailureKind, Usage } from './schemas.js'

/**
 * Bad usage or bad input: the CLI prints the message on one line and exits 2.
 * Messages name the file, row, column or field at fault.
 */
export class InputError extends Error {
  override name = 'InputError'
}

/** What a run spent before it failed, so reports count the tokens, cost and steps of failed trials too. */
interface Spent {
  usage?: Partial<Usage>
  steps?: number
  warnings?: string[]
  /** Counters the agent kept before failing (a data agent's tool calls). */
  metrics?: Record<string, number>
}

/**
 * A run that failed in a known way (timeout, rate limit, parse failure, refusal…). Agents and adapters throw it
 * with its kind set where the failure happens; the runner records `kind`, `message` and what the run `spent`
 * instead of a score.
 */
export class AgentFailure extends Error {
  override name = 'AgentFailure'
  constructor(
    readonly kind: FailureKind,
    message: string,
    readonly spent: Spent = {},
  ) {
    super(message)
  }
}
