import type { GradeResult } from '../core/answer.js'
import type { MatcherRecord } from '../test-meta/build.js'
import { capVerdict } from '../test-meta/cap.js'
import { currentMeta, recordVerdict } from './recorder.js'

/** The parts of a runner's matcher state (`expect.extend`'s `this`) the matchers use. */
export interface MatcherContext {
  /** True under `.not`; Vitest leaves it undefined otherwise. */
  isNot?: boolean
  /** Vitest: the test the assertion is bound to (a test's local `expect` knows it even under `.concurrent`). */
  task?: unknown
}

export interface MatcherOutcome {
  pass: boolean
  message: () => string
}

/**
 * Stores the verdict on the running test (through the runner's recorder) and shapes the matcher result. `pass` is the
 * grader's verdict; Vitest inverts it for `.not`, and the stored `passed` is the assertion's final outcome.
 */
export function conclude(
  ctx: MatcherContext,
  matcher: string,
  verdict: {
    passed: boolean
    summary: string
    failureText: string | (() => string)
    score?: number
    repair?: MatcherRecord['repair']
  },
): MatcherOutcome {
  const negated = ctx.isNot === true
  // Cut by the size policy here, in the worker: what is stored on the test crosses to the reporter.
  // Set, not spread into the literal: a verdict is stored for every assertion, and crosses to the reporter.
  const stored: MatcherRecord = {
    matcher,
    passed: negated ? !verdict.passed : verdict.passed,
    negated,
    summary: verdict.summary,
  }
  if (verdict.score !== undefined) stored.score = verdict.score
  if (verdict.repair) stored.repair = verdict.repair
  const record = capVerdict(stored, () => currentMeta(ctx.task))
  recordVerdict(record, ctx.task)
  return {
    pass: verdict.passed,
    message: () =>
      negated
        ? `${matcher}: expected the grader to reject, but it passed: ${verdict.summary}`
        : `${matcher}: ${typeof verdict.failureText === 'function' ? verdict.failureText() : verdict.failureText}`,
  }
}

/**
 * For answer graders: the one-line detail is both the summary and the failure text. The summary says whether
 * the assertion held (`not.toBeNumeric passed: …` when the grader rejected, as `.not` asked).
 */
export function concludeGrade(ctx: MatcherContext, matcher: string, result: GradeResult): MatcherOutcome {
  const negated = ctx.isNot === true
  const held = negated ? !result.passed : result.passed
  return conclude(ctx, matcher, {
    passed: result.passed,
    summary: `${negated ? 'not.' : ''}${matcher} ${held ? 'passed' : 'failed'}: ${result.detail}`,
    failureText: result.detail,
    score: result.score ?? (result.passed ? 1 : 0),
  })
}
