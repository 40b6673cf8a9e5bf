/** Why a run produced no score. Kept apart from repair diagnostics in every report. */
export const FAILURE_KINDS = [
  'timeout',
  'exception',
  'invalid_output',
  'parse_failure',
  'refusal',
  'rate_limited',
  'provider_error',
  'cache_miss',
  'skipped',
  /** An isolated agent's process exited (any code) while a trial or question was pending. */
  'agent_exit',
  /** An isolated agent's process died of a signal, or its code threw outside any request (a timer, a rejection). */
  'agent_crash',
  /** An isolated agent's process ran out of heap (`--max-old-space-size`). */
  'out_of_memory',
  /** A tool-using agent ended its steps without calling its answer tool. */
  'no_answer',
  /** The model gateway refused a call that would pass the trial's budget (tokens, USD or calls). */
  'budget_exceeded',
  /** The agent sent the model gateway a request it cannot serve (malformed body, unknown path, too many connections). */
  'invalid_request',
] as const
export type FailureKind = (typeof FAILURE_KINDS)[number]

const KNOWN: ReadonlySet<string> = new Set(FAILURE_KINDS)

/** A failure kind from free text (adapters, meta): known kinds as they are, anything else is an `exception`. */
export function toFailureKind(kind: string): FailureKind {
  return KNOWN.has(kind) ? (kind as FailureKind) : 'exception'
}
