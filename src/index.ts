export * from './core/schemas.js'
export * from './core/agent.js'
export * from './core/answer.js'
export * from './core/dataset-info.js'
export * from './core/repair-score.js'
export * from './core/run-record.js'
export { InputError, AgentFailure } from './core/errors.js'
export { canonicalJson, sha256Hex, hashOf } from './core/hash.js'
export { Random } from './core/random.js'
export { deepFreeze } from './core/freeze.js'
export { costPerCorrectFix, tokensSpentAndSaved } from './core/usage.js'
export type { Correction } from './core/ground-truth.js'
export * from './datasets/index.js'
export * from './grading/index.js'
export * from './stats/index.js'
export * from './adapters/providers/index.js'
export type { DataAgent, DataSession } from './core/data-agent.js'
export { noopAgent } from './adapters/noop.js'
export { createMockQaAgent, type ScriptedAnswer } from './adapters/mock-qa.js'
export * from './adapters/data-agent/index.js'
export { baselineAgent, createBaselineAgent } from './adapters/baseline/index.js'
export { resolveAgent, listAgents, type AgentListing } from './adapters/registry.js'
export { loadAgentModule } from './adapters/load-agent-module.js'
export { runEvaluation, type EvaluationPlan } from './run/run-evaluation.js'
export { runRepairTrial } from './run/run-repair-trial.js'
export { buildRunRecord } from './core/build-run-record.js'
export { buildReport, type EvalReport } from './report-builder/build.js'
export { aggregate, type Aggregate } from './report-builder/aggregate.js'
export { renderMarkdownReport } from './report-builder/markdown/report.js'
export { renderLeaderboard } from './report-builder/markdown/leaderboard.js'
export { renderHtmlReport, type HtmlReportOptions } from './report-builder/html/index.js'
export { checkThresholds, evaluateGates, failClosed, unmatchedThresholds } from './report-builder/gates.js'
export type { Thresholds, ThresholdSpec } from './report-builder/thresholds.js'
export { compareRuns, type Comparison } from './report-builder/compare.js'
export { comparisonToJson, renderComparisonMarkdown } from './report-builder/markdown/compare.js'
export {
  baselineFromRecords,
  mergeBaseline,
  readBaseline,
  regressionVerdict,
  renderBaseline,
} from './report-builder/baseline.js'
export { readRunRecords } from './files/read-runs.js'
export { writeManifest, verifyDir } from './report-builder/manifest.js'
export { createRepairTask } from './datasets/create-repair-task.js'
export * from './datasets/questions/index.js'
export { loadWtq, BUNDLED_WTQ_DIR, type WtqExample, type WtqLoadOptions } from './datasets/wtq/load.js'
export { wtqSuite, wtqCase } from './datasets/wtq/suite.js'
export { parseWtqCsv } from './datasets/wtq/table-csv.js'
export {
  loadDabench,
  BUNDLED_DABENCH_DIR,
  type DabenchQuestion,
  type DabenchLoadOptions,
} from './datasets/dabench/load.js'
export { dabenchSuite, dabenchCase, dabenchPrompt } from './datasets/dabench/suite.js'
export { parseDabenchCsv } from './datasets/dabench/table-csv.js'
export {
  dabenchSummaries,
  type DabenchSummary,
  type DabenchScores,
  type DabenchRate,
} from './datasets/dabench/scores.js'
export { tsvUnescape, tsvUnescapeList } from './datasets/wtq/tsv.js'
export { resolveDataAgent, resolveDataAgentSpec, DATA_AGENTS, type DataAgentOptions } from './adapters/data-agents.js'
export { createModelQaAgent, createProviderQaAgent, parseModelAnswer, renderTables } from './adapters/model-qa.js'
export { runQaTrial, QaTrialSession } from './run/run-qa-trial.js'
export * from './isolation/protocol.js'
export { startIsolatedAgent, type IsolatedAgent, type IsolationOptions } from './isolation/isolated-agent.js'
export { resolveCustomDataAgent, closeAgent, builtInAgentNames, type AgentSpec } from './adapters/registry.js'
export { modelClassifier, type ModelClassifierOptions } from './adapters/model-classifier.js'
export { renderConformanceMarkdown } from './report-builder/markdown/conformance.js'
