import type { Aggregate } from '../aggregate.js'
import type { GroupDelta } from '../baseline.js'
import type { GateFailure } from '../gates.js'
import type { ValueCutsSummary } from '../value-cuts.js'

/** What the GitHub renderers read of a finished, gated run: the gate's own results, never re-derived statistics. */
export interface GithubGateView {
  /** The run's groups, in the leaderboard's order. */
  aggregates: readonly Aggregate[]
  /** Every gate failure line, as the gate returned them (the exit code is 1 when there is any). */
  failures: readonly string[]
  /** Lines that do not fail the run (a threshold pattern not checked in a filtered run). */
  notes: readonly string[]
  /** The threshold failures with their group, metric, value and bar (gates.ts's checkThresholds). */
  thresholdFailures: readonly GateFailure[]
  /** Per-group comparison with the baseline (baseline.ts's groupDeltas); empty without a baseline. */
  deltas: readonly GroupDelta[]
  /** Significance level of the baseline comparison. */
  alpha: number
  /** The floor of the baseline comparison, if any. */
  floor: number | null
  /** group → eval file (relative to the repository root) where the runner knows it. */
  files?: ReadonlyMap<string, { file: string; line?: number }>
  /** Link to the uploaded HTML report (DATAFORGE_REPORT_URL), if given. */
  reportUrl?: string | null
  /** What the size policy cut in the run's records (value-cuts.ts's valueCutsOf); null or absent when nothing was. */
  valueCuts?: ValueCutsSummary | null
  /** The `dataforge-evals view DIR --against BASELINE` line that shows each changed run, when both paths are known. */
  viewCommand?: string | null
  /** Heading of the summary, e.g. `dataforge-evals (vitest)`. */
  title?: string
}

/** The group a failure line belongs to, when the gate says so (threshold failures and baseline regressions). */
export function failureGroup(view: GithubGateView, line: string): string | null {
  const threshold = view.thresholdFailures.find((f) => f.message === line)
  if (threshold) return threshold.group
  const delta = view.deltas.find((d) => d.failed && d.message === line)
  return delta ? delta.group : null
}
