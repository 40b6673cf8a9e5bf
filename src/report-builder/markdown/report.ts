import { digestOfLabel } from '../../core/digest-of.js'
import { type Aggregate, leaderboardOrder } from '../aggregate.js'
import type { EvalReport } from '../build.js'
import { costText, fixed, meanIntervalText, meanStd, seconds, table, units } from '../figure-text.js'
import { formatInterval } from '../../stats/number-format.js'
import { unitsNote } from '../units-note.js'
import { unitsText } from '../../stats/units.js'
import { renderQaSections } from './qa-sections.js' // QA sections (issue 12)
import { isDabenchFact } from '../../datasets/dabench/scores.js'
import { compareText } from '../../core/order.js'
import { truncate } from '../../core/text.js'
import { caseLabel } from '../../core/case-label.js'
import { markdownCell, markdownCode, markdownText } from '../../core/escape-text.js'
import { describeIsolation } from '../isolation-text.js'
import { valueCutsOf, valueCutsSentence } from '../value-cuts.js'
import { isRepairReport, pricedOf, repairRank, scoreRule } from '../score-rule.js'

interface MarkdownOptions {
  title?: string
  /** Put runtime in the summary table (CLI report) instead of only in the timing block (leaderboard). */
  runtimeInSummary?: boolean
}

/**
 * A report is a list of sections built from data; renderers (Markdown here, others beside it) and callers
 * that add sections (the leaderboard's gate and baseline) work on the list, never on rendered text.
 */
export interface ReportSection {
  /** Stable id (`summary`, `counts`, `metrics`, `flaky`, `cost`, `run-failures`, `reproducibility`, …). */
  id: string
  /** Heading; null for a closing note without one. */
  title: string | null
  /** Markdown body. */
  body: string
}

function failuresText(a: Aggregate): string {
  const entries = Object.entries(a.failures)
  return entries.length ? entries.map(([k, n]) => `${markdownCell(k)} ${n}`).join(', ') : '0'
}

function renderSummaryTable(report: EvalReport, opts: MarkdownOptions = {}): string {
  const header = [
    'agent',
    'kind',
    'dataset',
    'units',
    'F1 (mean ± std)',
    'F1 [95% CI]',
    'F1 pooled',
    'P',
    'R',
    scoreRule(report).header,
    'trials done/asked',
    'steps/trial',
    'quota/trial',
    'quota total',
  ]
  if (opts.runtimeInSummary) header.push('runtime total')
  header.push('failures')
  const rows = leaderboardOrder(report.aggregates).map((a) => {
    const row = [
      markdownCell(a.model && a.model !== a.agent ? `${a.agent} (${a.model})` : a.agent),
      markdownCell(a.agentKind),
      markdownCell(a.category ? `${a.suite} · ${a.category}` : a.suite),
      unitsText(a.units),
      meanStd(a.f1Mean, a.f1Std, a.repairRuns),
      meanIntervalText(a.f1Interval),
      fixed(a.pooled?.f1),
      fixed(a.precisionMean),
      fixed(a.recallMean),
      `${formatInterval(a.score.point, a.score.low, a.score.high)} (${a.correct}/${a.trialsRequested - a.trialsSkipped})`,
      `${a.trialsCompleted}/${a.trialsRequested}`,
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
        markdownCell(a.group),
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
    [
      'group',
      'tp',
      'fp',
      'fn',
      'detection F1',
      'wrong value',
      'over-repair',
      'missed',
      'wrong cell',
      'column case',
      'duplicates',
      'malformed',
    ],
    rows,
  )
}

/** Values the evals passed to `record(name, value)` and non-repair grader scores: the mean per group. */
function renderMetrics(report: EvalReport): string {
  // DABench's case facts (sub-answer counts, concept flags) are not measurements: its own section reads them.
  const names = [...new Set(report.aggregates.flatMap((a) => Object.keys(a.metrics)))]
    .filter((n) => !isDabenchFact(n))
    .sort()
  if (!names.length) return ''
  const rows = report.aggregates
    .filter((a) => names.some((n) => a.metrics[n] !== undefined))
    .map((a) => [
      markdownCell(a.group),
      ...names.map((n) => (a.metrics[n] === undefined ? '—' : fixed(a.metrics[n], 3))),
    ])
  return table(['group', ...names.map(markdownCell)], rows)
}

function renderCost(report: EvalReport): string {
  const priced = pricedOf(report)
  const rows = report.aggregates
    .filter((a) => a.usage.calls > 0 || a.usage.cachedCalls > 0)
    .map((a) => [
      markdownCell(a.group),
      String(a.usage.calls),
      String(a.tokens.spent),
      String(a.usage.cachedCalls),
      String(a.tokens.saved),
      costText(a.usage.costUsd, a.tokens.spent, priced),
      costText(a.costPerCorrectFixUsd, a.tokens.spent, priced),
    ])
  if (!rows.length) return ''
  return table(
    ['group', 'calls', 'tokens spent', 'cached calls', 'tokens saved by cache', 'cost', 'cost per correct fix'],
    rows,
  )
}

function renderFailures(report: EvalReport): string {
  const failed = report.records.filter((r) => r.status === 'failed')
  if (!failed.length) return 'No run failures.'
  const attempted = report.records.filter((r) => r.status !== 'skipped').length
  const count = isRepairReport(report)
    ? `${failed.length} of ${attempted} repair trials failed before they were scored (no F1).\n\n`
    : ''
  return (
    count +
    table(
      ['agent', 'dataset', 'trial', 'seed', 'kind', 'message'],
      failed.map((r) => [
        markdownCell(r.agent),
        markdownCell(r.dataset),
        String(r.trial + 1),
        String(r.seed),
        r.failureKind ?? '',
        markdownCell(truncate(r.failureMessage ?? '', 160)),
      ]),
    )
  )
}

/** pass^k at k = 2: the chance two fresh trials both pass (k = n is always 0 for a flaky case). */
const PASS_HAT_K = 2

function renderFlaky(report: EvalReport): string {
  const flaky = report.cases.filter((c) => c.flaky)
  if (!flaky.length) return ''
  return table(
    ['agent', 'dataset', 'case', 'passes', 'pass@1', `pass^${PASS_HAT_K}`],
    flaky.map((c) => [
      markdownCell(c.agent),
      markdownCell(c.dataset),
      markdownCell(caseLabel(c)),
      `${c.passes}/${c.n}`,
      fixed(c.passAtK[1]),
      fixed(c.passHatK[PASS_HAT_K]),
    ]),
  )
}

function generatorOptions(options: Record<string, unknown> | null | undefined): string {
  if (!options || !Object.keys(options).length) return '—'
  return Object.entries(options)
    .sort(([a], [b]) => compareText(a, b))
    .map(([k, v]) => markdownCell(`${k} ${String(v)}`))
    .join(', ')
}

function renderReproducibility(report: EvalReport, opts: MarkdownOptions = {}): string {
  const r = report.reproducibility
  const isolation = describeIsolation(r.isolation)
  const lines = [
    `- project commit: ${r.projectCommit ?? 'unknown (not a git checkout)'}${r.projectDirty ? ' (with uncommitted changes)' : ''}`,
    `- seeds: ${r.seeds.join(', ') || '—'}`,
    `- agents: ${r.agents.map(markdownText).join(', ') || '—'}`,
    ...(isolation === null ? [] : [`- isolation: ${markdownText(isolation)}`]),
    `- models: ${r.models.map(markdownText).join(', ') || '— (no model-backed agent)'}`,
    ...(r.llmUpstreams?.length ? [`- model gateway upstream: ${r.llmUpstreams.map(markdownText).join(', ')}`] : []),
    `- dependency versions: ${Object.entries(r.dependencyVersions)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
    `- model calls: ${r.cache.liveCalls} live, ${r.cache.cachedCalls} answered from the record/replay cache (${r.cache.cachedRuns} runs fully cached)`,
    '',
    table(
      [
        'dataset',
        'origin',
        'seed',
        'generator options',
        'rows × cols',
        'sha256 of',
        'dirty sha256',
        'dirty bytes',
        'clean sha256',
        'clean bytes',
      ],
      r.datasets.map((d) => [
        markdownCell(d.id),
        markdownCell(d.origin),
        d.seed === null ? '—' : String(d.seed),
        generatorOptions(d.options),
        d.rows === null || d.columns === null ? '—' : `${d.rows} × ${d.columns}`,
        `${digestOfLabel(d.dirty.of, d.clean.of)}${d.digests ? ` (${d.digests})` : ''}`,
        markdownCode(d.dirty.sha256),
        d.dirty.bytes === null ? '—' : String(d.dirty.bytes),
        markdownCode(d.clean.sha256),
        d.clean.bytes === null ? '—' : String(d.clean.bytes),
      ]),
    ),
    '',
    `Nondeterminism: ${r.nondeterminismNote}`,
  ]
  const timing = [`- run date (UTC): ${r.runDateUtc}`]
  if (!opts.runtimeInSummary) {
    for (const a of report.aggregates) {
      const trials = a.trialsRequested - a.trialsSkipped
      timing.push(
        `- ${markdownText(a.group)}: ${seconds(a.runtimeS)} total${trials > 1 ? `, ${seconds(a.runtimeS / trials)} per trial (${trials} trials)` : ''}`,
      )
    }
  }
  return `${lines.join('\n')}\n\n### Dates and durations\n\n${timing.join('\n')}`
}

const SUMMARY_LEGEND =
  'P, R and F1 are means over completed trials (± sample standard deviation; with one trial, n = 1 and no spread), with a 95% t interval over units (one unit: a seeded bootstrap of its trials); ' +
  'F1 pooled is computed from the summed tp/fp/fn counts. Steps and quota are per trial; runtime is the group total.'

/** The units note under the summary table, when some group's intervals are over units rather than runs. */
function withUnits(report: EvalReport): string {
  const note = unitsNote(report.aggregates, markdownText)
  return note ? `\n\n${note}` : ''
}

/** The sections of a report, in order, each built from the report's data. */
export function reportSections(report: EvalReport, opts: MarkdownOptions = {}): ReportSection[] {
  const sections: ReportSection[] = [
    {
      id: 'summary',
      title: 'Summary',
      body: `${repairRank(report)}${scoreRule(report).legend} ${SUMMARY_LEGEND}\n\n${renderSummaryTable(report, opts)}${withUnits(report)}`,
    },
  ]
  // The size policy's cuts, stated before any figure that came from a cut value.
  const cuts = valueCutsOf(report.records)
  if (cuts) sections.push({ id: 'value-cuts', title: 'Values cut', body: `> ${valueCutsSentence(cuts, markdownCode)}` })
  // Question answering (issue 12): its own headings, placed right after the summary.
  const qa = renderQaSections(report)
  if (qa) sections.push({ id: 'qa', title: null, body: qa.trimEnd() })
  const optional: Array<[string, string, string, string]> = [
    ['counts', 'Repair counts and diagnostics', '', renderCounts(report)],
    [
      'metrics',
      'Recorded metrics',
      'Mean per group over completed runs of the values evals passed to `record(name, value)` and of non-repair grader scores.',
      renderMetrics(report),
    ],
    [
      'flaky',
      'Flaky cases',
      `Cases that both passed and failed across their trials. pass@1 is the chance one trial passes; pass^${PASS_HAT_K} the chance ${PASS_HAT_K} trials all pass.`,
      renderFlaky(report),
    ],
    ['cost', 'Tokens and cost', '', renderCost(report)],
  ]
  for (const [id, title, intro, body] of optional)
    if (body) sections.push({ id, title, body: intro ? `${intro}\n\n${body}` : body })
  sections.push(
    {
      id: 'run-failures',
      title: isRepairReport(report) ? 'Failed trials' : 'Run failures',
      body: `Timeouts, exceptions and unusable output, kept apart from repair diagnostics.\n\n${renderFailures(report)}`,
    },
    { id: 'reproducibility', title: 'Reproducibility', body: renderReproducibility(report, opts) },
    {
      id: 'compare-note',
      title: null,
      body:
        '> Reports compare only when dataset hashes, seeds, model ids and adapter code are identical. ' +
        'Compare runs with `dataforge-evals compare A B`, which pairs trials and refuses differing dataset hashes.',
    },
  )
  return sections
}

/** Places sections before the one with id `beforeId` (at the end when there is none). */
export function insertSections(
  sections: readonly ReportSection[],
  beforeId: string,
  added: readonly ReportSection[],
): ReportSection[] {
  const at = sections.findIndex((s) => s.id === beforeId)
  const i = at === -1 ? sections.length : at
  return [...sections.slice(0, i), ...added, ...sections.slice(i)]
}

export function renderSectionsMarkdown(title: string, sections: readonly ReportSection[]): string {
  const parts = [`# ${title}`, '']
  for (const s of sections) {
    if (s.title !== null) parts.push(`## ${s.title}`, '')
    parts.push(s.body, '')
  }
  return parts.join('\n')
}

export function renderMarkdownReport(report: EvalReport, opts: MarkdownOptions = {}): string {
  return renderSectionsMarkdown(opts.title ?? 'dataforge-evals report', reportSections(report, opts))
}
