import { caseLabel } from '../core/case-label.js'
import type { RunRecord } from '../core/run-record.js'
import type { Transcript } from '../core/transcript.js'
import { armName } from '../report-builder/aggregate.js'
import { fixed, usd } from '../report-builder/figure-text.js'
import { esc } from '../report-builder/html/escape.js'
import { type Counterpart, cellChanges, outcomeOf } from './against.js'
import { type GradedCell, cellKey, gradedCells, runKind, unlistedRightCells } from './cells.js'
import type { Expected } from './expected.js'
import { badge, cellValue, type Links, linksFrom, txt } from './html-text.js'
import { missingTranscript, type ViewedReport } from './load.js'
import { viewerPage } from './page.js'
import { lastAnswerText, recordTraceHtml, transcriptHtml } from './transcript-view.js'

/** What every page of one viewer shares. */
export interface ViewContext {
  report: ViewedReport
  mode: 'served' | 'export'
  /** With `--against`: each candidate run's baseline counterpart (null when the baseline has none). */
  against: { source: string; pairs: Array<Counterpart | null> } | null
}

const CELLS_PER_PAGE = 50

function runTitle(r: RunRecord): string {
  const what = r.suite === r.dataset ? r.dataset : `${r.suite} · ${r.dataset}`
  return `${armName(r.agent, r.model)} · ${what} · ${caseLabel(r)} · trial ${r.trial + 1}`
}

export function outcomeBadge(r: Pick<RunRecord, 'correct' | 'status' | 'failureKind'>): string {
  const o = outcomeOf(r)
  if (o === 'failed') return badge(`failed: ${r.failureKind ?? 'exception'}`, 'bad')
  return badge(o, o === 'correct' ? 'good' : o === 'incorrect' ? 'bad' : o === 'skipped' ? 'warn' : '')
}

/** The page of run `n`: one layout for repair, question and conformance runs. */
export function runPageHtml(ctx: ViewContext, n: number, expected: Expected | null): string {
  const { report } = ctx
  const r = report.records[n]!
  const links = linksFrom('run', ctx.mode)
  const transcript = r.transcriptId ? (report.transcripts.get(r.transcriptId) ?? null) : null
  const missing = missingTranscript(report, r)
  const kind = runKind(r)
  const pair = ctx.against?.pairs[n] ?? null
  const body = [
    `<h1>${txt(runTitle(r))} ${outcomeBadge(r)}</h1>`,
    `<p class="muted">run ${n} of ${report.records.length} in ${txt(report.stem)} · ${esc(kind)} run · <kbd>j</kbd>/<kbd>k</kbd> next and previous run, <kbd>u</kbd> the index</p>`,
    factsHtml(r),
    failureHtml(r),
    kind === 'repair' ? cellsHtml(r, expected) : kind === 'question' ? answerHtml(r, transcript, expected) : '',
    metricsHtml(r),
    ctx.against ? againstHtml(ctx.against.source, r, transcript, missing, pair) : '',
    `<h2 id="transcript">Transcript</h2>`,
    transcript
      ? transcriptHtml(transcript)
      : `<p class="note">No transcript: ${txt(missing ?? '')}</p>${recordTraceHtml(r)}`,
  ].join('\n')
  return viewerPage({
    title: `${runTitle(r)} · run ${n}`,
    bar: barHtml(report, n, links),
    body,
    live: ctx.mode === 'served',
  })
}

function barHtml(report: ViewedReport, n: number, links: Links): string {
  const prev =
    n > 0
      ? `<a data-nav="prev" href="${esc(links.run(n - 1))}">← run ${n - 1}</a>`
      : '<span class="muted">← first</span>'
  const next =
    n + 1 < report.records.length
      ? `<a data-nav="next" href="${esc(links.run(n + 1))}">run ${n + 1} →</a>`
      : '<span class="muted">last →</span>'
  return `<a data-nav="index" href="${esc(links.index)}">all runs</a><span class="title">${txt(report.stem)} · run ${n}</span><nav>${prev}${next}</nav>`
}

function fact(name: string, value: string): string {
  return `<div><dt>${esc(name)}</dt><dd>${value}</dd></div>`
}

function factsHtml(r: RunRecord): string {
  const u = r.usage
  const score =
    r.f1 !== null
      ? `F1 ${fixed(r.f1)} (P ${fixed(r.precision)}, R ${fixed(r.recall)}; ${r.tp} right, ${r.fp} wrong, ${r.fn} missed)`
      : r.correct === null
        ? '—'
        : r.correct
          ? 'correct'
          : 'incorrect'
  const cached = u.cachedCalls > 0 ? ` (${u.cachedCalls} from the cache)` : ''
  return (
    '<dl class="facts">' +
    [
      fact('agent', `${txt(r.agent)} <span class="muted">${txt(r.agentKind)}</span>`),
      fact('model', txt(r.model ?? '—') + (r.provider ? ` <span class="muted">${txt(r.provider)}</span>` : '')),
      fact(
        'suite · dataset',
        txt(r.suite === r.dataset ? r.dataset : `${r.suite} · ${r.dataset}`) +
          (r.category ? ` · ${txt(r.category)}` : ''),
      ),
      fact('case · trial · seed', `${txt(caseLabel(r))} · ${r.trial + 1} · ${esc(r.seed)}`),
      fact('score', esc(score)),
      fact('time', `${esc(r.runtimeS.toFixed(2))} s · ${esc(r.steps)} steps`),
      fact('model calls', `${esc(u.calls)}${esc(cached)}${r.cached ? ' · all cached' : ''}`),
      fact('tokens', `${esc(u.promptTokens)} in · ${esc(u.completionTokens)} out`),
      fact('cost', esc(usd(u.costUsd))),
      fact(
        'upstream',
        txt(r.llmUpstream ?? '—') +
          (r.usageSource ? ` <span class="muted">counted by ${esc(r.usageSource)}</span>` : ''),
      ),
      fact(
        'isolation',
        txt(r.isolation ? r.isolation.level : r.isolated === null ? '—' : r.isolated ? 'own process' : 'in process'),
      ),
      fact('run date', txt(r.runDateUtc)),
    ].join('') +
    '</dl>'
  )
}

function failureHtml(r: RunRecord): string {
  const parts: string[] = []
  if (r.status !== 'ok')
    parts.push(
      `<h2 id="failure">Failure</h2><p>${badge(r.failureKind ?? 'exception', 'bad')}</p><pre>${txt(r.failureMessage ?? '')}</pre>`,
    )
  if (r.validationError && runKind(r) !== 'question') parts.push(`<p class="note">${txt(r.validationError)}</p>`)
  if (r.warnings.length)
    parts.push(
      `<details><summary>${r.warnings.length} warnings</summary><ul>${r.warnings.map((w) => `<li>${txt(w)}</li>`).join('')}</ul></details>`,
    )
  return parts.join('')
}

const VERDICT_CLASS: Record<GradedCell['verdict'], string> = {
  right: 'verdict-right',
  'wrong value': 'verdict-bad',
  'over-repair': 'verdict-bad',
  'wrong cell': 'verdict-bad',
  missed: 'verdict-bad',
  'column case': 'verdict-warn',
}

function cellsHtml(r: RunRecord, expected: Expected | null): string {
  if (!r.diagnostics)
    return `<h2 id="cells">Graded cells</h2><p class="muted">This run has no graded cells (it did not finish).</p>`
  const cells = gradedCells(r)
  const counts = new Map<string, number>()
  for (const c of cells) counts.set(c.verdict, (counts.get(c.verdict) ?? 0) + 1)
  const shownExpected = expected?.kind === 'cells' ? expected : null
  const rows = cells.map((c) => {
    const k = cellKey(c.row, c.column)
    const dirty = c.dirty ?? shownExpected?.dirty.get(k)
    const want = shownExpected ? `<td class="v">${cellValue(shownExpected.clean.get(k) ?? dirty, '—')}</td>` : ''
    return (
      `<tr data-verdict="${esc(c.verdict)}"><td class="num">${esc(c.row)}</td><td>${txt(c.column)}</td><td class="v">${cellValue(dirty, '—')}</td>` +
      `<td class="v">${cellValue(c.agent, '(left unchanged)')}</td>${want}<td class="${VERDICT_CLASS[c.verdict]}">${esc(c.verdict)}</td></tr>`
    )
  })
  const unlisted = unlistedRightCells(r, cells)
  const d = r.diagnostics
  const notes = [
    unlisted > 0 ? `${unlisted} right cells are counted but not listed (the record keeps no fixes for them).` : '',
    d.malformed.length
      ? `${d.malformed.length} items were not fixes at all (each counted wrong): ${d.malformed.slice(0, 5).join('; ')}`
      : '',
    d.duplicateCells ? `${d.duplicateCells} fixes were overwritten by a later fix for the same cell.` : '',
    d.noopFixes ? `${d.noopFixes} fixes set a cell to the value it had (not scored).` : '',
    expected?.kind === 'none' ? `Expected values not shown: ${expected.why}.` : '',
  ].filter(Boolean)
  const summary = ['right', 'wrong value', 'over-repair', 'wrong cell', 'column case', 'missed']
    .filter((v) => counts.get(v))
    .map((v) => `<span class="${VERDICT_CLASS[v as GradedCell['verdict']]}">${counts.get(v)} ${esc(v)}</span>`)
    .join(' · ')
  return (
    `<h2 id="cells">Graded cells</h2><p>${summary || 'No cell changed and none was to be repaired.'}</p>` +
    notes.map((n) => `<p class="note">${txt(n)}</p>`).join('') +
    (cells.length
      ? `<div class="scroll"><table id="cells-table" data-page-size="${CELLS_PER_PAGE}" aria-label="graded cells"><thead><tr><th class="num">row</th><th>column</th>` +
        `<th>dirty value</th><th>agent's value</th>${shownExpected ? '<th>expected</th>' : ''}<th>verdict</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`
      : '')
  )
}

function answerHtml(r: RunRecord, transcript: Transcript | null, expected: Expected | null): string {
  const said = lastAnswerText(transcript)
  const verdict =
    r.status !== 'ok'
      ? ''
      : `<p>${outcomeBadge(r)} ${r.validationError ? `<span>${txt(r.validationError)}</span>` : r.correct ? 'the grader accepted the answer' : ''}</p>`
  const answer =
    said !== null
      ? `<h3>The model's last answer</h3><pre>${txt(said)}</pre>`
      : '<p class="muted">The record keeps the verdict, not the answer; the transcript holds what the model said.</p>'
  const want =
    expected?.kind === 'answer'
      ? `<h3>Expected (shown by this viewer only)</h3><pre>${txt(JSON.stringify(expected.answer, null, 2))}</pre>`
      : expected?.kind === 'none'
        ? `<p class="note">Expected answer not shown: ${txt(expected.why)}.</p>`
        : ''
  return `<h2 id="answer">Answer and verdict</h2>${verdict}${answer}${want}`
}

function metricsHtml(r: RunRecord): string {
  const entries = Object.entries(r.metrics).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  if (!entries.length) return ''
  const rows = entries.map(
    ([k, v]) => `<tr><td>${txt(k)}</td><td class="num">${esc(Number.isInteger(v) ? v : v.toFixed(4))}</td></tr>`,
  )
  return `<h2 id="metrics">Metrics</h2><div class="scroll"><table data-page-size="50" aria-label="metrics"><thead><tr><th>metric</th><th class="num">value</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`
}

function againstHtml(
  source: string,
  r: RunRecord,
  transcript: Transcript | null,
  missing: string | null,
  pair: Counterpart | null,
): string {
  const head = `<h2 id="against">Against the baseline <span class="muted">${txt(source)}</span></h2>`
  if (!pair) return `${head}<p class="muted">The baseline has no run of this case and trial.</p>`
  const base = pair.record ?? pair.run
  const baseOutcome = outcomeBadge({
    correct: base.correct,
    status: pair.record?.status ?? 'ok',
    failureKind: pair.record?.failureKind ?? null,
  })
  const scores = `<p>baseline ${baseOutcome}${base.f1 !== null ? ` F1 ${fixed(base.f1)}` : ''} → this run ${outcomeBadge(r)}${r.f1 !== null ? ` F1 ${fixed(r.f1)}` : ''}</p>`
  let cells = ''
  if (pair.record && runKind(r) === 'repair') {
    const flips = cellChanges(pair.record, r)
    const rows = flips.map(
      (f) =>
        `<tr><td class="num">${esc(f.row)}</td><td>${txt(f.column)}</td><td class="v">${side(f.before)}</td><td class="v">${side(f.after)}</td>` +
        `<td class="${f.flip === 'right → wrong' ? 'verdict-bad' : f.flip === 'wrong → right' ? 'verdict-right' : ''}">${esc(f.flip)}</td></tr>`,
    )
    const worse = flips.filter((f) => f.flip === 'right → wrong').length
    const better = flips.filter((f) => f.flip === 'wrong → right').length
    cells = flips.length
      ? `<p>${worse} cells right → wrong · ${better} wrong → right · ${flips.length - worse - better} other changes</p>` +
        `<div class="scroll"><table data-page-size="${CELLS_PER_PAGE}" aria-label="changed cells"><thead><tr><th class="num">row</th><th>column</th><th>baseline</th><th>this run</th><th>flip</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`
      : '<p>No cell changed.</p>'
  }
  const said = lastAnswerText(transcript)
  const saidBefore = lastAnswerText(pair.transcript)
  const answers =
    runKind(r) === 'question' && (said !== null || saidBefore !== null)
      ? `<div class="pair"><section><h3>Baseline's answer</h3><pre>${txt(saidBefore ?? '(not kept)')}</pre></section><section><h3>This run's answer</h3><pre>${txt(said ?? '(not kept)')}</pre></section></div>` +
        (said !== null && saidBefore !== null
          ? `<p>${said === saidBefore ? 'The answer is the same.' : '<strong>The answer changed.</strong>'}</p>`
          : '')
      : ''
  const transcripts =
    `<div class="pair"><section><h3>Baseline's transcript</h3>${pair.transcript ? transcriptHtml(pair.transcript) : `<p class="note">${txt(pair.missing ?? 'not kept')}</p>`}</section>` +
    `<section><h3>This run's transcript</h3>${transcript ? transcriptHtml(transcript) : `<p class="note">${txt(missing ?? 'not kept')}</p>`}</section></div>`
  return `${head}${scores}${cells}${answers}<details class="side-by-side"${pair.transcript && transcript ? ' open' : ''}><summary>Both transcripts side by side</summary>${transcripts}</details>`
}

function side(c: GradedCell | undefined): string {
  if (!c) return '<span class="muted">untouched</span>'
  return `${cellValue(c.agent, '(left unchanged)')} <span class="${VERDICT_CLASS[c.verdict]}">${esc(c.verdict)}</span>`
}
