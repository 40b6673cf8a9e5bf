/** RunRecords to reports: aggregates, comparisons and gates, renderers, the report folder and the run's end. */

export { type Aggregate, aggregate, armName, groupName } from './aggregate.js'
export {
  baselineFromRecords,
  type BaselineOptions,
  type GroupDelta,
  groupDeltas,
  mergeBaseline,
  readBaseline,
  readComparableRuns,
  regressionVerdict,
  renderBaseline,
  baselineRuns,
} from './baseline.js'
export { buildReport, type EvalReport } from './build.js'
export { type ComparableRun, compareRuns, type Comparison } from './compare.js'
export { deltasText, testsText, unitsText, verdictLabel, verdictLine } from './comparison-verdict.js'
export { mergeCorpora } from './corpus.js'
export { seconds, table, fixed, usd } from './figure-text.js'
export { asGateRow } from './gate-groups.js'
export {
  checkThresholds,
  evaluateGates,
  failClosed,
  nothingScored,
  repeatGateFailures,
  unmatchedThresholds,
} from './gates.js'
export { githubOutputPlan, writeGithubOutput } from './github-output.js'
export { esc } from './html/escape.js'
export { type HtmlReportOptions, renderHtmlReport } from './html/index.js'
export { loadVega } from './html/vega-svg.js'
export { buildManifest, MANIFEST_FILE, renderManifest } from './manifest-build.js'
export { type ManifestUse, NEVER_WALKED, verifyDir, writeAddedFile, writeManifest } from './manifest.js'
export { comparisonToJson, renderComparisonMarkdown } from './markdown/compare.js'
export { renderConformanceMarkdown } from './markdown/conformance.js'
export { renderLeaderboard } from './markdown/leaderboard.js'
export { renderMarkdownReport } from './markdown/report.js'
export { renderSummary, type SummarySource } from './markdown/summary.js'
export { writeRunsParquet } from './parquet.js'
export { REPORT_FORMATS, type ReportFormat } from './report-formats.js'
export type { DataforgeReporterOptions, FinishedRun } from './reporter-options.js'
export { projectCommit, projectCommitAsync, type Reproducibility } from './reproducibility.js'
export { TruthReveal } from './reveal-truth.js'
export { endRun, readVersionsAhead, type RunEndHost } from './run-end.js'
export { renderTerminalSummary } from './terminal.js'
export { type Thresholds, type ThresholdSpec, validateThresholds } from './thresholds.js'
export { toolVersion } from './tool-version.js'
export { renderTranscriptsJsonl } from './transcripts-file.js'
export { exportRunTraces } from './tracing/run-traces.js'
export { valueCutsOf } from './value-cuts.js'
export { commitReportFolder, commitReportFolderLocked, legacyRunsOf, renderReportFiles } from './write-report.js'
