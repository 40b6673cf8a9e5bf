import { compareText } from '../../core/order.js'
import { markdownCell, markdownCode } from '../../core/escape-text.js'
import { formatInterval } from '../../stats/number-format.js'
import { fixed, table } from '../figure-text.js'
import type { Aggregate } from '../aggregate.js'

/** One report a summary reads: where it is (relative to the summary's folder), when it ran, what it holds. */
export interface SummarySource {
  path: string
  runDateUtc: string
  command: string | null
  aggregates: readonly Pick<
    Aggregate,
    'group' | 'suite' | 'score' | 'f1Mean' | 'trialsCompleted' | 'trialsRequested' | 'failures'
  >[]
}

/**
 * For each suite (or dataset) any report holds, the report that ran it last: newest `runDateUtc` first; between
 * reports of the same run (a timestamped copy and the latest) the shorter path, then the first in path order.
 */
function newestBySuite(sources: readonly SummarySource[]): Map<string, SummarySource> {
  const ordered = [...sources].sort(
    (a, b) => compareText(b.runDateUtc, a.runDateUtc) || a.path.length - b.path.length || compareText(a.path, b.path),
  )
  const newest = new Map<string, SummarySource>()
  for (const source of ordered) for (const a of source.aggregates) if (!newest.has(a.suite)) newest.set(a.suite, source)
  return new Map([...newest].sort(([a], [b]) => compareText(a, b)))
}

/**
 * SUMMARY.md: one table per suite (a question suite, or a repair run's dataset), each from the newest report
 * that holds it, naming that report and its date. Stable order and fixed digits, so it diffs.
 */
export function renderSummary(folder: string, sources: readonly SummarySource[]): string {
  const newest = newestBySuite(sources)
  const lines = [
    '# Summary',
    '',
    `One table per suite or dataset, each from the newest of the ${sources.length} report${sources.length === 1 ? '' : 's'} in ${markdownCode(folder)} that holds it (\`dataforge-evals summary\`).`,
    'Score is the share of attempted runs that were correct, with its 95% Wilson interval; F1 is the mean over completed repair runs.',
  ]
  if (newest.size === 0) lines.push('', 'No report in this folder holds a group.')
  for (const [suite, source] of newest) {
    const rows = source.aggregates
      .filter((a) => a.suite === suite)
      .sort((a, b) => compareText(a.group, b.group))
      .map((a) => [
        markdownCell(a.group),
        formatInterval(a.score.point, a.score.low, a.score.high, 2).replace('n/a', '—'),
        fixed(a.f1Mean),
        `${a.trialsCompleted}/${a.trialsRequested}`,
        String(Object.values(a.failures ?? {}).reduce((sum, n) => sum + n, 0)),
      ])
    lines.push(
      '',
      `## ${markdownCell(suite)}`,
      '',
      `From ${markdownCode(source.path)}${source.command ? ` (${markdownCell(source.command)})` : ''}, run ${source.runDateUtc}.`,
      '',
      table(['group', 'Score [95% CI]', 'F1', 'trials done/asked', 'failures'], rows),
    )
  }
  return `${lines.join('\n')}\n`
}
