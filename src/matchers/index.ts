import { toBeNumeric, toContainAnswer, toEqualTable, toExactlyEqual, toPass, toProduceChart, toRefuse } from './answers.js'
import { toStayWithinBudget } from './budget.js'
import { toMatchDistribution } from './distribution.js'
import { toRepairCells } from './repair.js'

/** Every dataforge matcher, ready for `expect.extend`. */
export const dataforgeMatchers = {
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
}

export type { RepairThresholds } from './repair.js'
export type { DistributionMatcherOptions } from './distribution.js'
export { repairSummary } from './repair.js'
