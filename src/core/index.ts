/** The shared words: schemas and types, the record builder, the label wall, errors, hashes and ordering. */

export type { IsolationInfo, RepairAgent, RunContext } from './agent.js'
export { type Answer, AnswerSchema, type Grader, type GradeResult } from './answer.js'
export { type Budget, BUDGET_FIELDS, readBudget } from './budget.js'
export { buildRunRecord, type RecordOutcome, type RecordProvenance, withoutCleanValues } from './build-run-record.js'
export { caseLabel } from './case-label.js'
export type { DataAgent, DataSession } from './data-agent.js'
export { dataRecordSchema } from './data-record-schema.js'
export { dataRecord, ownValue } from './data-record.js'
export { type DatasetInfo, DatasetInfoSchema, type FileDigest } from './dataset-info.js'
export { DATASET_ORIGINS, DIGEST_OF, digestOfLabel, type ReportDigestOf } from './digest-of.js'
export { AgentFailure, InputError } from './errors.js'
export {
  markdownCell,
  markdownCellStructure,
  markdownCode,
  markdownText,
  terminalLines,
  terminalOutput,
  terminalText,
} from './escape-text.js'
export { compileExactCheck } from './exact-check.js'
export { toFailureKind } from './failure-kind.js'
export { deepFreeze } from './freeze.js'
export {
  type Correction,
  createTask,
  diffTables,
  type GroundTruth,
  groundTruthOf,
  revealTruth,
  truthReveals,
} from './ground-truth.js'
export { groupBy } from './group-by.js'
export { canonicalJson, hashOf, sha256Hex, sha256Incremental, tablesJsonSha256 } from './hash.js'
export { isPlainObject } from './is-plain-object.js'
export { IsolationInfoSchema } from './isolation-info.js'
export { checkJsonDepth } from './json-depth.js'
export { LlmMetaSchema } from './llm-schema.js'
export type { LlmAccess, LlmCall } from './llm.js'
export { compareText, sortedEntries, sortedRecord } from './order.js'
export { Random } from './random.js'
export { realClearTimeout, realNow, realSetImmediate, realSetTimeout } from './real-timers.js'
export { type DataBounds, recordProblems } from './record-checks.js'
export { recordJson } from './record-json.js'
export {
  type CellIssue,
  type PRF,
  type RepairDiagnostics,
  type RepairScore,
  RepairScoreSchema,
} from './repair-score.js'
export { RUN_RECORD_VERSION, type RunRecord, RunRecordSchema } from './run-record.js'
export {
  type AgentRunResult,
  type AgentTask,
  AgentTaskSchema,
  type FailureKind,
  type Fix,
  type Table,
  TableSchema,
  type Usage,
  UsageSchema,
} from './schemas.js'
export { scored } from './scored.js'
export { tableProblem } from './table-check.js'
export { oneLine, truncate } from './text.js'
export { type AgentToolNote, buildTranscript, toolCallsOf } from './transcript-build.js'
export {
  agentIdentity,
  type AgentIdentity,
  trialIdentity,
  type TrialIdentity,
  type TrialIdentityInput,
} from './trial-identity.js'
export { type RecordToolCall, type Transcript, type TranscriptCall, TranscriptSchema } from './transcript.js'
export { trialLabel } from './trial-label.js'
export {
  addUsage,
  addUsageInPlace,
  costPerCorrectFix,
  emptyUsage,
  isZeroUsage,
  sumUsage,
  tokensSpentAndSaved,
  USAGE_FIELDS,
} from './usage.js'
export { capRepairScore, cutField, MAX_VALUE_CHARS, ValueCuts } from './value-cap.js'
export * from './agent.js'
export * from './answer.js'
export * from './dataset-info.js'
export * from './repair-score.js'
export * from './run-record.js'
export * from './schemas.js'
