/** What both runner doors share: the trial around an agent, conversation turns, question plans, option checks. */

export { checkEvalCaseArgs, checkMatcherOptions } from './check-options.js'
export {
  type ConversationOptions,
  conversationSession,
  turnTestName,
  turnRunnerTimeoutMs,
} from './conversation-turns.js'
export { type DataInput, normalizeData, recordsToTable } from './data-input.js'
export {
  type BoundAgent,
  caseAgent,
  type DatasetOption,
  DEFAULT_TRIAL_TIMEOUT_MS,
  type EvalCaseOptions,
  type EvalTrialContext,
  runTrial,
  type TaskSource,
  trialMeta,
  trialTestName,
  specIdentity,
} from './eval-trial.js'
export {
  qaCases,
  qaCasesNow,
  qaPlan,
  type QaSuiteInput,
  type QaSuiteRunOptions,
  qaTurnMeta,
  resolveQaAgent,
  runQaTurn,
} from './qa-turns.js'
