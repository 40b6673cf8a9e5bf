/** Pure scoring: repair precision, recall and F1, answer graders, distribution conformance, budgets. */
export * from './repair/index.js'
export * from './answers/index.js'
export { checkBudget, type Budget } from './budget.js'
export * from './conformance/index.js'
export {
  checkSteps,
  checkToolCallCount,
  checkToolCalls,
  trajectoryOf,
  type CallsOptions,
  type CallToolsOptions,
  type ExpectedTool,
  type Trajectory,
} from './trajectory.js'
export { sharedFieldProblem } from './conformance/classify.js'
export { prfSummary } from './repair/prf.js'
export { distinctDabenchLabels } from './answers/dabench.js'
