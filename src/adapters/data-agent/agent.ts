import type { DataAgent } from '../../core/data-agent.js'
import { InputError } from '../../core/errors.js'
import type { LlmAccess } from '../../core/llm.js'
import { withOwnUpstream } from '../../gateway/agent-upstream.js'
import type { ChatClient } from '../providers/chat-client.js'
import { type Clock, realClock } from '../../gateway/clock.js'
import { DataEngine, type EngineOptions, type TableSource } from './engine.js'
import { defaultSystemPrompt } from './prompt.js'
import { DataAgentSession, type SessionLimits } from './session.js'
import { toolDefinitions } from './tools.js'

export interface ToolDataAgentOptions {
  /** The provider client (rate limits, 429 backoff, accounting, record/replay): `createChatClient(...)`. */
  client: ChatClient
  /** The model id; must match the client's (the client is bound to one model). Default the client's. */
  model?: string
  /** Shown in reports; default `data-agent`. */
  name?: string
  /** Model calls per question before it fails as `no_answer`. Default 16. */
  maxSteps?: number
  /** Sent as `max_tokens` on every call. Default 1024. */
  maxTokensPerStep?: number
  /** Per question, all steps together; past it the question fails as `timeout`. Default 120 s. */
  timeoutMs?: number
  /** Rows an `sql` result shows before it is truncated. Default 50. */
  maxRows?: number
  /** Sample rows `describe` shows. Default 5. */
  sampleRows?: number
  /**
   * Bytes (UTF-8 JSON) a tool result sent to the model may take. Longer cells are cut (the cut is said in the
   * cell) and rows past the cap are dropped with a note. Default 32768.
   */
  maxResultBytes?: number
  temperature?: number
  /** Replaces the default system prompt. */
  systemPrompt?: string
  engine?: EngineOptions
  /** What times `timeoutMs`; tests pass a clock they control. Default the real one. */
  clock?: Clock
}

export interface ToolDataAgent extends DataAgent {
  kind: 'model'
  model: string
  provider: string
  /** Tables may also be CSV or Parquet files (`{ csv: path }`, `{ parquet: path }`), typed by DuckDB. */
  /** `ctx.llm`: the harness's gateway trial; the gateway then counts the session's calls and the answers report none. */
  session(
    tables: Record<string, TableSource>,
    ctx: { seed: number; trial?: number; llm?: LlmAccess },
  ): Promise<DataAgentSession>
  /** Kept for callers that close agents: the client holds no connections of its own. */
  close(): Promise<void>
}

/**
 * A tool-calling data agent: the model sees schemas and a few sample rows, computes through read-only SQL
 * on an embedded DuckDB database (one per session), saves named results, validates charts and ends each
 * question with `answer`. Limits and failures: `maxSteps` (then `no_answer`), `maxTokensPerStep`,
 * `timeoutMs` per question; malformed tool calls go back to the model as tool errors and are counted.
 */
export function createDataAgent(opts: ToolDataAgentOptions): ToolDataAgent {
  const { client } = opts
  if (!client || typeof client.chatWithTools !== 'function')
    throw new InputError('createDataAgent(): option client must be a chat client')
  if (opts.model !== undefined && opts.model !== client.model) {
    throw new InputError(
      `createDataAgent(): option model "${opts.model}" differs from the client's model "${client.model}"`,
    )
  }
  const limits: SessionLimits = {
    maxSteps: positiveInteger('maxSteps', opts.maxSteps, 16),
    maxTokensPerStep: positiveInteger('maxTokensPerStep', opts.maxTokensPerStep, 1024),
    timeoutMs: positiveInteger('timeoutMs', opts.timeoutMs, 120_000),
    maxRows: positiveInteger('maxRows', opts.maxRows, 50),
    sampleRows: positiveInteger('sampleRows', opts.sampleRows, 5),
    maxResultBytes: positiveInteger('maxResultBytes', opts.maxResultBytes, 32_768),
  }
  if (opts.temperature !== undefined) limits.temperature = opts.temperature
  const name = opts.name ?? 'data-agent'
  const tools = toolDefinitions(limits)
  const systemPrompt = opts.systemPrompt ?? defaultSystemPrompt(limits)
  const agent: ToolDataAgent = {
    name,
    kind: 'model',
    model: client.model,
    provider: client.provider,
    async session(tables, ctx) {
      const engine = await DataEngine.open(tables, opts.engine)
      return new DataAgentSession({
        clock: opts.clock ?? realClock,
        agentName: name,
        client,
        engine,
        tools,
        systemPrompt,
        limits,
        seed: ctx?.seed ?? 0,
        trial: ctx?.trial ?? 0,
        ...(ctx?.llm ? { llm: ctx.llm } : {}),
      })
    },
    close: () => client.close(),
  }
  return withOwnUpstream(agent, client.llm)
}

function positiveInteger(option: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback
  if (!Number.isInteger(value) || value <= 0)
    throw new InputError(`createDataAgent(): option ${option} must be a positive integer, got ${value}`)
  return value
}
