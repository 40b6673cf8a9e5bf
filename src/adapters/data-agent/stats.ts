import type { FailureKind, Usage } from '../../core/schemas.js'
import { addUsage, emptyUsage } from '../../core/usage.js'
import { ProviderFailure } from '../providers/failure.js'

/** What one question cost: model calls, tool calls by name, tool errors, tokens, quota and cost. */
export interface TurnStats {
  /** Model calls made for this question. */
  steps: number
  /** Tool calls by tool name (known tools only; unknown names count as malformed). */
  toolCalls: Record<string, number>
  /** Tool calls answered with an error: malformed ones and ones the tool refused or could not run. */
  toolErrors: number
  /** Calls with arguments that are not valid JSON, do not fit the tool, or name no tool. */
  malformedToolCalls: number
  /** Replies with no tool call, answered with a reminder to call `answer`. */
  textReplies: number
  usage: Usage
  warnings: string[]
}

export function newTurnStats(): TurnStats {
  return {
    steps: 0,
    toolCalls: {},
    toolErrors: 0,
    malformedToolCalls: 0,
    textReplies: 0,
    usage: emptyUsage(),
    warnings: [],
  }
}

export function countCall(stats: TurnStats, name: string): void {
  stats.toolCalls[name] = (stats.toolCalls[name] ?? 0) + 1
}

export function addStepUsage(stats: TurnStats, usage: Usage): void {
  stats.steps++
  stats.usage = addUsage(stats.usage, usage)
}

/**
 * The counters as RunRecord `metrics` (flat numbers): `toolCalls` in all, `toolCalls.<name>` per tool,
 * `toolErrors`, `malformedToolCalls`, `textReplies`. Steps, tokens, quota and cost have their own fields.
 */
export function statsMetrics(stats: TurnStats): Record<string, number> {
  const metrics: Record<string, number> = {
    toolCalls: Object.values(stats.toolCalls).reduce((a, b) => a + b, 0),
    toolErrors: stats.toolErrors,
    malformedToolCalls: stats.malformedToolCalls,
    textReplies: stats.textReplies,
  }
  for (const name of Object.keys(stats.toolCalls).sort()) metrics[`toolCalls.${name}`] = stats.toolCalls[name]!
  return metrics
}

/** A question that failed (no answer, timeout, rate limit…), still carrying what it spent and its tool counters. */
export class DataAgentFailure extends ProviderFailure {
  override name = 'DataAgentFailure'
  readonly metrics: Record<string, number>
  constructor(kind: FailureKind, message: string, stats: TurnStats) {
    const metrics = statsMetrics(stats)
    super(kind, message, stats.usage, stats.steps, [...new Set(stats.warnings)], metrics)
    this.metrics = metrics
  }
}
