import type { EvalReport } from '../report-builder/build.js'
import { repeatGateFailures } from '../report-builder/gates.js'
import { parseIntegerFlag } from './flags.js'
import type { CliIO } from './io.js'
import { terminalText } from '../core/escape-text.js'

/** `--min-passes K` as `run` and `qa` take it: absent, or a whole number ≥ 1. */
export function parseMinPasses(raw: string | undefined): number | undefined {
  return raw === undefined ? undefined : parseIntegerFlag('min-passes', raw, 1, { min: 1 })
}

/**
 * `--min-passes` of `run` and `qa`, once the reports are written: prints the repeat gate's verdict (each case
 * that missed the bar on its own line) and returns the exit code, 1 when any case missed it.
 */
export function repeatGateExit(
  report: Pick<EvalReport, 'cases'>,
  minPasses: number,
  io: Pick<CliIO, 'stderr'>,
): number {
  const failures = repeatGateFailures(report, minPasses)
  if (failures.length === 0) {
    const which = report.cases.length === 1 ? 'the one case' : `all ${report.cases.length} cases`
    io.stderr(
      `repeat gate passed: ${which} correct in at least ${minPasses} of ${report.cases.length === 1 ? 'its' : 'their'} trials\n`,
    )
    return 0
  }
  for (const failure of failures) io.stderr(`gate failed: ${terminalText(failure)}\n`)
  return 1
}
