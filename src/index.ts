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
// Named one by one: a folder's index.ts also lists what the other folders take from it, not all of it public.
export {
  CANONICAL_DATASETS,
  CANONICAL_UPSTREAM,
  type CanonicalDataset,
  type CanonicalFile,
  type CanonicalName,
  CORRUPTION_KINDS,
  type CorruptionKind,
  csvDigest,
  csvDigestPair,
  DatasetDownloadError,
  type DatasetListing,
  type DatasetRequest,
  DEFAULT_DATASETS_BASE_URL,
  detectIdColumns,
  generateSynthetic,
  listDatasets,
  loadDataset,
  type LoadedDataset,
  NULL_PLACEHOLDERS,
  parseCsvStrict,
  pullDataset,
  type PullOptions,
  readCsvTable,
  resolveDataDir,
  SYNTHETIC_COLUMNS,
  SYNTHETIC_DEFAULTS,
  SYNTHETIC_GENERATOR_VERSION,
  SYNTHETIC_MAX_ROWS,
  SYNTHETIC_SOURCE,
  type SyntheticOptions,
  toCsv,
} from './datasets/index.js'
export {
  allOf,
  ANSWER_MARKERS,
  type AnswerNumber,
  answerNumberFromText,
  anyOf,
  type AsyncGrader,
  type Budget,
  type CallsOptions,
  type CallToolsOptions,
  type ChartOptions,
  chartProduced,
  checkBars,
  checkBudget,
  checkDenotation,
  checkSteps,
  checkToolCallCount,
  checkToolCalls,
  checkVegaLite,
  type Classifier,
  type ClassifyFunction,
  type ClassifyOption,
  type Comparator,
  comparatorByName,
  CONFORMANCE_SCORE_METRIC,
  type ConformanceBars,
  type ConformanceEvaluation,
  conformanceMetrics,
  type ConformanceOptions,
  type ConformanceProperty,
  type ConformanceSpec,
  type ConformanceStatus,
  conformanceSummary,
  conformanceVerdict,
  type ConformanceVerdict,
  contains,
  type ContainsOptions,
  dabenchAnswer,
  dabenchEqual,
  type DabenchLabel,
  dabenchResponsePairs,
  type DistributionAnalysis,
  evaluateConformance,
  evaluateConformanceSync,
  exact,
  exactComparator,
  type ExpectedTool,
  extractDabenchBlocks,
  extractNumbers,
  type FieldRule,
  findNumbers,
  gradeAgainstTruth,
  gradeRepair,
  type GradeRepairOptions,
  isConformanceRecord,
  type LabelDeviation,
  type ModelClassifier,
  type ModelLabel,
  normalizeWtq,
  type NumberMatch,
  type NumberOptions,
  numeric,
  type NumericOptions,
  parseNumber,
  parsePythonFloat,
  parseWtqDate,
  parseWtqNumber,
  predictedItems,
  prf,
  type PropertyInfo,
  rahaComparator,
  readConformanceMetrics,
  type RecordedConformance,
  type RecordedProperty,
  REFUSAL_PHRASES,
  refuses,
  type ResolvedSpec,
  resolveSpec,
  type RulesDescription,
  rulesSchema,
  type RulesSummary,
  runConformance,
  type Sample,
  type SampleClassification,
  type SampleRules,
  SHARE_SUM_TOLERANCE,
  type SpecCheck,
  type SyncGrader,
  tableEquals,
  type TableEqualsOptions,
  toWtqValue,
  toWtqValueList,
  type Trajectory,
  trajectoryOf,
  vegaLiteNames,
  type VegaLiteNames,
  wtqAnswer,
  type WtqTarget,
  type WtqValue,
  wtqValuesMatch,
} from './grading/index.js'
export {
  assignUnits,
  binomialHalfCdf,
  bootstrapMeanInterval,
  type BootstrapOptions,
  caseTrialStats,
  type CaseTrialStats,
  chiSquareGoodnessOfFit,
  chiSquareSurvival,
  chiSquareSurvival1,
  choose,
  clusterBootstrapMeanInterval,
  type ClusteredMeanInterval,
  clusteredProportion,
  type ClusteredProportion,
  clusterRobustMean,
  type ClusterRobustMean,
  clusterTMeanInterval,
  erfc,
  EXACT_MULTINOMIAL_MAX_OUTCOMES,
  exactMultinomialTest,
  flakyCases,
  formatDelta,
  formatInterval,
  formatNumber,
  formatP,
  formatSeconds,
  formatSigned,
  goodnessOfFit,
  type GoodnessOfFit,
  holmAdjust,
  incompleteBeta,
  type IntervalMethod,
  largestRemainder,
  logGamma,
  mcnemar,
  MCNEMAR_EXACT_MAX,
  mcnemarDropPower,
  mcnemarMde,
  type McNemarResult,
  mean,
  type MeanInterval,
  meanOrNull,
  minimumDetectableEffect,
  multinomialOutcomeCount,
  normalQuantile,
  type OutcomeSummary,
  pairedBootstrap,
  type PairedBootstrapResult,
  pairedPermutationTest,
  pairedPower,
  type PairedTestOptions,
  type PairedTestResult,
  pairsNeeded,
  passAtK,
  passHatK,
  PERMUTATION_EXACT_MAX_N,
  type Power,
  type ProportionInterval,
  quantileSorted,
  repeatGate,
  type RepeatGateResult,
  sampleSd,
  signFlipMde,
  signFlipTest,
  smallestReachableP,
  stars,
  type SummarizeOptions,
  summarizeOutcomes,
  tCdf,
  tQuantile,
  tTestPower,
  TWO_SAMPLE_EXACT_MAX_SPLITS,
  twoSamplePermutationTest,
  type TwoSampleResult,
  twoSampleSmallestP,
  type UnitKind,
  type UnitRow,
  unitsNeeded,
  unitsText,
  type UnitSummary,
  upperGammaQ,
  wilsonInterval,
  Z_95,
} from './stats/index.js'
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
