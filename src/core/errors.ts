import type { FailureKind } from './schemas.js'

/**
 * Bad usage or bad input: the CLI prints the message on one line and exits 2.
 * Messages name the file, row, column or field at fault.
 */
export class InputError extends Error {
  override name = 'InputError'
}

/**
 * A run that failed in a known way (timeout, rate limit, parse failure, refusal…).
 * Agents and adapters throw it; the runner records `kind` and `message` instead of a score.
 */
export class AgentFailure extends Error {
  override name = 'AgentFailure'
  constructor(
    readonly kind: FailureKind,
    message: string,
  ) {
    super(message)
  }
}
