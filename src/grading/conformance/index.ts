export {
  evaluateConformance,
  evaluateConformanceSync,
  runConformance,
  type ConformanceEvaluation,
  type ConformanceOptions,
  type ConformanceStatus,
  type SampleClassification,
} from './evaluate.js'
export {
  resolveSpec,
  SHARE_SUM_TOLERANCE,
  type ConformanceProperty,
  type ConformanceSpec,
  type ResolvedSpec,
} from './spec.js'
export { rulesSchema, type FieldRule, type RulesDescription, type SampleRules } from './rules.js'
export type {
  Classifier,
  ClassifyFunction,
  ClassifyOption,
  ModelClassifier,
  ModelLabel,
  PropertyInfo,
  Sample,
} from './classify.js'
export type { DistributionAnalysis, LabelDeviation } from './analysis.js'
export type { RulesSummary } from './explanation.js'
export {
  checkBars,
  conformanceSummary,
  conformanceVerdict,
  type ConformanceBars,
  type ConformanceVerdict,
} from './bars.js'
export {
  conformanceMetrics,
  CONFORMANCE_SCORE_METRIC,
  isConformanceRecord,
  readConformanceMetrics,
  type RecordedConformance,
  type RecordedProperty,
} from './metrics.js'
