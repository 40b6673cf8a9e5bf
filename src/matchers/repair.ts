import { withoutCleanValues } from '../core/build-run-record.js'
import { withSharedParts } from '../test-meta/shared-parts.js'
import { InputError } from '../core/errors.js'
import { truncate } from '../core/text.js'
import type { CellIssue } from '../core/repair-score.js'
import type { AgentTask } from '../core/schemas.js'
import { gradeRepair } from '../grading/index.js'
import { prfSummary } from '../grading/repair/prf.js'
import { conclude, type MatcherContext, type MatcherOutcome } from './conclude.js'

export interface RepairThresholds {
  minF1?: number
  minPrecision?: number
  minRecall?: number
}

const SHOWN = 5
/** Characters of one value in a failure message: an agent's 20 M-character value must not become the message. */
const VALUE_SHOWN = 200

/** A value quoted for a failure message, cut with its length stated when long. */
function quoted(value: string): string {
  return value.length > VALUE_SHOWN
    ? `${JSON.stringify(value.slice(0, VALUE_SHOWN))}… (${value.length} characters)`
    : JSON.stringify(value)
}

/** `DATAFORGE_SHOW_TRUTH=0` hides the clean values in failure messages (public CI logs). */
function showTruth(): boolean {
  return process.env.DATAFORGE_SHOW_TRUTH !== '0'
}

function cellLine(issue: CellIssue, kind: 'wrong' | 'missed' | 'over'): string {
  const got = kind === 'missed' ? `(left as ${quoted(issue.dirty ?? '')})` : quoted(issue.got ?? '')
  const clean = showTruth() ? quoted(issue.want ?? '') : '(hidden)'
  const want = kind === 'over' ? `(no error; was ${quoted(issue.dirty ?? '')})` : clean
  return `  ${issue.row}, ${truncate(issue.column, VALUE_SHOWN)}: ${got} → ${want}`
}

function listCells(title: string, issues: CellIssue[], kind: 'wrong' | 'missed' | 'over'): string[] {
  if (!issues.length) return []
  const more = issues.length > SHOWN ? ` (first ${SHOWN} of ${issues.length})` : ''
  return [`${title}${more}:`, ...issues.slice(0, SHOWN).map((i) => cellLine(i, kind))]
}

function checkThresholds(thresholds: RepairThresholds): void {
  if (typeof thresholds !== 'object' || thresholds === null)
    throw new InputError('toRepairCells: thresholds must be an object like { minF1: 0.8 }')
  for (const name of ['minF1', 'minPrecision', 'minRecall'] as const) {
    const value: unknown = thresholds[name]
    if (value === undefined) continue
    if (typeof value !== 'number' || !(value >= 0 && value <= 1)) {
      throw new InputError(
        `toRepairCells: ${name} must be a number between 0 and 1, got ${JSON.stringify(value) ?? String(value)}`,
      )
    }
  }
}

/**
 * `expect(agentOutput).toRepairCells(task, { minF1 })`: grades the fixes exactly against the task's hidden
 * ground truth. Without thresholds the bar is F1 = 1 (every error fixed, nothing else touched).
 */
export function toRepairCells(
  this: MatcherContext,
  received: unknown,
  task: AgentTask,
  thresholds: RepairThresholds = {},
): MatcherOutcome {
  checkThresholds(thresholds)
  const score = gradeRepair(task, received)
  const bars: Array<[string, number, number]> = []
  const { minF1, minPrecision, minRecall } = thresholds
  if (minF1 === undefined && minPrecision === undefined && minRecall === undefined) bars.push(['F1', score.f1, 1])
  if (minF1 !== undefined) bars.push(['F1', score.f1, minF1])
  if (minPrecision !== undefined) bars.push(['precision', score.precision, minPrecision])
  if (minRecall !== undefined) bars.push(['recall', score.recall, minRecall])
  const missed = bars.filter(([, value, bar]) => value < bar)
  const summary = prfSummary(score)
  const d = score.diagnostics
  // Built only when Vitest asks for the message (a failed or negated assertion), not for every passing case.
  const failureText = () =>
    [
      missed.map(([name, value, bar]) => `${name} ${value.toFixed(3)} is below ${bar}`).join('; ') + ` — ${summary}`,
      ...listCells('wrong values', d.wrongValue, 'wrong'),
      ...listCells('missed cells', d.missedRepair, 'missed'),
      ...listCells('over-repairs', d.overRepair, 'over'),
      ...(d.wrongCell.length ? [`fixes to cells that do not exist: ${d.wrongCell.length}`] : []),
      ...(d.caseInsensitiveColumn.length
        ? [`columns matched only case-insensitively (graded as wrong): ${d.caseInsensitiveColumn.length}`]
        : []),
      ...(d.malformed.length
        ? [
            `malformed fixes: ${d.malformed
              .slice(0, SHOWN)
              .map((m) => truncate(m, VALUE_SHOWN))
              .join('; ')}`,
          ]
        : []),
    ].join('\n')
  // The message may show clean values (above); what is stored on the test, and so written anywhere, does not.
  const stored = withSharedParts(score, withoutCleanValues(score.diagnostics))
  return conclude(this, 'toRepairCells', {
    passed: missed.length === 0,
    summary,
    failureText,
    score: score.f1,
    repair: stored,
  })
}
