import {
  type CallsOptions,
  type CallToolsOptions,
  checkSteps,
  checkToolCallCount,
  checkToolCalls,
  type ExpectedTool,
  trajectoryOf,
} from '../grading/trajectory.js'
import { concludeGrade, type MatcherContext, type MatcherOutcome } from './conclude.js'

/**
 * The trajectory matchers, applied to `ctx.trajectory()` (an `evalCase` body's trial so far), a RunRecord or a
 * list of tool calls. Each records its verdict on the test like the answer matchers (score 1 or 0).
 */

/** `expect(ctx.trajectory()).toCallTools(['sql', 'answer'], { order, exact })`. */
export function toCallTools(
  this: MatcherContext,
  received: unknown,
  tools: readonly ExpectedTool[],
  opts: CallToolsOptions = {},
): MatcherOutcome {
  return concludeGrade(this, 'toCallTools', checkToolCalls(trajectoryOf(received, 'toCallTools'), tools, opts))
}

/** `expect(ctx.trajectory()).toUseAtMostSteps(6)`: model calls (or the agent's reported steps). */
export function toUseAtMostSteps(this: MatcherContext, received: unknown, n: number): MatcherOutcome {
  return concludeGrade(this, 'toUseAtMostSteps', checkSteps(trajectoryOf(received, 'toUseAtMostSteps'), n))
}

/** `expect(ctx.trajectory()).toUseAtMostCalls(10, { tool: 'sql' })`: tool calls, all or of one tool. */
export function toUseAtMostCalls(
  this: MatcherContext,
  received: unknown,
  n: number,
  opts: CallsOptions = {},
): MatcherOutcome {
  return concludeGrade(
    this,
    'toUseAtMostCalls',
    checkToolCallCount(trajectoryOf(received, 'toUseAtMostCalls'), n, opts),
  )
}
