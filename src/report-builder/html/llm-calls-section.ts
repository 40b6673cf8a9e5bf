import { caseLabel } from '../../core/case-label.js'
import type { RunRecord } from '../../core/run-record.js'
import { truncate } from '../../core/text.js'
import { armName } from '../aggregate.js'
import { esc } from './escape.js'

const MAX_RUNS = 100
const MAX_CALLS = 50

/**
 * The model gateway's trace of each listed run (failed, or shown above as incorrect): one row per call with its
 * protocol, model, streamed or not, tokens, latency, cache hit or live, and status. Never a key or a message.
 */
export function llmCallsSection(runs: readonly RunRecord[]): string {
  const traced = runs.filter((r) => r.llmCalls && r.llmCalls.length > 0)
  if (!traced.length) return ''
  const shown = traced.slice(0, MAX_RUNS)
  const head = [
    '#',
    'protocol',
    'path',
    'model',
    'stream',
    'prompt tokens',
    'completion tokens',
    'latency ms',
    'cache',
    'status',
    'error',
  ]
  const blocks = shown.map((r) => {
    const calls = r.llmCalls.slice(0, MAX_CALLS)
    const rows = calls.map(
      (c, i) =>
        `<tr><td class="num">${i + 1}</td><td>${esc(c.protocol)}</td><td>${esc(c.path)}</td><td>${esc(c.model ?? '—')}</td><td>${c.stream ? 'yes' : 'no'}</td>` +
        `<td class="num">${c.promptTokens}</td><td class="num">${c.completionTokens}</td><td class="num">${c.latencyMs.toFixed(1)}</td>` +
        `<td>${esc(c.cache)}</td><td class="num">${c.status}</td><td class="message">${esc(truncate(c.error ?? '', 200))}</td></tr>`,
    )
    const summary = `${armName(r.agent, r.model)} · ${r.dataset} · ${caseLabel(r)} · trial ${r.trial + 1}: ${r.llmCalls.length} call(s) via ${r.llmUpstream ?? 'the gateway'}`
    return (
      `<details class="run"><summary>${esc(summary)}</summary><div class="scroll"><table><thead><tr>${head.map((h) => `<th scope="col">${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table></div>` +
      (r.llmCalls.length > calls.length
        ? `<p class="muted">${r.llmCalls.length - calls.length} more calls in runs.jsonl.</p>`
        : '') +
      '</details>'
    )
  })
  const more =
    traced.length > shown.length
      ? `<p class="muted">${traced.length - shown.length} more runs with model calls in runs.jsonl.</p>`
      : ''
  return `<h3>Model calls of these runs</h3><p>What the harness's model gateway saw of each run listed above.</p>${blocks.join('')}${more}`
}
