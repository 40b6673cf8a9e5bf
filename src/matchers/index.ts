/** The `expect.extend` matchers: each grades, concludes pass or fail, and records on the current test. */
import { checkMatcherOptions } from '../cases/check-options.js'
import {
  toBeNumeric,
  toContainAnswer,
  toEqualTable,
  toExactlyEqual,
  toPass,
  toProduceChart,
  toRefuse,
} from './answers.js'
import { toStayWithinBudget } from './budget.js'
import { toMatchDistribution } from './distribution.js'
import { toRepairCells } from './repair.js'
import { toCallTools, toUseAtMostCalls, toUseAtMostSteps } from './trajectory.js'
import { toAvoidSnapshotTrap } from './snapshot-trap.js'

/** Every dataforge matcher, ready for `expect.extend`; an unknown option (a typo) is an error naming it. */
export const dataforgeMatchers = checkingOptions({
  toRepairCells,
  toBeNumeric,
  toContainAnswer,
  toExactlyEqual,
  toEqualTable,
  toRefuse,
  toProduceChart,
  toPass,
  toStayWithinBudget,
  toMatchDistribution,
  toCallTools,
  toUseAtMostSteps,
  toUseAtMostCalls,
  toAvoidSnapshotTrap,
})

function checkingOptions<T extends Record<string, (this: never, ...args: never[]) => unknown>>(matchers: T): T {
  const out: Record<string, unknown> = {}
  for (const [name, fn] of Object.entries(matchers)) {
    out[name] = function (this: unknown, ...args: unknown[]) {
      checkMatcherOptions(name, args)
      return (fn as (...a: unknown[]) => unknown).apply(this, args)
    }
  }
  return out as T
}

export type { DataforgeMatchers } from './types.js'
export { currentMeta, installCurrentTestAccess } from './recorder.js'
