import type { GradeResult } from '../core/answer.js'
import { recordMatcher } from '../vitest/current.js'
import type { MatcherRecord } from '../vitest/meta.js'

export interface MatcherContext {
  isNot: boolean
}

export interface MatcherOutcome {
  pass: boolean
  message: () => string
}

/**
 * Stores the verdict on the running test (meta + annotation) and shapes the matcher result. `pass` is the
 * grader's verdict; Vitest inverts it for `.not`, and the stored `passed` is the assertion's final outcome.
 */
export function conclude(
  ctx: MatcherContext,
  matcher: string,
  verdict: { passed: boolean; summary: string; failureText: string; score?: number; repair?: MatcherRecord['repair'] },
): MatcherOutcome {
  recordMatcher({
    matcher,
    passed: ctx.isNot ? !verdict.passed : verdict.passed,
    negated: ctx.isNot,
    summary: verdict.summary,
    ...(verdict.score !== undefined ? { score: verdict.score } : {}),
    ...(verdict.repair ? { repair: verdict.repair } : {}),
  })
  return {
    pass: verdict.passed,
    message: () =>
      ctx.isNot ? `${matcher}: expected the grader to reject, but it passed: ${verdict.summary}` : `${matcher}: ${verdict.failureText}`,
  }
}

/** For answer graders: the one-line detail is both the summary and the failure text. */
export function concludeGrade(ctx: MatcherContext, matcher: string, result: GradeResult): MatcherOutcome {
  return conclude(ctx, matcher, {
    passed: result.passed,
    summary: `${matcher} ${result.passed ? 'passed' : 'failed'}: ${result.detail}`,
    failureText: result.detail,
    score: result.score ?? (result.passed ? 1 : 0),
  })
}
