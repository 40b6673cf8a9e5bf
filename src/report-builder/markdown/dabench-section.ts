import type { RunRecord } from '../../core/run-record.js'
import {
  type DabenchRate,
  type DabenchScores,
  type DabenchSummary,
  dabenchSummaries,
} from '../../datasets/dabench/scores.js'
import { armName } from '../aggregate.js'
import { table } from '../figure-text.js'

/** `59.8% [54.1, 65.2]`: a DABench rate in percent, as the benchmark publishes them. */
export function dabenchPercent(rate: DabenchRate): string {
  const p = (x: number) => (100 * x).toFixed(1)
  return `${p(rate.point)}% [${p(rate.low)}, ${p(rate.high)}]`
}

function scoreCells(s: DabenchScores): string[] {
  return [
    String(s.questions),
    String(s.subAnswers),
    dabenchPercent(s.abq),
    dabenchPercent(s.psaq),
    dabenchPercent(s.uasq),
  ]
}

const SCORE_HEAD = ['questions', 'sub-answers', 'ABQ [95% CI]', 'PSAQ [95% CI]', 'UASQ [95% CI]']

function arm(s: DabenchSummary): string {
  return armName(s.agent, s.model)
}

/** DABench's metrics per arm, by level and by concept; empty when no record is a DABench question. */
export function renderDabenchSection(records: readonly RunRecord[], seed = 0): string {
  const summaries = dabenchSummaries(records, seed)
  if (!summaries.length) return ''
  return [
    '### DABench',
    '',
    "InfiAgent-DABench's metrics: ABQ is the share of questions with every sub-answer right, PSAQ the mean share of right sub-answers per question, UASQ right sub-answers over all sub-answers. Intervals are 95% bootstrap intervals over questions. A failed run counts with no sub-answer right (the official script leaves unanswered questions out).",
    '',
    table(
      ['agent / model', 'suite', ...SCORE_HEAD, 'run failures'],
      summaries.map((s) => [arm(s), s.suite, ...scoreCells(s.overall), String(s.failedRuns)]),
    ),
    '',
    '#### DABench by level',
    '',
    table(
      ['agent / model', 'level', ...SCORE_HEAD],
      summaries.flatMap((s) => s.byLevel.map((l) => [arm(s), l.level, ...scoreCells(l)])),
    ),
    '',
    '#### DABench by concept',
    '',
    'A question of several concepts counts under each.',
    '',
    table(
      ['agent / model', 'concept', ...SCORE_HEAD],
      summaries.flatMap((s) => s.byConcept.map((c) => [arm(s), c.concept, ...scoreCells(c)])),
    ),
    '',
  ].join('\n')
}
