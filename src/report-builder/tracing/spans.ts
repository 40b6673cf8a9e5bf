import type { Attributes, SpanKind, Tracer, trace as traceApi, ROOT_CONTEXT } from '@opentelemetry/api'
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base'
import type { LlmCall } from '../../core/llm.js'
import type { RunRecord } from '../../core/run-record.js'
import type { RecordToolCall } from '../../core/transcript.js'

/**
 * One trace per run (trial, or conversation turn): an `invoke_agent` span with a child span per model call
 * (`chat <model>`) and per tool call (`execute_tool <tool>`), named and attributed per the OpenTelemetry GenAI
 * semantic conventions. Built from RunRecords alone, so what a span holds is what a record holds: never a key,
 * a header, a message, a tool's arguments or result, a failure message or a validation error (either may quote
 * an expected value).
 */

/** What the span builder needs of `@opentelemetry/api`, handed in so this module loads none of it. */
export interface OtelApi {
  trace: typeof traceApi
  ROOT_CONTEXT: typeof ROOT_CONTEXT
  SpanKind: typeof SpanKind
  SpanStatusCode: { ERROR: number; OK: number }
}

/** The GenAI attribute names (`@opentelemetry/semantic-conventions/incubating`). */
export interface GenAiNames {
  ATTR_GEN_AI_OPERATION_NAME: string
  ATTR_GEN_AI_AGENT_NAME: string
  ATTR_GEN_AI_REQUEST_MODEL: string
  ATTR_GEN_AI_PROVIDER_NAME: string
  ATTR_GEN_AI_USAGE_INPUT_TOKENS: string
  ATTR_GEN_AI_USAGE_OUTPUT_TOKENS: string
  ATTR_GEN_AI_TOOL_NAME: string
  ATTR_GEN_AI_TOOL_TYPE: string
  ATTR_GEN_AI_REQUEST_STREAM: string
  ATTR_GEN_AI_EVALUATION_NAME: string
  ATTR_GEN_AI_EVALUATION_SCORE_VALUE: string
  ATTR_GEN_AI_EVALUATION_SCORE_LABEL: string
  ATTR_ERROR_TYPE: string
}

/** Metrics carried on a trial's span at the most (a record may hold hundreds of counters). */
const MAX_METRICS = 64

/** The gen_ai.provider.name of a call: the record's provider when it names one, else the wire protocol's. */
function providerOf(record: RunRecord, call: LlmCall | null): string | null {
  if (record.provider && record.provider !== 'openai-compatible' && record.provider !== 'custom') return record.provider
  if (call?.protocol === 'anthropic-messages') return 'anthropic'
  if (call?.protocol === 'openai-chat' || call?.protocol === 'openai-responses') return 'openai'
  return record.provider
}

function put(attrs: Attributes, name: string, value: string | number | boolean | null | undefined): void {
  if (value !== null && value !== undefined) attrs[name] = value
}

/** When a run started and ended, in ms since the epoch: its own start, else the end its date and duration give. */
function runWindow(record: RunRecord): { start: number; end: number } {
  const own = record.startedAt ? Date.parse(record.startedAt) : Number.NaN
  const durationMs = record.runtimeS * 1000
  const start = Number.isFinite(own) ? own : Date.parse(record.runDateUtc) - durationMs
  const firstCall = record.llmCalls.reduce(
    (min, c) => (c.startedAtMs !== null && c.startedAtMs < min ? c.startedAtMs : min),
    start,
  )
  const lastEnd = record.llmCalls.reduce(
    (max, c) => (c.startedAtMs !== null ? Math.max(max, c.startedAtMs + c.latencyMs) : max),
    start + durationMs,
  )
  return { start: Math.min(start, firstCall), end: lastEnd }
}

/** Each model call's window: its own start when kept, else laid end to end from the run's start. */
function callWindows(record: RunRecord, runStart: number): Array<{ start: number; end: number }> {
  let cursor = runStart
  return record.llmCalls.map((c) => {
    const start = c.startedAtMs ?? cursor
    cursor = start + c.latencyMs
    return { start, end: cursor }
  })
}

/** A tool call runs after the model call that asked for it and before the next one; the harness does not time tools. */
function toolWindow(
  tool: RecordToolCall,
  calls: ReadonlyArray<{ start: number; end: number }>,
  runEnd: number,
): { start: number; end: number } {
  if (tool.call === null || !calls[tool.call]) return { start: runEnd, end: runEnd }
  const start = calls[tool.call]!.end
  const next = calls[tool.call + 1]
  return { start, end: Math.max(start, next ? next.start : runEnd) }
}

/** Builds the spans of one run with `tracer`; they reach the tracer provider's span processor as they end. */
export function runSpans(api: OtelApi, names: GenAiNames, tracer: Tracer, record: RunRecord): void {
  const window = runWindow(record)
  const attrs: Attributes = {
    [names.ATTR_GEN_AI_OPERATION_NAME]: 'invoke_agent',
    [names.ATTR_GEN_AI_AGENT_NAME]: record.agent,
    [names.ATTR_GEN_AI_USAGE_INPUT_TOKENS]: record.usage.promptTokens,
    [names.ATTR_GEN_AI_USAGE_OUTPUT_TOKENS]: record.usage.completionTokens,
    'dataforge.case.id': record.caseId,
    'dataforge.suite': record.suite,
    'dataforge.dataset': record.dataset,
    'dataforge.trial': record.trial,
    'dataforge.seed': record.seed,
    'dataforge.agent.kind': record.agentKind,
    'dataforge.status': record.status,
    'dataforge.steps': record.steps,
    'dataforge.cached': record.cached,
  }
  put(attrs, names.ATTR_GEN_AI_REQUEST_MODEL, record.model)
  put(attrs, names.ATTR_GEN_AI_PROVIDER_NAME, providerOf(record, record.llmCalls[0] ?? null))
  put(attrs, 'dataforge.turn', record.turn)
  put(attrs, 'dataforge.category', record.category)
  put(attrs, 'dataforge.correct', record.correct)
  put(attrs, 'dataforge.f1', record.f1)
  put(attrs, 'dataforge.failure.kind', record.failureKind)
  if (record.status === 'failed') put(attrs, names.ATTR_ERROR_TYPE, record.failureKind ?? 'failed')
  for (const name of Object.keys(record.metrics).sort().slice(0, MAX_METRICS))
    attrs[`dataforge.metric.${name}`] = record.metrics[name]!
  const root = tracer.startSpan(
    `invoke_agent ${record.agent}`,
    { kind: api.SpanKind.INTERNAL, startTime: window.start, attributes: attrs },
    api.ROOT_CONTEXT,
  )
  if (record.correct !== null) {
    root.addEvent(
      'gen_ai.evaluation.result',
      {
        [names.ATTR_GEN_AI_EVALUATION_NAME]: 'dataforge.correct',
        [names.ATTR_GEN_AI_EVALUATION_SCORE_VALUE]: record.f1 ?? (record.correct ? 1 : 0),
        [names.ATTR_GEN_AI_EVALUATION_SCORE_LABEL]: record.correct ? 'correct' : 'incorrect',
      },
      window.end,
    )
  }
  const parent = api.trace.setSpan(api.ROOT_CONTEXT, root)
  const windows = callWindows(record, window.start)
  record.llmCalls.forEach((call, index) => {
    const span = tracer.startSpan(
      `chat${call.model ? ` ${call.model}` : ''}`,
      {
        kind: api.SpanKind.CLIENT,
        startTime: windows[index]!.start,
        attributes: callAttributes(names, record, call, index),
      },
      parent,
    )
    if (call.error !== null || call.status >= 400)
      span.setStatus({ code: api.SpanStatusCode.ERROR, message: `HTTP ${call.status}` })
    span.end(windows[index]!.end)
  })
  record.toolCalls.forEach((tool, index) => {
    const at = toolWindow(tool, windows, window.end)
    const toolAttrs: Attributes = {
      [names.ATTR_GEN_AI_OPERATION_NAME]: 'execute_tool',
      [names.ATTR_GEN_AI_TOOL_NAME]: tool.name,
      [names.ATTR_GEN_AI_TOOL_TYPE]: 'function',
      'dataforge.tool.index': index,
      'dataforge.tool.source': tool.source,
    }
    put(toolAttrs, 'dataforge.tool.model_call', tool.call)
    put(toolAttrs, 'dataforge.tool.result_chars', tool.resultChars)
    tracer
      .startSpan(
        `execute_tool ${tool.name}`,
        { kind: api.SpanKind.INTERNAL, startTime: at.start, attributes: toolAttrs },
        parent,
      )
      .end(at.end)
  })
  if (record.status === 'failed')
    root.setStatus({ code: api.SpanStatusCode.ERROR, message: record.failureKind ?? 'failed' })
  root.end(window.end)
}

function callAttributes(names: GenAiNames, record: RunRecord, call: LlmCall, index: number): Attributes {
  const attrs: Attributes = {
    [names.ATTR_GEN_AI_OPERATION_NAME]: 'chat',
    [names.ATTR_GEN_AI_USAGE_INPUT_TOKENS]: call.promptTokens,
    [names.ATTR_GEN_AI_USAGE_OUTPUT_TOKENS]: call.completionTokens,
    [names.ATTR_GEN_AI_REQUEST_STREAM]: call.stream,
    'http.response.status_code': call.status,
    'url.path': call.path,
    'dataforge.call.index': index,
    'dataforge.call.protocol': call.protocol,
    'dataforge.call.cache': call.cache,
  }
  put(attrs, names.ATTR_GEN_AI_REQUEST_MODEL, call.model)
  put(attrs, names.ATTR_GEN_AI_PROVIDER_NAME, providerOf(record, call))
  if (call.error !== null || call.status >= 400)
    attrs[names.ATTR_ERROR_TYPE] = call.status === 499 ? 'cancelled' : String(call.status)
  return attrs
}

export type { ReadableSpan }
