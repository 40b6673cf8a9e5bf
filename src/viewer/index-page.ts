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

function groupOf(r: RunRecord): string {
  return [armName(r.agent, r.model), r.suite === r.dataset ? r.dataset : `${r.suite} · ${r.dataset}`, r.category]
    .filter(Boolean)
    .join(' · ')
}

function options(values: Iterable<string>, all: string): string {
  return (
    `<option value="">${esc(all)}</option>` +
    [...new Set(values)]
      .sort()
      .map((v) => `<option value="${esc(v)}">${txt(v)}</option>`)
      .join('')
  )
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
  const groups = new Map<string, number>()
  const columns = new Map<string, number>()
  const kinds = new Set<string>()
  const rows: unknown[] = new Array(records.length)
  const firstPage: string[] = []
  let withoutTranscript = 0
  for (let n = 0; n < records.length; n++) {
    const r = records[n]!
    const group = groupOf(r)
    if (!groups.has(group)) groups.set(group, groups.size)
    const cols = problemColumns(r)
    for (const c of cols) if (!columns.has(c)) columns.set(c, columns.size)
    if (r.failureKind) kinds.add(r.failureKind)
    const outcome = outcomeOf(r)
    const statuses = outcome === 'correct' || outcome === 'incorrect' ? `${r.status} ${outcome}` : r.status
    const kept = r.transcriptId !== null && missingTranscript(report, r) === null
    if (!kept && r.usage.calls > 0) withoutTranscript++
    const transcript = kept ? 'kept' : r.usage.calls > 0 ? 'none' : ''
    const score = r.f1 !== null ? fixed(r.f1) : r.correct === null ? '' : r.correct ? '1' : '0'
    const label = outcome === 'failed' ? `failed: ${r.failureKind ?? 'exception'}` : outcome
    const tone =
      outcome === 'correct'
        ? 'good'
        : outcome === 'incorrect' || outcome === 'failed'
          ? 'bad'
          : outcome === 'skipped'
            ? 'warn'
            : ''
    const tokens = r.usage.promptTokens + r.usage.completionTokens
    const search =
      `${group} ${caseLabel(r)} ${r.failureMessage ?? ''} ${r.validationError ?? ''} ${cols.join(' ')}`.toLowerCase()
    const cost = usd(r.usage.costUsd)
    const seconds = r.runtimeS.toFixed(2)
    rows[n] = [
      n,
      groups.get(group),
      caseLabel(r),
      r.trial + 1,
      label,
      tone,
      score,
      runKind(r),
      r.usage.calls,
      tokens,
      cost,
      seconds,
      transcript,
      r.failureKind ?? '',
      cols.map((c) => columns.get(c)),
      search,
      statuses,
    ]
    if (n < RUNS_PER_PAGE) {
      firstPage.push(
        `<tr><td class="num"><a href="${esc(links.run(n))}">${n}</a></td><td>${txt(group)}</td><td>${txt(caseLabel(r))}</td><td class="num">${r.trial + 1}</td>` +
          `<td>${outcomeBadge(r)}</td><td class="num">${esc(score)}</td><td class="opt">${esc(runKind(r))}</td><td class="num opt">${esc(r.usage.calls)}</td>` +
          `<td class="num opt">${esc(tokens)}</td><td class="num opt">${esc(cost)}</td><td class="num opt">${esc(seconds)}</td><td class="opt">${esc(transcript)}</td></tr>`,
      )
    }
  }
  const filters =
    '<div class="filters" role="search">' +
    `<label>group <select id="f-g">${options(groups.keys(), 'all groups')}</select></label>` +
    `<label>outcome <select id="f-s">${options(['ok', 'correct', 'incorrect', 'failed', 'skipped'], 'all')}</select></label>` +
    `<label>failure <select id="f-k">${options(kinds, 'any')}</select></label>` +
    `<label>column <select id="f-c">${options(columns.keys(), 'any')}</select></label>` +
    '<input id="f-q" type="search" placeholder="search: case, agent, message… (/)" aria-label="search runs">' +
    `<span id="f-count" class="muted">${records.length} runs</span></div>`
  const href = links.run(0)
  const data = { groups: [...groups.keys()], columns: [...columns.keys()], rows }
  const table =
    `<div class="scroll"><table id="runs" class="wide" data-page-size="${RUNS_PER_PAGE}" data-href-prefix="${esc(href.slice(0, href.indexOf('0')))}" data-href-suffix="${esc(href.slice(href.indexOf('0') + 1))}" aria-label="runs">` +
    '<thead><tr><th class="num">#</th><th>group</th><th>case</th><th class="num">trial</th><th>outcome</th><th class="num">score</th><th class="opt">kind</th>' +
    `<th class="num opt">calls</th><th class="num opt">tokens</th><th class="num opt">cost</th><th class="num opt">s</th><th class="opt">transcript</th></tr></thead><tbody>${firstPage.join('')}</tbody></table></div>` +
    `<script type="application/json" id="runs-data">${jsonInHtml(data)}</script>` +
    (records.length > RUNS_PER_PAGE
      ? `<noscript><p class="muted">Showing the first ${RUNS_PER_PAGE} runs; every run has its page at runs/N.</p></noscript>`
      : '')
  const transcripts =
    !report.transcriptsFound && records.some((r) => r.transcriptId !== null)
      ? `<p class="note">${txt(report.transcriptsFile.split('/').pop())} is missing: the runs name transcripts the folder does not hold.</p>`
      : withoutTranscript
        ? `<p class="muted">Runs that made model calls but kept no transcript: ${withoutTranscript}; their pages say why.</p>`
        : ''
  const body =
    `<h1>${txt(report.stem)}</h1><p class="muted">${records.length} runs from ${txt(report.runsFile)} · <kbd>j</kbd>/<kbd>k</kbd> move, <kbd>Enter</kbd> opens, <kbd>/</kbd> searches</p>` +
    transcripts +
    (changes && ctx.against ? changesHtml(ctx.against.source, changes, links.run) : '') +
    `<h2 id="all-runs">Runs</h2>${filters}${table}`
  return viewerPage({
    title: `${report.stem} · runs`,
    bar: `<span class="title">${txt(report.stem)}</span><nav><a href="#all-runs">runs</a>${changes ? '<a href="#changed">changed</a>' : ''}</nav>`,
    body,
    live: ctx.mode === 'served',
  })
}

/**
 * JSON inside a <script type="application/json"> block: `<`, `>`, `&` and the line separators as \u escapes, so
 * no string can close the block or open a comment. The block is data; the CSP runs only the page's own script.
 */
function jsonInHtml(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
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
    `<h2 id="changed">What changed against ${txt(source)}</h2><p>Runs changed: ${changes.length} (${worse} worse, ${better} better).</p>` +
    (changes.length
      ? `<div class="scroll"><table id="changes" data-page-size="50" aria-label="changed runs"><thead><tr><th class="num">#</th><th>run</th><th>baseline</th><th>this run</th>` +
        `<th>change</th><th class="num">cells right → wrong</th><th class="num">cells wrong → right</th><th>answer</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`
      : '')
  )
}
