import { createHash } from 'node:crypto'
import type { ProviderHandler, ProviderReply, ProviderRequest } from './fake-llm-upstream.js'

// A model that calls a tool, on the three wire protocols the frameworks speak (OpenAI chat completions, the
// Responses API, Anthropic messages), JSON and streamed, as the providers send them: argument deltas in pieces,
// usage where each protocol puts it. Stateless and deterministic: each request is answered from what it carries.
//   - no tool result in the conversation yet: it calls the first tool offered with TOOL_ARGS;
//   - a tool result: it answers with text made from that result (`finalText`), so an answer shows the tool ran;
//   - no tool offered: it answers `echo:` and the last user text reversed.

/** The arguments of every tool call the model makes. */
export const TOOL_ARGS = { offset: 0, limit: 3 }

type Json = Record<string, unknown>

/**
 * The model's last answer, from the tool's output: a repair of the first row the tool returned (a JSON list of
 * `{ row, ...cells }`), its first cell marked `<value>-checked`; or `no rows` when the output holds none.
 */
export function finalText(toolOutput: string): string {
  let rows: unknown = toolOutput
  for (let i = 0; i < 2 && typeof rows === 'string'; i++) {
    try {
      rows = JSON.parse(rows)
    } catch {
      break
    }
  }
  const first = Array.isArray(rows) ? (rows[0] as Json | undefined) : undefined
  const column = first ? Object.keys(first).find((k) => k !== 'row') : undefined
  if (!first || !column) return 'no rows'
  return JSON.stringify({ fixes: [{ row: first['row'], column, value: `${String(first[column])}-checked` }] })
}

const sse = (data: unknown, event?: string) =>
  `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`
const halves = (text: string): [string, string] => [
  text.slice(0, Math.ceil(text.length / 2)),
  text.slice(Math.ceil(text.length / 2)),
]
const textOf = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content.map((p) => (p as Json)['text'] ?? '').join('')
      : ''

interface Turn {
  model: string
  /** The first tool offered, if any. */
  tool: string | null
  /** The last tool result, if any. */
  toolOutput: string | null
  lastUserText: string
  promptTokens: number
}

function turnOf(
  request: ProviderRequest,
  items: Json[],
  toolName: (t: Json) => unknown,
  toolOutput: (item: Json) => string | null,
): Turn {
  const body = request.body ?? {}
  const tools = (body['tools'] ?? []) as Json[]
  const outputs = items.map(toolOutput).filter((o): o is string => o !== null)
  const user = items.filter((m) => m['role'] === 'user').at(-1)
  return {
    model: typeof body['model'] === 'string' ? body['model'] : 'unknown',
    tool: tools.length > 0 ? String(toolName(tools[0]!)) : null,
    toolOutput: outputs.at(-1) ?? null,
    lastUserText: typeof body['input'] === 'string' ? body['input'] : textOf(user?.['content']),
    promptTokens: Math.ceil(JSON.stringify(body).length / 4),
  }
}

/** What the model says this turn: a tool call (name, arguments) or text. */
function decide(turn: Turn): { call: { name: string; args: string } } | { text: string } {
  if (turn.toolOutput !== null) return { text: finalText(turn.toolOutput) }
  if (turn.tool) return { call: { name: turn.tool, args: JSON.stringify(TOOL_ARGS) } }
  return { text: `echo:${turn.lastUserText.split('').reverse().join('')}` }
}

/** Ids made from the request: the same request gets the same answer, as a recording of it replays it. */
const idOf = (request: ProviderRequest, prefix: string) =>
  `${prefix}_${createHash('sha256').update(JSON.stringify(request.body)).digest('hex').slice(0, 12)}`

function chat(request: ProviderRequest): ProviderReply {
  const body = request.body ?? {}
  const messages = (body['messages'] ?? []) as Json[]
  const turn = turnOf(
    request,
    messages,
    (t) => (t['function'] as Json)['name'],
    (m) => (m['role'] === 'tool' ? textOf(m['content']) : null),
  )
  const said = decide(turn)
  const completion = 'call' in said ? said.call.args.length : said.text.length
  const usage = {
    prompt_tokens: turn.promptTokens,
    completion_tokens: completion,
    total_tokens: turn.promptTokens + completion,
  }
  const callId = idOf(request, 'call')
  const finish = 'call' in said ? 'tool_calls' : 'stop'
  if (body['stream'] !== true) {
    const message =
      'call' in said
        ? {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: callId, type: 'function', function: { name: said.call.name, arguments: said.call.args } },
            ],
          }
        : { role: 'assistant', content: said.text }
    return {
      json: {
        id: 'chatcmpl-t',
        object: 'chat.completion',
        created: 1,
        model: turn.model,
        choices: [{ index: 0, message, finish_reason: finish }],
        usage,
      },
    }
  }
  const base = { id: 'chatcmpl-t', object: 'chat.completion.chunk', created: 1, model: turn.model }
  const chunk = (delta: Json, finishReason: string | null = null) =>
    sse({ ...base, choices: [{ index: 0, delta, finish_reason: finishReason }] })
  const pieces =
    'call' in said
      ? [
          chunk({
            role: 'assistant',
            content: null,
            tool_calls: [{ index: 0, id: callId, type: 'function', function: { name: said.call.name, arguments: '' } }],
          }),
          ...halves(said.call.args).map((part) => chunk({ tool_calls: [{ index: 0, function: { arguments: part } }] })),
        ]
      : [chunk({ role: 'assistant', content: '' }), ...halves(said.text).map((part) => chunk({ content: part }))]
  const includeUsage = (body['stream_options'] as Json | undefined)?.['include_usage'] === true
  return {
    events: [
      ...pieces,
      chunk({}, finish),
      ...(includeUsage ? [sse({ ...base, choices: [], usage })] : []),
      sse('[DONE]'),
    ],
  }
}

function responses(request: ProviderRequest): ProviderReply {
  const body = request.body ?? {}
  const input =
    typeof body['input'] === 'string' ? [{ role: 'user', content: body['input'] }] : ((body['input'] ?? []) as Json[])
  const turn = turnOf(
    request,
    input,
    (t) => t['name'],
    (item) => (item['type'] === 'function_call_output' ? textOf(item['output']) : null),
  )
  const said = decide(turn)
  const completion = 'call' in said ? said.call.args.length : said.text.length
  const usage = {
    input_tokens: turn.promptTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: completion,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: turn.promptTokens + completion,
  }
  const itemId = idOf(request, 'call' in said ? 'fc' : 'msg')
  const item =
    'call' in said
      ? {
          type: 'function_call',
          id: itemId,
          call_id: idOf(request, 'call'),
          name: said.call.name,
          arguments: said.call.args,
          status: 'completed',
        }
      : {
          type: 'message',
          id: itemId,
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: said.text, annotations: [] }],
        }
  const response = (status: string, output: Json[], withUsage: Json | null) => ({
    id: 'resp_t',
    object: 'response',
    created_at: 1,
    status,
    model: turn.model,
    output,
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: body['tools'] ?? [],
    usage: withUsage,
    error: null,
    incomplete_details: null,
  })
  if (body['stream'] !== true) return { json: response('completed', [item], usage) }
  let seq = 0
  const ev = (type: string, data: Json) => sse({ type, sequence_number: seq++, ...data }, type)
  const at = { output_index: 0, item_id: itemId }
  const middle =
    'call' in said
      ? [
          ev('response.output_item.added', {
            output_index: 0,
            item: { ...item, arguments: '', status: 'in_progress' },
          }),
          ...halves(said.call.args).map((delta) => ev('response.function_call_arguments.delta', { ...at, delta })),
          ev('response.function_call_arguments.done', { ...at, arguments: said.call.args }),
        ]
      : [
          ev('response.output_item.added', { output_index: 0, item: { ...item, content: [], status: 'in_progress' } }),
          ev('response.content_part.added', {
            ...at,
            content_index: 0,
            part: { type: 'output_text', text: '', annotations: [] },
          }),
          ...halves(said.text).map((delta) =>
            ev('response.output_text.delta', { ...at, content_index: 0, delta, logprobs: [] }),
          ),
          ev('response.output_text.done', { ...at, content_index: 0, text: said.text, logprobs: [] }),
          ev('response.content_part.done', {
            ...at,
            content_index: 0,
            part: { type: 'output_text', text: said.text, annotations: [] },
          }),
        ]
  return {
    events: [
      ev('response.created', { response: response('in_progress', [], null) }),
      ev('response.in_progress', { response: response('in_progress', [], null) }),
      ...middle,
      ev('response.output_item.done', { output_index: 0, item }),
      ev('response.completed', { response: response('completed', [item], usage) }),
    ],
  }
}

function messages(request: ProviderRequest): ProviderReply {
  const body = request.body ?? {}
  const list = (body['messages'] ?? []) as Json[]
  const results = list
    .flatMap((m) => (Array.isArray(m['content']) ? (m['content'] as Json[]) : []))
    .filter((b) => b['type'] === 'tool_result')
  const turn = turnOf(
    request,
    [...list, ...results],
    (t) => t['name'],
    (b) => (b['type'] === 'tool_result' ? textOf(b['content']) : null),
  )
  const said = decide(turn)
  const completion = 'call' in said ? said.call.args.length : said.text.length
  const id = idOf(request, 'toolu')
  const block =
    'call' in said
      ? { type: 'tool_use', id, name: said.call.name, input: JSON.parse(said.call.args) as Json }
      : { type: 'text', text: said.text }
  const stop = 'call' in said ? 'tool_use' : 'end_turn'
  const message = (content: Json[], usage: Json, stopReason: string | null) => ({
    id: 'msg_t',
    type: 'message',
    role: 'assistant',
    model: turn.model,
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage,
  })
  if (body['stream'] !== true)
    return { json: message([block], { input_tokens: turn.promptTokens, output_tokens: completion }, stop) }
  const ev = (type: string, data: Json) => sse({ type, ...data }, type)
  const start = 'call' in said ? { type: 'tool_use', id, name: said.call.name, input: {} } : { type: 'text', text: '' }
  const deltas =
    'call' in said
      ? halves(said.call.args).map((partial_json) => ({ type: 'input_json_delta', partial_json }))
      : halves(said.text).map((text) => ({ type: 'text_delta', text }))
  return {
    events: [
      ev('message_start', { message: message([], { input_tokens: turn.promptTokens, output_tokens: 1 }, null) }),
      ev('content_block_start', { index: 0, content_block: start }),
      ...deltas.map((delta) => ev('content_block_delta', { index: 0, delta })),
      ev('content_block_stop', { index: 0 }),
      ev('message_delta', { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: completion } }),
      ev('message_stop', {}),
    ],
  }
}

/** The tool-calling model as a FakeProvider handler; other paths get the provider's default answer. */
export const toolModel: ProviderHandler = (request) => {
  if (request.method !== 'POST') return undefined
  const path = request.url.replace(/\?.*$/, '')
  if (path.endsWith('/chat/completions')) return chat(request)
  if (path.endsWith('/responses')) return responses(request)
  if (path.endsWith('/messages')) return messages(request)
  return undefined
}
