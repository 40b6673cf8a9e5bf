import { checkBudget, type Budget } from '../grading/budget.js'
import { conclude, type MatcherContext, type MatcherOutcome } from './conclude.js'

/** `expect(runResult).toStayWithinBudget({ tokens, usd, calls, quotaUnits })`. */
export function toStayWithinBudget(this: MatcherContext, received: unknown, budget: Budget): MatcherOutcome {
  const { passed, detail } = checkBudget(received as Parameters<typeof checkBudget>[0], budget)
  return conclude(this, 'toStayWithinBudget', {
    passed,
    summary: `budget ${passed ? 'kept' : 'exceeded'}: ${detail}`,
    failureText: detail,
  })
}
