import type { RunRecord } from '../core/run-record.js'
import type { Transcript, TranscriptCall } from '../core/transcript.js'
import { esc } from '../report-builder/html/escape.js'
import { badge, txt } from './html-text.js'

type Message = TranscriptCall['request']['messages'][number]

const sameMessage = (a: Message | undefined, b: Message | undefined) =>
  !!a && !!b && a.role === b.role && a.content === b.content

/**
 * A trial's transcript: each model call with the messages new since the call before (a chat request repeats
 * the whole conversation; showing it again per call made a 200-call page quadratic), the tools offered, the
 * answer (streamed answers arrive assembled), tokens, latency, cache and status; then the agent's own tools.
 */
export function transcriptHtml(t: Transcript): string {
  const notes = t.notes.map((n) => `<p class="note">${txt(n)}</p>`).join('')
  const calls = t.calls.map((call, i) => callHtml(call, t.calls[i - 1])).join('')
  const tools = t.agentTools.length ? `<h3>The agent's own tools (${t.agentTools.length})</h3>${agentToolsHtml(t)}` : ''
  const empty =
    t.calls.length === 0 && t.agentTools.length === 0
      ? '<p class="muted">The transcript holds no model call and no tool call.</p>'
      : ''
  return `${notes}${empty}${calls}${tools}`
}

function callHtml(call: TranscriptCall, before: TranscriptCall | undefined): string {
  const messages = call.request.messages
  let from = 0
  if (
    before &&
    messages.length > before.request.messages.length &&
    sameMessage(messages[before.request.messages.length - 1], before.request.messages.at(-1))
  ) {
    from = before.request.messages.length
  }
  const tone = call.status >= 400 || call.error ? 'bad' : call.cache === 'hit' ? 'warn' : ''
  const head =
    `<div class="head"><strong>call ${call.index + 1}</strong>${badge(call.cache === 'hit' ? 'cached' : call.cache, tone)}` +
    `<span>${txt(call.model ?? 'model not named')}</span><span class="muted">${txt(call.protocol)} ${txt(call.path)}${call.stream ? ' · streamed' : ''}</span>` +
    `<span>status ${esc(call.status)}</span><span>${esc(call.promptTokens)} in · ${esc(call.completionTokens)} out tokens</span>` +
    `<span>${esc(Math.round(call.latencyMs))} ms</span></div>`
  const system =
    call.request.system !== null && from === 0
      ? messageHtml({ role: 'system', content: call.request.system, toolCalls: [], toolCallId: null })
      : ''
  const earlier = from > 0 ? `<p class="muted">${from} earlier messages as in call ${call.index}.</p>` : ''
  const shown = messages.slice(from).map(messageHtml).join('')
  // The tools offered are shown where they change, not again on each call of a tool loop.
  const sameTools = before !== undefined && JSON.stringify(before.request.tools) === JSON.stringify(call.request.tools)
  const tools = sameTools
    ? ''
    : call.request.tools.length
      ? `<details><summary>${call.request.tools.length} tools offered: ${txt(call.request.tools.map((t) => t.name).join(', '))}</summary>` +
        call.request.tools
          .map(
            (t) =>
              `<h3>${txt(t.name)}</h3>${t.description ? `<p>${txt(t.description)}</p>` : ''}${t.parameters ? `<pre>${txt(t.parameters)}</pre>` : ''}`,
          )
          .join('') +
        '</details>'
      : ''
  const error = call.error ? `<p class="note">${txt(call.error)}</p>` : ''
  return `<section class="call" id="call-${call.index + 1}">${head}${system}${earlier}${shown}${tools}${answerHtml(call)}${error}</section>`
}

function messageHtml(m: Message): string {
  const calls = m.toolCalls
    .map(
      (c) =>
        `<div><span class="muted">tool call</span> <strong>${txt(c.name)}</strong>${c.id ? ` <span class="muted">${txt(c.id)}</span>` : ''}<pre>${txt(c.arguments)}</pre></div>`,
    )
    .join('')
  const answers = m.toolCallId ? ` <span class="muted">answers ${txt(m.toolCallId)}</span>` : ''
  const content = m.content === '' && m.toolCalls.length ? '' : `<pre>${txt(m.content)}</pre>`
  return `<div class="msg role-${esc(m.role.replace(/[^a-z]/gi, ''))}"><div class="role">${txt(m.role)}${answers}</div>${content}${calls}</div>`
}

function answerHtml(call: TranscriptCall): string {
  const r = call.response
  if (!r) return '<p class="muted">No answer came back.</p>'
  const text = r.text !== null ? `<pre>${txt(r.text)}</pre>` : ''
  const calls = r.toolCalls
    .map(
      (c) =>
        `<div><span class="muted">tool call</span> <strong>${txt(c.name)}</strong>${c.id ? ` <span class="muted">${txt(c.id)}</span>` : ''}<pre>${txt(c.arguments)}</pre></div>`,
    )
    .join('')
  const finish = r.finishReason ? ` <span class="muted">finish: ${txt(r.finishReason)}</span>` : ''
  return `<div class="answer"><div class="role">answer${finish}</div>${text}${calls}</div>`
}

function agentToolsHtml(t: Transcript): string {
  const rows = t.agentTools.map(
    (s) =>
      `<tr><td class="num">${s.index + 1}</td><td>${txt(s.name)}</td><td class="v">${txt(s.input)}</td>` +
      `<td class="v">${s.error ? `<span class="verdict-bad">${txt(s.error)}</span>` : txt(s.resultPreview)}</td>` +
      `<td class="num">${esc(s.resultChars)}</td><td class="num">${s.ms === null ? '' : esc(Math.round(s.ms))}</td></tr>`,
  )
  return (
    '<div class="scroll"><table data-page-size="50" aria-label="agent tool calls"><thead><tr><th class="num">#</th><th>tool</th><th>input</th>' +
    `<th>result (preview)</th><th class="num">chars</th><th class="num">ms</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`
  )
}

/** What a run without a transcript still has: its record's tool calls and the gateway's trace of each call. */
export function recordTraceHtml(record: RunRecord): string {
  const parts: string[] = []
  if (record.toolCalls.length) {
    const rows = record.toolCalls.map(
      (c, i) =>
        `<tr><td class="num">${i + 1}</td><td>${txt(c.name)}</td><td>${txt(c.source)}${c.call === null ? '' : ` (call ${c.call + 1})`}</td>` +
        `<td class="v">${txt(c.arguments)}</td><td class="num">${c.resultChars === null ? '' : esc(c.resultChars)}</td></tr>`,
    )
    parts.push(
      `<h3>Tool calls (${record.toolCalls.length})</h3><div class="scroll"><table data-page-size="50" aria-label="tool calls"><thead><tr><th class="num">#</th>` +
        `<th>tool</th><th>from</th><th>arguments</th><th class="num">result chars</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`,
    )
  }
  if (record.llmCalls.length) {
    const rows = record.llmCalls.map(
      (c, i) =>
        `<tr><td class="num">${i + 1}</td><td>${txt(c.model ?? '')}</td><td>${txt(c.protocol)}${c.stream ? ' · streamed' : ''}</td><td>${txt(c.cache)}</td>` +
        `<td class="num">${esc(c.status)}</td><td class="num">${esc(c.promptTokens)}</td><td class="num">${esc(c.completionTokens)}</td>` +
        `<td class="num">${esc(Math.round(c.latencyMs))}</td><td>${txt(c.error ?? '')}</td></tr>`,
    )
    parts.push(
      `<h3>Model calls (${record.llmCalls.length}, without messages)</h3><div class="scroll"><table data-page-size="50" aria-label="model calls"><thead><tr>` +
        '<th class="num">#</th><th>model</th><th>protocol</th><th>cache</th><th class="num">status</th><th class="num">in</th><th class="num">out</th>' +
        `<th class="num">ms</th><th>error</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`,
    )
  }
  return parts.join('')
}

/** The last answer text of a transcript: what a question run's model said last. */
export function lastAnswerText(t: Transcript | null): string | null {
  if (!t) return null
  for (let i = t.calls.length - 1; i >= 0; i--) {
    const text = t.calls[i]!.response?.text
    if (text) return text
  }
  return null
}
