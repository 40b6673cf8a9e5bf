import type { Aggregate } from './aggregate.js'
import type { EvalReport } from './build.js'
import { fixed, meanStd, seconds, table, units, usd } from './format.js'
import { formatInterval } from '../stats/format.js'
import { renderQaSections } from './qa-sections.js' // QA sections (issue 12)

export interface MarkdownOptions {
  title?: string
  /** Put runtime in the summary table (CLI report) instead of only in the timing block (leaderboard). */
  runtimeInSummary?: boolean
}

function failuresText(a: Aggregate): string {
  const entries = Object.entries(a.failures)
  return entries.length ? entries.map(([k, n]) => `${k} ${n}`).join(', ') : '0'
}

export function renderSummaryTable(report: EvalReport, opts: MarkdownOptions = {}): string {
  const header = ['agent', 'kind', 'dataset', 'trials', 'Score [95% CI]', 'P', 'R', 'F1 (mean ± std)', 'F1 [95% CI]', 'F1 pooled', 'steps', 'quota/trial', 'quota total']
  if (opts.runtimeInSummary) header.push('runtime')
  header.push('failures')
  const rows = report.aggregates.map((a) => {
    const row = [
      a.model && a.model !== a.agent ? `${a.agent} (${a.model})` : a.agent,
      a.agentKind,
      a.category ? `${a.suite} · ${a.category}` : a.suite,
      `${a.trialsCompleted}/${a.trialsRequested}`,
      `${formatInterval(a.score.point, a.score.low, a.score.high)} (${a.correct}/${a.trialsRequested - a.trialsSkipped})`,
      fixed(a.precisionMean),
      fixed(a.recallMean),
      meanStd(a.f1Mean, a.f1Std),
      a.f1Interval ? formatInterval(a.f1Interval.mean, a.f1Interval.low, a.f1Interval.high) : '—',
      fixed(a.pooled?.f1),
      fixed(a.stepsMean, 1),
      units(a.quotaUnitsPerTrial),
      units(a.usage.quotaUnits),
    ]
    if (opts.runtimeInSummary) row.push(seconds(a.runtimeS))
    row.push(failuresText(a))
    return row
  })
  return table(header, rows)
}

function renderCounts(report: EvalReport): string {
  const rows = report.aggregates
    .filter((a) => a.pooled)
    .map((a) => {
      const d = a.diagnostics!
      return [
        a.group,
        String(a.pooled!.tp),
        String(a.pooled!.fp),
        String(a.pooled!.fn),
        fixed(a.detectionPooled?.f1),
        String(d.wrongValue),
        String(d.overRepair),
        String(d.missedRepair),
        String(d.wrongCell),
        String(d.caseInsensitiveColumn),
        String(d.duplicateCells),
        String(d.malformed),
      ]
    })
  if (!rows.length) return ''
  return table(
    ['group', 'tp', 'fp', 'fn', 'detection F1', 'wrong value', 'over-repair', 'missed', 'wrong cell', 'column case', 'duplicates', 'malformed'],
    rows,
  )
}

function renderCost(report: EvalReport): string {
  const rows = report.aggregates
    .filter((a) => a.usage.calls > 0 || a.usage.cachedCalls > 0)
    .map((a) => [
      a.group,
      String(a.usage.calls),
      String(a.usage.promptTokens + a.usage.completionTokens),
      String(a.usage.cachedCalls),
      String(a.usage.cachedPromptTokens + a.usage.cachedCompletionTokens),
      usd(a.usage.costUsd),
      usd(a.costPerCorrectFixUsd),
    ])
  if (!rows.length) return ''
  return table(['group', 'calls', 'tokens spent', 'cached calls', 'tokens saved by cache', 'cost', 'cost per correct fix'], rows)
}

function renderFailures(report: EvalReport): string {
  const failed = report.records.filter((r) => r.status === 'failed')
  if (!failed.length) return 'No run failures.'
  return table(
    ['agent', 'dataset', 'trial', 'seed', 'kind', 'message'],
    failed.map((r) => [r.agent, r.dataset, String(r.trial), String(r.seed), r.failureKind ?? '', truncate(r.failureMessage ?? '', 160)]),
  )
}

function renderFlaky(report: EvalReport): string {
  const flaky = report.cases.filter((c) => c.flaky)
  if (!flaky.length) return ''
  return table(
    ['agent', 'dataset', 'case', 'passes', 'pass@1', `pass^k`],
    flaky.map((c) => [c.agent, c.dataset, c.turn === null ? c.caseId : `${c.caseId}#t${c.turn}`, `${c.passes}/${c.n}`, fixed(c.passAtK[1]), fixed(c.passHatK[c.n])]),
  )
}

function truncate(text: string, max: number): string {
  return text.length > max ? text.slice(0, max - 1) + '…' : text
}

export function renderReproducibility(report: EvalReport, opts: MarkdownOptions = {}): string {
  const r = report.reproducibility
  const lines = [
    `- project commit: ${r.projectCommit ?? 'unknown (not a git checkout)'}${r.projectDirty ? ' (with uncommitted changes)' : ''}`,
    `- seeds: ${r.seeds.join(', ') || '—'}`,
    `- agents: ${r.agents.join(', ') || '—'}`,
    `- models: ${r.models.join(', ') || '— (no model-backed agent)'}`,
    `- dependency versions: ${Object.entries(r.dependencyVersions).map(([k, v]) => `${k} ${v}`).join(', ')}`,
    `- model calls: ${r.cache.liveCalls} live, ${r.cache.cachedCalls} answered from the record/replay cache (${r.cache.cachedRuns} runs fully cached)`,
    '',
    table(
      ['dataset', 'origin', 'seed', 'rows × cols', 'dirty sha256', 'dirty bytes', 'clean sha256', 'clean bytes'],
      r.datasets.map((d) => [
        d.id,
        d.origin,
        d.seed === null ? '—' : String(d.seed),
        `${d.rows} × ${d.columns}`,
        `\`${d.dirty.sha256}\``,
        String(d.dirty.bytes),
        `\`${d.clean.sha256}\``,
        String(d.clean.bytes),
      ]),
    ),
    '',
    `Nondeterminism: ${r.nondeterminismNote}`,
  ]
  const timing = [`- run date (UTC): ${r.runDateUtc}`]
  if (!opts.runtimeInSummary) {
    for (const a of report.aggregates) timing.push(`- ${a.group}: ${seconds(a.runtimeS)}`)
  }
  return `${lines.join('\n')}\n\n### Dates and durations\n\n${timing.join('\n')}`
}

export function renderMarkdownReport(report: EvalReport, opts: MarkdownOptions = {}): string {
  const parts = [
    `# ${opts.title ?? 'dataforge-evals report'}`,
    '',
    '## Summary',
    '',
    'Score is correct/attempted runs (a repair run is correct when its F1 reaches the pass threshold) with a 95% Wilson interval. ' +
      'P, R and F1 are means over completed trials (± sample standard deviation, and a seeded bootstrap 95% interval); ' +
      'F1 pooled is computed from the summed tp/fp/fn counts.',
    '',
    renderSummaryTable(report, opts),
    '',
  ]
  const qa = renderQaSections(report) // issue 12: question-answering leaderboard, grid and failed questions
  if (qa) parts.push(qa)
  const counts = renderCounts(report)
  if (counts) parts.push('## Repair counts and diagnostics', '', counts, '')
  const flaky = renderFlaky(report)
  if (flaky) parts.push('## Flaky cases', '', 'Cases that both passed and failed across their trials (pass^k is the chance all k trials pass).', '', flaky, '')
  const cost = renderCost(report)
  if (cost) parts.push('## Tokens and cost', '', cost, '')
  parts.push('## Run failures', '', 'Timeouts, exceptions and unusable output, kept apart from repair diagnostics.', '', renderFailures(report), '')
  parts.push('## Reproducibility', '', renderReproducibility(report, opts), '')
  parts.push(
    '> Reports compare only when dataset hashes, seeds, model ids and adapter code are identical. ' +
      'Compare runs with `dataforge-evals compare A B`, which pairs trials and refuses differing dataset hashes.',
    '',
  )
  return parts.join('\n')
}
