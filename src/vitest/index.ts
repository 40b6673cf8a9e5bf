/** Vitest's door (`dataforge-evals/vitest`): evalCase(), conversation(), qaSuite() and the matchers' setup. */
import './install-recorder.js'

export { evalCase, trialTestName } from './eval-case.js'
export type { EvalCaseOptions, EvalCaseContext, BoundAgent, DatasetOption, TaskSource } from './eval-case.js'
export { conversation } from './conversation.js'
export type { ConversationOptions, Turn } from './conversation.js'
export { normalizeData, recordsToTable, type DataInput } from '../cases/data-input.js'
// Also exported by the package root; from here an eval file's workers load no more than this entry (no zod).
export { createRepairTask } from '../datasets/create-repair-task.js'
export { recordMetric as record } from './current.js'
export type { DataforgeMeta, MatcherRecord } from './meta.js'
export type { CallsOptions, CallToolsOptions, ExpectedTool, Trajectory } from '../grading/trajectory.js'
export type { DataforgeAssertion, DataforgeMatchers, VitestAssertion } from './augment.js'
export { dataforgeMatchers } from '../matchers/index.js'
export { createMockQaAgent, type ScriptedAnswer } from '../adapters/mock-qa.js'
export type { DataAgent, DataSession } from '../core/data-agent.js'

/** The agent named by `DATAFORGE_AGENT` (e.g. groq-llama-70b or ./my-agent.ts), else the fallback. */
export function agentFromEnv(opts: { fallback: string }): string {
  const fromEnv = process.env.DATAFORGE_AGENT?.trim()
  return fromEnv ? fromEnv : opts.fallback
}
export { qaSuite, type QaSuiteRunOptions } from './qa-suite.js'
export type {
  QaCase,
  QaTurn,
  QaSuite,
  QaSuiteOptions,
  SingleQaCase,
  ConversationQaCase,
} from '../datasets/questions/types.js'
