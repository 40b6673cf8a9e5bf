import type { DatasetInfo } from '../core/dataset-info.js'
import type { Transcript } from '../core/transcript.js'
import type { RunRecord } from '../core/run-record.js'
import type { BaselineOptions } from './baseline.js'
import type { GithubSetting } from './github/plan.js'
import type { ReportFormat } from './report-formats.js'
import type { projectCommit } from './reproducibility.js'
import type { Thresholds } from './thresholds.js'

// What a run's end needs from a reporter: its options and the finished run. The reporters (src/reporter/) fill them.

export interface DataforgeReporterOptions {
  /** Where leaderboard.md, report.json, runs.jsonl and manifest.json go. Default `evals/__reports__`. */
  outputDir?: string
  /** Group gates, e.g. `{ 'hospital*': { f1: 0.6 }, '*': { passRate: 0.9 } }`. */
  thresholds?: Thresholds
  /** Baseline comparison; `false` turns it off. Default: `<outputDir>/baseline.json` when it exists. */
  baseline?: false | (BaselineOptions & { path?: string })
  /** Which files to write (`REPORT_FORMATS`: markdown, json, jsonl, html). Default all: leaderboard.md, report.json, runs.jsonl, report.html. */
  formats?: ReportFormat[]
  /** Seed of the bootstrap intervals. Default 0. */
  statsSeed?: number
  /** Print the compact leaderboard after each run. Default true. */
  print?: boolean
  /**
   * Which test files are evals. Default: files named `*.eval.*` or inside an `evals/` folder. Runs with no
   * eval file (e.g. `vitest run test/`) leave the reporter silent; eval files with no executed eval fail closed.
   */
  evalFiles?: RegExp[]
  /** Repeat gate: every case must be correct in at least this many of its trials. */
  minPassesPerCase?: number
  /**
   * GitHub Actions output (job summary, `::error`/`::warning` annotations, `pr-comment.md`): `true` on, `false` off;
   * default (or `{ reportUrl }`) on when `GITHUB_ACTIONS=true`. `reportUrl` links the comment to the uploaded HTML
   * report (else `DATAFORGE_REPORT_URL`).
   */
  github?: GithubSetting
  /**
   * OpenTelemetry traces of the run: a file path (OTLP/JSON lines) or an http(s) receiver (`…/v1/traces`). Default
   * `DATAFORGE_OTEL`; none: nothing of OpenTelemetry loads. See docs/tracing.md.
   */
  otel?: string
}

/** One run's RunRecords and what the report needs to know about the run. */
export interface FinishedRun {
  records: RunRecord[]
  datasets: DatasetInfo[]
  runDateUtc: string
  project: ReturnType<typeof projectCommit>
  /** Groups that executed in this run (watch mode's deltas against the previous run). */
  touched: ReadonlySet<string>
  /** Some eval of the project did not run (a name, file or shard filter). */
  filtered: boolean
  command: string
  /** group → the eval file it ran in (relative to the root), for annotations; where the runner knows it. */
  sources?: ReadonlyMap<string, { file: string; line?: number }>
  /** The transcripts the records name (`transcriptId`): the report folder's transcripts.jsonl. */
  transcripts?: readonly Transcript[]
}
