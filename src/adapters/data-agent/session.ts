import type { Answer } from '../../core/answer.js'
import type { DataSession } from '../../core/data-agent.js'
import { AgentFailure } from '../../core/errors.js'
import type { LlmAccess } from '../../core/llm.js'
import { emptyUsage } from '../../core/usage.js'
import { type Table, TableSchema } from '../../core/schemas.js'
import type { ChatClient } from '../providers/chat-client.js'
import type { Clock } from '../../gateway/clock.js'
import { secondsPhrase } from '../../stats/number-format.js'
import type { ChatMessage, ChatTool, ToolCall } from '../providers/chat-types.js'
import { buildChart } from './chart.js'
import { type DataEngine, ident, type QueryResult, ToolError } from './engine.js'
import { ANSWER_REMINDER } from './prompt.js'
import { addStepUsage, countCall, DataAgentFailure, newTurnStats, statsMetrics, type TurnStats } from './stats.js'
import { argsProblem, TOOL_ARGS, TOOL_NAMES, type ToolArgs, type ToolName } from './tools.js'
import { isPlainObject } from '../../core/is-plain-object.js'
import { noteAgentTool } from '../../gateway/agent-tools.js'

/** What a transcript shows as a tool's input: its SQL when it has one, else the arguments as the model sent them. */
function toolInput(call: ToolCall): string {
  const args = call.parsedArguments
  const query = isPlainObject(args) ? args['query'] : undefined
  return typeof query === 'string' && Object.keys(args as object).length === 1 ? query : call.arguments
}

function errorOf(content: string): string {
  try {
    const error = (JSON.parse(content) as { error?: unknown }).error
    return typeof error === 'string' ? error : content
  } catch {
    return content
  }
}

/** Rows a table answer (`answer(result=…)`) may hold. */
const MAX_ANSWER_ROWS = 10_000

export interface SessionLimits {
  maxSteps: number
  maxTokensPerStep: number
  timeoutMs: number
  maxRows: number
  sampleRows: number
  /** Bytes a tool result may take (see `capRows`). */
  maxResultBytes: number
  temperature?: number
}

interface SessionSetup {
  /** Times each question (`limits.timeoutMs`). */
  clock: Clock
  agentName: string
  client: ChatClient
  engine: DataEngine
  tools: ChatTool[]
  systemPrompt: string
  limits: SessionLimits
  seed: number
  trial: number
  /** The harness's gateway trial: the calls count for it, and the answers and failures report no usage of their own. */
  llm?: LlmAccess
}

export interface AskContext {
  signal?: AbortSignal
  /** Named in record/replay cache-miss errors; default the turn number and question. */
  caseId?: string
}

interface ToolOutcome {
  content: string
  answer?: Answer
}

/**
 * One conversation: the chat history and the database persist across questions. Each question runs the
 * tool-calling loop until the model calls `answer`, the step limit is reached (`no_answer`) or the question's
 * time runs out (`timeout`). Tool mistakes go back to the model as tool errors; a failed question leaves a
 * valid history behind, so later questions still work.
 */
export class DataAgentSession implements DataSession {
  private readonly messages: ChatMessage[]
  private turn = 0
  private busy = false
  private closed = false
  private stats: TurnStats | undefined

  constructor(private readonly setup: SessionSetup) {
    this.messages = [{ role: 'system', content: setup.systemPrompt }]
  }

  /** The database behind this session (for inspection in tests and tools built on top). */
  get engine(): DataEngine {
    return this.setup.engine
  }

  /** Counters of the last question asked, answered or failed. */
  get lastStats(): TurnStats | undefined {
    return this.stats
  }

  async ask(question: string, ctx: AskContext = {}): Promise<Answer> {
    if (this.closed) throw new Error(`${this.setup.agentName}: the session is closed`)
    if (this.busy) throw new Error(`${this.setup.agentName}: one question at a time per session`)
    this.busy = true
    this.turn++
    const stats = newTurnStats()
    this.stats = stats
    const historyLength = this.messages.length
    this.messages.push({ role: 'user', content: question })
    const { timeoutMs } = this.setup.limits
    const timer = new AbortController()
    const answered = new AbortController()
    this.setup.clock.sleep(timeoutMs, answered.signal).then(
      () => timer.abort(new Error(`no answer within ${secondsPhrase(timeoutMs / 1000)}`)),
      () => undefined,
    )
    const signal = ctx.signal ? AbortSignal.any([ctx.signal, timer.signal]) : timer.signal
    const interrupt = () => this.setup.engine.interrupt()
    signal.addEventListener('abort', interrupt, { once: true })
    const caseId = ctx.caseId ?? `question ${this.turn}: ${question.slice(0, 80)}`
    try {
      return await this.loop(stats, signal, caseId)
    } catch (error) {
      const failure = this.failureOf(error, stats, signal)
      // Whatever was half done (tool calls without results) goes; the question and the failure stay.
      this.messages.length = historyLength
      this.messages.push(
        { role: 'user', content: question },
        { role: 'assistant', content: `(no answer: ${failure.kind})` },
      )
      throw failure
    } finally {
      answered.abort()
      signal.removeEventListener('abort', interrupt)
      this.busy = false
    }
  }

  async close(): Promise<void> {
    this.closed = true
    this.setup.engine.close()
    // A query the question's timeout interrupted is stopped before the session counts as closed.
    await this.setup.engine.whenClosed()
  }

  private async loop(stats: TurnStats, signal: AbortSignal, caseId: string): Promise<Answer> {
    const { client, limits, tools } = this.setup
    const charts: Array<Record<string, unknown>> = []
    const extra: { maxTokens: number; temperature?: number } = { maxTokens: limits.maxTokensPerStep }
    if (limits.temperature !== undefined) extra.temperature = limits.temperature
    for (let step = 0; step < limits.maxSteps; step++) {
      const { llm } = this.setup
      const reply = await client.chatWithTools(
        this.messages,
        tools,
        { trial: this.setup.trial, seed: this.setup.seed, signal, caseId, ...(llm ? { llm } : {}) },
        extra,
      )
      addStepUsage(stats, llm ? emptyUsage() : reply.usage)
      stats.warnings.push(...reply.warnings)
      if (reply.usage.completionTokens > limits.maxTokensPerStep) {
        stats.warnings.push(
          `step ${stats.steps}: ${reply.usage.completionTokens} completion tokens, over the cap of ${limits.maxTokensPerStep}`,
        )
      }
      this.messages.push(reply.message)
      if (reply.toolCalls.length === 0) {
        stats.textReplies++
        this.messages.push({ role: 'user', content: ANSWER_REMINDER })
        continue
      }
      let answer: Answer | undefined
      for (const call of reply.toolCalls) {
        // Every call gets a result, so the history stays valid for the next question.
        const outcome = answer
          ? { content: JSON.stringify({ skipped: 'the turn already ended with answer' }) }
          : await this.runNoted(call, stats, charts)
        this.messages.push({ role: 'tool', tool_call_id: call.id, content: outcome.content })
        answer ??= outcome.answer
      }
      if (signal.aborted) throw signal.reason
      if (answer)
        return {
          ...answer,
          ...(this.setup.llm ? {} : { usage: stats.usage }),
          steps: stats.steps,
          model: client.model,
          metrics: statsMetrics(stats),
        }
    }
    const calls = Object.values(stats.toolCalls).reduce((a, b) => a + b, 0)
    throw new DataAgentFailure(
      'no_answer',
      `${this.setup.agentName} (${client.model}): no answer after ${stats.steps} steps ` +
        `(${calls} tool calls, ${stats.toolErrors} tool errors, ${stats.textReplies} replies without a tool call)`,
      stats,
    )
  }

  /** Runs a tool and notes it on the harness's trial (its transcript's agent steps, the record's tool calls). */
  private async runNoted(
    call: ToolCall,
    stats: TurnStats,
    charts: Array<Record<string, unknown>>,
  ): Promise<ToolOutcome> {
    const started = performance.now()
    const errors = stats.toolErrors
    const outcome = await this.runTool(call, stats, charts)
    const failed = stats.toolErrors > errors
    noteAgentTool(this.setup.llm, {
      name: call.name,
      input: toolInput(call),
      result: outcome.content,
      error: failed ? errorOf(outcome.content) : null,
      ms: Math.round((performance.now() - started) * 1000) / 1000,
      callId: call.id,
    })
    return outcome
  }

  private async runTool(
    call: ToolCall,
    stats: TurnStats,
    charts: Array<Record<string, unknown>>,
  ): Promise<ToolOutcome> {
    const malformed = (message: string): ToolOutcome => {
      stats.malformedToolCalls++
      stats.toolErrors++
      return { content: JSON.stringify({ error: message }) }
    }
    if (!(TOOL_NAMES as readonly string[]).includes(call.name)) {
      return malformed(`unknown tool ${JSON.stringify(call.name)}; the tools are ${TOOL_NAMES.join(', ')}`)
    }
    const name = call.name as ToolName
    countCall(stats, name)
    if (call.argumentsError) return malformed(call.argumentsError)
    const parsed = TOOL_ARGS[name].safeParse(call.parsedArguments ?? {})
    if (!parsed.success) return malformed(`${name}: ${argsProblem(parsed.error)}`)
    try {
      return await this.execute(name, parsed.data, charts)
    } catch (error) {
      if (!(error instanceof ToolError)) throw error
      stats.toolErrors++
      return { content: JSON.stringify({ error: error.message }) }
    }
  }

  private async execute(name: ToolName, args: unknown, charts: Array<Record<string, unknown>>): Promise<ToolOutcome> {
    const { engine, limits } = this.setup
    switch (name) {
      case 'list_tables': {
        const { include_saved } = args as ToolArgs<'list_tables'>
        const shown = engine.list().filter((r) => include_saved !== false || r.kind === 'table')
        return json({
          tables: shown.map((r) => ({ name: r.name, kind: r.kind, rows: r.rows, columns: r.columns.length })),
        })
      }
      case 'describe': {
        const { table } = args as ToolArgs<'describe'>
        const info = engine.relation(table)
        const head = await engine.head(table, limits.sampleRows)
        const capped = capRows(head.rows, limits.maxResultBytes)
        return json({
          table: info.name,
          kind: info.kind,
          rows: info.rows,
          columns: info.columns,
          sample: capped.rows,
          note: `the sample is the first ${capped.rows.length} of ${info.rows} rows; compute answers with sql${capped.note}`,
        })
      }
      case 'sql': {
        const { query } = args as ToolArgs<'sql'>
        return json(resultJson(await engine.query(query, limits.maxRows), limits.maxResultBytes))
      }
      case 'save': {
        const { name: saved, query } = args as ToolArgs<'save'>
        const info = await engine.save(saved, query)
        return json({ saved: info.name, rows: info.rows, columns: info.columns })
      }
      case 'chart': {
        const { spec, query } = args as ToolArgs<'chart'>
        const chart = await buildChart(engine, specObject(spec), query)
        charts.push(chart.spec)
        return json({
          ok: true,
          marks: chart.marks,
          channels: chart.channels,
          rows: chart.rows,
          note: 'attached to your answer',
        })
      }
      case 'answer': {
        const answer = await this.answerOf(args as ToolArgs<'answer'>)
        if (charts.length > 0) answer.charts = charts
        return { content: JSON.stringify({ ok: true }), answer }
      }
    }
  }

  private async answerOf(args: ToolArgs<'answer'>): Promise<Answer> {
    let value: unknown = typeof args.value === 'string' ? fromJsonText(args.value) : args.value
    if (args.result !== undefined) {
      if (value !== undefined) throw new ToolError('answer: give value or result, not both')
      const { engine } = this.setup
      engine.relation(args.result)
      const rows = await engine.query(`SELECT * FROM ${ident(args.result)}`, MAX_ANSWER_ROWS)
      if (rows.truncated)
        throw new ToolError(`answer: ${args.result} has ${rows.rowCount} rows, over the ${MAX_ANSWER_ROWS}-row limit`)
      value = tableOf(rows)
    } else if (isPlainObject(value)) {
      value = tableValue(value as Record<string, unknown>)
    }
    const answer: Answer = { text: args.text ?? '' }
    if (value !== undefined) answer.value = value as Answer['value']
    if (args.refused) answer.refused = true
    return answer
  }

  private failureOf(error: unknown, stats: TurnStats, signal: AbortSignal): AgentFailure {
    if (error instanceof DataAgentFailure) return error
    const who = `${this.setup.agentName} (${this.setup.client.model})`
    if (error instanceof AgentFailure) {
      // The client's message already names the agent; its kind (rate_limited, cache_miss…) is kept.
      return new DataAgentFailure(error.kind, error.message, stats)
    }
    if (signal.aborted) {
      const reason = signal.reason instanceof Error ? signal.reason.message : String(signal.reason)
      return new DataAgentFailure('timeout', `${who}: ${reason}`, stats)
    }
    const message = error instanceof Error ? error.message : String(error)
    return new DataAgentFailure('exception', `${who}: ${message}`, stats)
  }
}

/** JSON text as its value; anything that is not JSON stays the string it is (`Cara`, `02139`). */
function fromJsonText(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

function specObject(spec: string | Record<string, unknown>): Record<string, unknown> {
  if (typeof spec !== 'string') return spec
  const parsed = fromJsonText(spec)
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ToolError('chart: spec must be a Vega-Lite spec, a JSON object (as text or as an object)')
  }
  return parsed as Record<string, unknown>
}

function json(value: unknown): ToolOutcome {
  return { content: JSON.stringify(value) }
}

function resultJson(result: QueryResult, maxBytes: number): Record<string, unknown> {
  const capped = capRows(result.rows, maxBytes)
  const out: Record<string, unknown> = {
    columns: result.columns.map((c) => c.name),
    types: result.columns.map((c) => c.type),
    rows: capped.rows,
    rowCount: result.rowCount,
  }
  if (result.truncated || capped.rows.length < result.rows.length) {
    out['truncated'] = true
    out['note'] =
      `showing the first ${capped.rows.length} of ${result.rowCount} rows; aggregate or filter in SQL, or save the result and query it`
  }
  if (capped.note) out['note'] = `${out['note'] ?? `all ${result.rowCount} rows`}${capped.note}`
  return out
}

/**
 * Rows cut to fit `maxBytes` of JSON, for what goes to the model (the question's answer is never cut): a text
 * cell longer than a quarter of the cap keeps its start and says how much was cut; rows past the cap are left
 * out. A 50 MB cell costs the model's context at most the cap. `note` says what was cut ('' when nothing was).
 */
export function capRows(rows: unknown[][], maxBytes: number): { rows: unknown[][]; note: string } {
  const cellCap = Math.max(64, Math.floor(maxBytes / 4))
  let cutCells = 0
  const kept: unknown[][] = []
  let bytes = 2
  for (const row of rows) {
    const shown = row.map((value) => {
      if (typeof value !== 'string' || value.length <= cellCap) return value
      cutCells++
      return `${value.slice(0, cellCap)}… [cut: ${value.length} characters in all]`
    })
    const size = Buffer.byteLength(JSON.stringify(shown)) + 1
    if (bytes + size > maxBytes && kept.length > 0) break
    if (bytes + size > maxBytes) {
      // Even one row is too wide (many columns): nothing of it fits.
      return {
        rows: [],
        note: `; the rows are wider than the ${maxBytes}-byte result limit: select fewer or shorter columns`,
      }
    }
    kept.push(shown)
    bytes += size
  }
  const notes: string[] = []
  if (cutCells > 0) notes.push(`${cutCells} long text cell(s) cut to ${cellCap} characters`)
  if (kept.length < rows.length) notes.push(`rows cut at the ${maxBytes}-byte result limit`)
  return { rows: kept, note: notes.length ? `; ${notes.join('; ')}` : '' }
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return ''
  return typeof value === 'object' ? JSON.stringify(value) : String(value)
}

function tableOf(result: QueryResult): Table {
  return { columns: result.columns.map((c) => c.name), rows: result.rows.map((row) => row.map(cell)) }
}

/** An object answer must be a table; its cells become strings, as in every Table. */
function tableValue(value: Record<string, unknown>): Table {
  const columns = value['columns']
  const rows = value['rows']
  if (!Array.isArray(columns) || !Array.isArray(rows) || !rows.every(Array.isArray)) {
    throw new ToolError('answer: an object value must be a table {columns: [...], rows: [[...], ...]}')
  }
  const table = { columns: columns.map(cell), rows: (rows as unknown[][]).map((row) => row.map(cell)) }
  const parsed = TableSchema.safeParse(table)
  if (!parsed.success) throw new ToolError(`answer: the table value is not valid: ${argsProblem(parsed.error)}`)
  return parsed.data
}
