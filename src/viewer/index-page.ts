import { caseLabel } from '../core/case-label.js'
import type { RunRecord } from '../core/run-record.js'
import { armName } from '../report-builder/aggregate.js'
import { fixed, usd } from '../report-builder/figure-text.js'
import { esc } from '../report-builder/html/escape.js'
import { type Change, outcomeOf } from './against.js'
import { problemColumns, runKind } from './cells.js'
import { linksFrom, txt } from './html-text.js'
import { missingTranscript } from './load.js'
import { viewerPage } from './page.js'
import { outcomeBadge, type ViewContext } from './run-page.js'

const RUNS_PER_PAGE = 100

export function groupOf(r: RunRecord): string {
  return [armName(r.agent, r.model), r.suite === r.dataset ? r.dataset : `${r.suite} · ${r.dataset}`, r.category].filter(Boolean).join(' · ')
}

function options(values: Iterable<string>, all: string): string {
  return `<option value="">${esc(all)}</option>` + [...new Set(values)].sort().map((v) => `<option value="${esc(v)}">${txt(v)}</option>`).join('')
}

/**
 * The index: every run in file order, with filters (group, outcome, failure kind, a column with a wrong cell,
 * text) and pages of 100. Rows past the first page are hidden in the markup, so a report of 10,000 runs lays
 * out one page; the script pages and filters over all of them.
 */
export function indexPageHtml(ctx: ViewContext, changes: Change[] | null): string {
  const { report } = ctx
  const links = linksFrom('index', ctx.mode)
  const records = report.records
  const rows: string[] = new Array(records.length)
  const columns: string[] = []
  const kinds: string[] = []
  let withoutTranscript = 0
  for (let n = 0; n < records.length; n++) {
    const r = records[n]!
    const group = groupOf(r)
    const cols = problemColumns(r)
    columns.push(...cols)
    if (r.failureKind) kinds.push(r.failureKind)
    const outcome = outcomeOf(r)
    const statuses = outcome === 'correct' || outcome === 'incorrect' ? `${r.status} ${outcome}` : r.status
    const transcript = r.transcriptId !== null && missingTranscript(report, r) === null
    if (!transcript && r.usage.calls > 0) withoutTranscript++
    const score = r.f1 !== null ? fixed(r.f1) : r.correct === null ? '' : r.correct ? '1' : '0'
    const search = `${group} ${caseLabel(r)} ${r.failureMessage ?? ''} ${r.validationError ?? ''} ${cols.join(' ')}`.toLowerCase()
    rows[n] =
      `<tr${n >= RUNS_PER_PAGE ? ' hidden' : ''} data-g="${esc(group)}" data-s="${esc(statuses)}" data-k="${esc(r.failureKind ?? '')}" data-c="${esc(cols.join('\u0001'))}" data-t="${esc(search)}">` +
      `<td class="num"><a href="${esc(links.run(n))}">${n}</a></td><td>${txt(group)}</td><td>${txt(caseLabel(r))}</td><td class="num">${r.trial + 1}</td>` +
      `<td>${outcomeBadge(r)}</td><td class="num">${esc(score)}</td><td class="opt">${esc(runKind(r))}</td><td class="num opt">${esc(r.usage.calls)}</td>` +
      `<td class="num opt">${esc(r.usage.promptTokens + r.usage.completionTokens)}</td><td class="num opt">${esc(usd(r.usage.costUsd))}</td>` +
      `<td class="num opt">${esc(r.runtimeS.toFixed(2))}</td><td class="opt">${transcript ? 'kept' : r.usage.calls > 0 ? '<span class="muted">none</span>' : ''}</td></tr>`
  }
  const filters =
    '<div class="filters" role="search">' +
    `<label>group <select id="f-g">${options(records.map(groupOf), 'all groups')}</select></label>` +
    `<label>outcome <select id="f-s">${options(['ok', 'correct', 'incorrect', 'failed', 'skipped'], 'all')}</select></label>` +
    `<label>failure <select id="f-k">${options(kinds, 'any')}</select></label>` +
    `<label>column <select id="f-c">${options(columns, 'any')}</select></label>` +
    '<input id="f-q" type="search" placeholder="search: case, agent, message… (/)" aria-label="search runs">' +
    `<span id="f-count" class="muted">${records.length} runs</span></div>`
  const table =
    `<div class="scroll"><table id="runs" class="wide" data-page-size="${RUNS_PER_PAGE}" aria-label="runs"><thead><tr><th class="num">#</th><th>group</th><th>case</th>` +
    '<th class="num">trial</th><th>outcome</th><th class="num">score</th><th class="opt">kind</th><th class="num opt">calls</th><th class="num opt">tokens</th>' +
    `<th class="num opt">cost</th><th class="num opt">s</th><th class="opt">transcript</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>` +
    (records.length > RUNS_PER_PAGE ? `<noscript><p class="muted">Showing the first ${RUNS_PER_PAGE} runs; every run has its page at runs/N.</p></noscript>` : '')
  const transcripts = !report.transcriptsFound && records.some((r) => r.transcriptId !== null) ? `<p class="note">${txt(report.transcriptsFile.split('/').pop())} is missing: the runs name transcripts the folder does not hold.</p>` : withoutTranscript ? `<p class="muted">${withoutTranscript} runs made model calls but have no transcript; their pages say why.</p>` : ''
  const body =
    `<h1>${txt(report.stem)}</h1><p class="muted">${records.length} runs from ${txt(report.runsFile)} · <kbd>j</kbd>/<kbd>k</kbd> move, <kbd>Enter</kbd> opens, <kbd>/</kbd> searches</p>` +
    transcripts +
    (changes && ctx.against ? changesHtml(ctx.against.source, changes, links.run) : '') +
    `<h2 id="all-runs">Runs</h2>${filters}${table}`
  return viewerPage({ title: `${report.stem} · runs`, bar: `<span class="title">${txt(report.stem)}</span><nav><a href="#all-runs">runs</a>${changes ? '<a href="#changed">changed</a>' : ''}</nav>`, body, live: ctx.mode === 'served' })
}

function changesHtml(source: string, changes: Change[], run: (n: number) => string): string {
  const worse = changes.filter((c) => c.direction === 'worse').length
  const better = changes.filter((c) => c.direction === 'better').length
  const rows = changes.map(
    (c) =>
      `<tr><td class="num"><a href="${esc(run(c.n))}">${c.n}</a></td><td>${txt(c.label)}</td><td>${txt(c.before)}</td><td>${txt(c.after)}</td>` +
      `<td class="${c.direction === 'worse' ? 'verdict-bad' : c.direction === 'better' ? 'verdict-right' : ''}">${esc(c.direction)}</td>` +
      `<td class="num">${c.rightToWrong || ''}</td><td class="num">${c.wrongToRight || ''}</td><td>${c.answerChanged ? 'changed' : ''}</td></tr>`,
  )
  return (
    `<h2 id="changed">What changed against ${txt(source)}</h2><p>${changes.length} runs changed: ${worse} worse, ${better} better.</p>` +
    (changes.length
      ? `<div class="scroll"><table id="changes" data-page-size="50" aria-label="changed runs"><thead><tr><th class="num">#</th><th>run</th><th>baseline</th><th>this run</th>` +
        `<th>change</th><th class="num">cells right → wrong</th><th class="num">cells wrong → right</th><th>answer</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`
      : '')
  )
}
