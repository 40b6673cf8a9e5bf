import type { EvalReport } from './build.js'

/**
 * How every leaderboard ranks repair groups (`leaderboardOrder`), said before its Score rule with a space after;
 * empty for a report without repair runs.
 */
export function repairRank(report: Pick<EvalReport, 'aggregates'>): string {
  return report.aggregates.some((a) => a.repairRuns > 0)
    ? 'Repair groups rank by mean F1 (with its 95% interval) within their dataset. '
    : ''
}

/** How Score was decided: a column header, a short name, and a legend in Markdown (inline code in backticks). */
export interface ScoreRule {
  header: string
  short: string
  legend: string
}

/**
 * How Score was decided, which depends on the front door that produced the runs (`config.command`): every
 * renderer states this rule, never one door's rule for another's report.
 */
export function scoreRule(report: EvalReport): ScoreRule {
  const command = report.config.command
  if (command === 'vitest' || command === 'jest') {
    return {
      header: 'Score: assertions held [95% CI]',
      short: 'assertions held',
      legend:
        "Score is the share of attempted runs whose assertions held: in an eval file a run is correct when the eval's assertions passed " +
        '(the bars given to its matchers, e.g. `toRepairCells(task, { minF1: 0.6 })`; a floor registered with `evalCase.fails` is expected ' +
        'to miss them, so its test passes while its runs count as not correct), so Score ranks only agents held to the same bars; for repair, read F1.',
    }
  }
  if (command === 'qa') {
    return {
      header: 'Score: correct [95% CI]',
      short: 'correct',
      legend:
        "Score is the share of attempted runs judged correct: a question run is correct when the suite's answer grader accepted its answer.",
    }
  }
  if (command !== 'run') {
    // Other front doors state their own rule in `config.scoreRule`.
    const rule =
      typeof report.config.scoreRule === 'string'
        ? report.config.scoreRule
        : 'a run is correct when its grader passed it'
    return {
      header: 'Score: correct [95% CI]',
      short: 'correct',
      legend: `Score is the share of attempted runs judged correct: ${rule}.`,
    }
  }
  const passF1 = typeof report.config.passF1 === 'number' ? report.config.passF1 : 1
  return {
    header: `Score: F1 ≥ ${passF1} [95% CI]`,
    short: `F1 ≥ ${passF1}`,
    legend: `Score is the share of attempted runs whose F1 reached \`--pass-f1\` (${passF1}).`,
  }
}

/**
 * Whether the run had a price map (`config.priced`, set by the CLI from `--prices` or `DATAFORGE_PRICES`);
 * undefined when the report does not say (the reporters, older reports).
 */
export function pricedOf(report: Pick<EvalReport, 'config'>): boolean | undefined {
  return typeof report.config.priced === 'boolean' ? report.config.priced : undefined
}

/**
 * True when the report's door runs repair tasks only (the CLI's `run`): its runs are repairs even when every
 * trial failed before scoring, so no renderer reads them as questions.
 */
export function isRepairReport(report: Pick<EvalReport, 'config'>): boolean {
  return report.config.command === 'run'
}
