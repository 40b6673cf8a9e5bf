import type { Answer } from '../core/answer.js'
import type { DataAgent, DataSession } from '../core/data-agent.js'
import type { Table } from '../core/schemas.js'
import { addUsage, emptyUsage } from '../core/usage.js'
import { withOwnUpstream } from '../gateway/agent-upstream.js'
import { type ChatClient, openChatClient } from './providers/chat-client.js'
import type { ChatMessage } from './providers/chat-types.js'
import { estimateTokens } from './providers/repair-prompt.js'
import { type ProviderAgentOptions, resolveProviderConfig } from './providers/resolve-provider.js'

/** Prompt tokens the tables may take; the rows past it are not shown (and the model is told so). */
const DEFAULT_TABLE_TOKEN_BUDGET = 6000

export interface ModelQaOptions {
  temperature?: number
  maxTokens?: number
  jsonMode?: boolean
  tableTokenBudget?: number
}

const SYSTEM = `You answer questions about the tables below. Reply with one JSON object and nothing else:
{"answer": <a number, a string, or a list of strings>, "refused": false, "explanation": "<one sentence>"}
When the tables cannot answer the question, reply {"refused": true, "explanation": "<why>"}.
When asked for a chart, put a Vega-Lite spec (with inline data values) in "chart" as well.
Numbers go in "answer" as plain numbers, without units, currency signs or thousands separators.`

/** The tables as CSV, head rows only once the budget is spent (with a note saying how many were shown). */
export function renderTables(tables: Record<string, Table>, tokenBudget = DEFAULT_TABLE_TOKEN_BUDGET): string {
  const perTable = Math.max(200, Math.floor(tokenBudget / Math.max(1, Object.keys(tables).length)))
  return Object.entries(tables)
    .map(([name, table]) => {
      const lines = [table.columns.map(csvCell).join(',')]
      let used = estimateTokens(lines[0]!)
      let shown = 0
      for (const row of table.rows) {
        const line = row.map(csvCell).join(',')
        used += estimateTokens(line)
        if (used > perTable) break
        lines.push(line)
        shown++
      }
      const note =
        shown < table.rows.length
          ? ` (first ${shown} of ${table.rows.length} rows shown)`
          : ` (${table.rows.length} rows)`
      return `Table ${name}${note}:\n${lines.join('\n')}`
    })
    .join('\n\n')
}

function csvCell(value: string): string {
  return /[",\n\r]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value
}

/** The model's reply → an Answer; prose that is not the asked-for JSON becomes `text` (graded as prose). */
export function parseModelAnswer(content: string | null, refusal: string | null): Answer {
  if (refusal) return { refused: true, text: refusal }
  const text = (content ?? '').trim()
  const json = firstJsonObject(text)
  if (!json) return { text }
  const answer: Answer = {}
  const value = json.answer
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') answer.value = value
  else if (Array.isArray(value))
    answer.value = value.map((v) => (typeof v === 'string' || typeof v === 'number' ? v : JSON.stringify(v)))
  if (json.refused === true) answer.refused = true
  if (json.chart && typeof json.chart === 'object' && !Array.isArray(json.chart))
    answer.charts = [json.chart as Record<string, unknown>]
  answer.text = typeof json.explanation === 'string' ? json.explanation : text
  return answer
}

function firstJsonObject(text: string): Record<string, unknown> | null {
  const unfenced = text.replace(/^```(?:json)?\s*/i, '').replace(/\s*```$/, '')
  for (const candidate of [unfenced, unfenced.slice(unfenced.indexOf('{'), unfenced.lastIndexOf('}') + 1)]) {
    try {
      const parsed: unknown = JSON.parse(candidate)
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>
    } catch {
      // not JSON: try the next candidate
    }
  }
  return null
}

/**
 * A simple model-backed question answerer: the tables go into the system prompt (head rows once a table is
 * past the token budget), the conversation is kept across questions, and each reply is one JSON answer.
 * No tools: it cannot compute over rows it was not shown, which is what the large suite's trap measures.
 */
export function createModelQaAgent(client: ChatClient, opts: ModelQaOptions = {}): DataAgent {
  const agent: DataAgent = {
    name: client.agent,
    kind: 'model',
    model: client.model,
    provider: client.provider,
    session(tables, ctx): DataSession {
      const messages: ChatMessage[] = [
        { role: 'system', content: `${SYSTEM}\n\n${renderTables(tables, opts.tableTokenBudget)}` },
      ]
      return {
        async ask(question, askCtx) {
          messages.push({ role: 'user', content: question })
          const reply = await client.chat(
            {
              messages: [...messages],
              ...(opts.temperature !== undefined ? { temperature: opts.temperature } : {}),
              ...(opts.maxTokens !== undefined ? { maxTokens: opts.maxTokens } : {}),
              ...(opts.jsonMode ? { jsonMode: true } : {}),
            },
            {
              trial: 0,
              seed: ctx.seed,
              ...(askCtx?.signal ? { signal: askCtx.signal } : {}),
              caseId: question.slice(0, 80),
              ...(ctx.llm ? { llm: ctx.llm } : {}),
            },
          )
          messages.push(reply.message)
          // On the harness's trial (ctx.llm) the gateway counts the call; the answer reports none.
          const usage = ctx.llm ? {} : { usage: addUsage(emptyUsage(), reply.usage) }
          return {
            ...parseModelAnswer(reply.content, reply.refusal),
            ...usage,
            steps: 1,
            model: reply.model || client.model,
          }
        },
      }
    },
  }
  return withOwnUpstream(agent, client.llm)
}

/** A model-backed QA agent over a provider preset (`openrouter`, `openai-compatible`…); key and URL checked now. */
export function createProviderQaAgent(preset: string, opts: ProviderAgentOptions & ModelQaOptions = {}): DataAgent {
  return createModelQaAgent(openChatClient(resolveProviderConfig(preset, opts)), opts)
}
