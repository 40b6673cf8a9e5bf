/** Jest's door (`dataforge-evals/jest`): evalCase(), conversation(), qaSuite() and the matchers' types. */
import { installSetupCheck } from './setup-check.js'

export type { DataforgeJestMatchers, DataforgeMatchers } from './augment.js'
export { dataforgeMatchers } from '../matchers/index.js'
export type { MatcherRecord } from '../test-meta/build.js'
export type { CallsOptions, CallToolsOptions, ExpectedTool, Trajectory } from '../grading/trajectory.js'
export { evalCase } from './eval-case.js'
export { conversation, type JestTurn as Turn } from './conversation.js'
export { qaSuite } from './qa-suite.js'
export type { QaSuiteRunOptions } from '../cases/qa-turns.js'
export { trialTestName } from '../cases/eval-trial.js'
export type {
  BoundAgent,
  DatasetOption,
  EvalCaseOptions,
  EvalTrialContext as EvalCaseContext,
  TaskSource,
} from '../cases/eval-trial.js'
export type { ConversationOptions } from '../cases/conversation-turns.js'
export type { DataInput } from '../cases/data-input.js'
export type { DataAgent, DataSession } from '../core/data-agent.js'

installSetupCheck()
