import type { TopLevelSpec } from 'vega-lite'
import { scoreF1Form } from './charts.js'
import { CHART_WIDTHS } from './figure.js'
import { prepareCharts } from './vega-svg.js'

/** The forms of the charts every report with results draws: the Score chart with F1 (repair runs) and without. */
export const COMMON_CHART_FORMS: readonly TopLevelSpec[] = [scoreF1Form(['Score', 'F1']), scoreF1Form(['Score'])]

/**
 * Compiles the common charts ahead, at the width drawn first, so the report's end only draws them: a reporter
 * calls it while the tests run.
 */
export function prepareReportCharts(): Promise<void> {
  return prepareCharts(COMMON_CHART_FORMS, CHART_WIDTHS.wide)
}
