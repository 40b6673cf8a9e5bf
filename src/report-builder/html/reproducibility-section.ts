import { digestOfLabel } from '../../core/digest-of.js'
import type { EvalReport } from '../build.js'
import { seconds } from '../figure-text.js'
import { esc } from './escape.js'
import { datasetsFromRecords } from '../reproducibility.js'
import { describeIsolation } from '../isolation-text.js'

function datasetRows(report: EvalReport): string {
  const r = report.reproducibility
  // A report.json written before the block listed records-only data has none: derive them as a new one would.
  const datasets = r.datasets.length ? r.datasets : datasetsFromRecords(report.records)
  const n = (v: number | null) => (v === null ? '—' : String(v))
  return datasets
    .map(
      (d) =>
        `<tr><td>${esc(d.id)}</td><td>${esc(d.origin)}</td><td class="num">${d.seed === null ? '—' : d.seed}</td><td class="num">${d.rows === null || d.columns === null ? '—' : `${d.rows} × ${d.columns}`}</td>` +
        `<td>${esc(`${digestOfLabel(d.dirty.of, d.clean.of)}${d.digests ? ` (${d.digests})` : ''}`)}</td>` +
        `<td><code>${esc(d.dirty.sha256)}</code></td><td class="num">${n(d.dirty.bytes)}</td><td><code>${esc(d.clean.sha256)}</code></td><td class="num">${n(d.clean.bytes)}</td></tr>`,
    )
    .join('')
}

/** Everything needed to reproduce the run, with dates and durations in their own list. */
export function reproducibilitySection(report: EvalReport): string {
  const r = report.reproducibility
  const isolation = describeIsolation(r.isolation)
  const items: Array<[string, string]> = [
    [
      'project commit',
      `${r.projectCommit ?? 'unknown (not a git checkout)'}${r.projectDirty ? ' (with uncommitted changes)' : ''}`,
    ],
    ['seeds', r.seeds.join(', ') || '—'],
    ['agents', r.agents.join(', ') || '—'],
    ...(isolation === null ? [] : [['isolation', isolation] as [string, string]]),
    ['models', r.models.join(', ') || '— (no model-backed agent)'],
    ...(r.llmUpstreams?.length ? [['model gateway upstream', r.llmUpstreams.join(', ')] as [string, string]] : []),
    [
      'dependency versions',
      Object.entries(r.dependencyVersions)
        .map(([k, v]) => `${k} ${v}`)
        .join(', '),
    ],
    [
      'model calls',
      `${r.cache.liveCalls} live, ${r.cache.cachedCalls} answered from the record/replay cache (${r.cache.cachedRuns} runs fully cached)`,
    ],
  ]
  const head = [
    'dataset',
    'origin',
    'seed',
    'rows × cols',
    'sha256 of',
    'dirty sha256',
    'dirty bytes',
    'clean sha256',
    'clean bytes',
  ]
  const timing = [
    `run date (UTC): ${r.runDateUtc}`,
    ...report.aggregates.map((a) => `${a.group}: ${seconds(a.runtimeS)}`),
  ]
  return (
    `<dl class="facts">${items.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`).join('')}</dl>` +
    `<div class="scroll"><table class="hashes"><thead><tr>${head.map((h) => `<th scope="col">${esc(h)}</th>`).join('')}</tr></thead><tbody>${datasetRows(report)}</tbody></table></div>` +
    `<p>Nondeterminism: ${esc(r.nondeterminismNote)}</p>` +
    `<h3>Dates and durations</h3><ul class="timing">${timing.map((t) => `<li>${esc(t)}</li>`).join('')}</ul>`
  )
}
