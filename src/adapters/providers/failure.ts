import { AgentFailure } from '../../core/errors.js'
import type { FailureKind, Usage } from '../../core/schemas.js'

/**
 * An AgentFailure that still carries what the run spent before it failed, so reports can count the tokens,
 * quota and cost of failed trials too (a plain AgentFailure would lose them).
 */
export class ProviderFailure extends AgentFailure {
  override name = 'ProviderFailure'
  constructor(
    kind: FailureKind,
    message: string,
    readonly usage: Usage,
    readonly steps: number,
    readonly warnings: string[],
    metrics?: Record<string, number>,
  ) {
    super(kind, message, { usage, steps, warnings, ...(metrics ? { metrics } : {}) })
  }
}
