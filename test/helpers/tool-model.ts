import type { ProviderReply, ProviderRequest } from './fake-llm-upstream.js'

// The one tool-calling model of the tests, what FakeProvider (127.0.0.1) answers with: the three wire protocols the
// SDKs speak (OpenAI chat completions, the Responses API, Anthropic messages), JSON and streamed, as the providers
// send them: argument deltas in pieces (parallel calls interleaved), usage where each protocol puts it (OpenAI's
// stream only under `stream_options.include_usage`). Stateless: each answer comes from what its request carries, so
// the same request gets the same answer, as a recording replays it.
//   - a question with no tool result after it: the tool calls of `calls`, or, with none, the answer;
//   - once tool results follow the question: the answer (`answer`), text or one last tool call.
// Other paths (embeddings, models, GETs) are FakeProvider's. `new FakeProvider(options).start()` serves it.
// `chatCompletion` builds its JSON chat completions, and those a test queues or returns from a handler.

/** A tool call the model makes. */
export interface ToolCall {
  name: string
  arguments: Record<string, unknown>
}

/** What the model reads in a request, whatever its protocol. */
export interface Turn {
  /** The model the request names. */
  model: string
  /** The names of the tools offered, in order. */
  tools: string[]
  /** The text of the last user message that is not tool results. */
  question: string
  /** The tool results sent since that question, in order, as text. */
  results: string[]
}

export interface ToolModelOptions {
  /** The tool calls it makes on a question without tool results yet: a list, or chosen per turn. Default: none. */
  calls?: ToolCall[] | ((turn: Turn) => ToolCall[])
  /** Its answer once tool results came, or to a question it calls no tool for: text or a tool call. Default `echo`. */
  answer?: (turn: Turn) => string | ToolCall
  /** Text it says beside its tool calls (Anthropic's "Let me look." before a tool_use). Default: none. */
  say?: string
  /** The token counts every answer reports. Default: the request's JSON length / 4 in, the answer's length out. */
  usage?: { prompt: number; completion: number }
}

/** `echo:` and the text reversed: an answer that shows what the model was sent. */
export const echoText = (text: string): string => `echo:${text.split('').reverse().join('')}`

/** The default answer: `echo:` and the last text it was sent (a tool result, else the question) reversed. */
export const echo = (turn: Turn): string => echoText(turn.results.at(-1) ?? turn.question)

/** The wire a request speaks: a POST to one of the model paths, else undefined. */
function wireOf(request: ProviderRequest): typeof chat | undefined {
  if (request.method !== 'POST') return undefined
  const path = request.url.replace(/\?.*$/, '')
  return path.endsWith('/chat/completions')
    ? chat
    : path.endsWith('/responses')
      ? responses
      : path.endsWith('/messages')
        ? messages
        : undefined
}

/** A call of the model (chat completions, Responses, Anthropic messages), not a model list or an embedding. */
export const isModelCall = (request: ProviderRequest): boolean => wireOf(request) !== undefined

/** The model's answer to a request on a model path (undefined on any other). */
export function toolModel(options: ToolModelOptions = {}): (request: ProviderRequest) => ProviderReply | undefined {
  return (request) => wireOf(request)?.(request, options)
}

// ---- The scripts several test files share ----

/** Two parallel calls, `sql` and `describe`, whatever the tools offered; fixed usage (the transcript tests). */
export const SQL_AND_DESCRIBE: ToolModelOptions = {
  calls: [
    { name: 'sql', arguments: { query: 'SELECT count(*) FROM t' } },
    { name: 'describe', arguments: { table: 't' } },
  ],
  usage: { prompt: 11, completion: 7 },
}

/** A repair agent's model that finds nothing to fix: `{"fixes": []}`, 100 tokens in and 20 out. */
export const NO_FIXES: ToolModelOptions = { answer: () => '{"fixes": []}', usage: { prompt: 100, completion: 20 } }

/** One `sql` call when the question is `plan`, else an answer (the trajectory fixture asks `plan`, then `answer`). */
export const SQL_ON_PLAN: ToolModelOptions = {
  calls: (turn) => (turn.question === 'plan' ? [{ name: 'sql', arguments: { query: 'SELECT 1' } }] : []),
}

/**
 * The data agent's model (`qa --agent data-agent`): it counts the rows of `events` with `sql`, then calls `answer`
 * with the count the engine returned. It never sees more than the prompt.
 */
export const COUNT_THEN_ANSWER: ToolModelOptions = {
  calls: [{ name: 'sql', arguments: { query: 'SELECT count(*) AS n FROM events' } }],
  answer: (turn) => {
    const rows = (JSON.parse(turn.results.at(-1)!) as { rows: unknown[][] }).rows
    return { name: 'answer', arguments: { value: JSON.stringify(rows[0]![0]), text: 'rows counted' } }
  },
}

/** The arguments of every tool call of `READ_THEN_REPAIR`. */
export const TOOL_ARGS = { offset: 0, limit: 3 }

type Json = Record<string, unknown>

/**
 * A repair of the first row a tool returned (a JSON list of `{ row, ...cells }`), its first cell marked
 * `<value>-checked`; or `no rows` when the output holds none.
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

/**
 * The framework recipes' model (docs/frameworks.md): it calls the first tool offered with TOOL_ARGS, then answers
 * with `finalText` of what the tool returned, so an answer shows the tool ran; offered no tool, it echoes.
 */
export const READ_THEN_REPAIR: ToolModelOptions = {
  calls: (turn) => turn.tools.slice(0, 1).map((name) => ({ name, arguments: TOOL_ARGS })),
  answer: (turn) => (turn.results.length > 0 ? finalText(turn.results.at(-1)!) : echo(turn)),
}

// ---- Reading a request ----

/** One entry of a conversation, whatever its protocol. */
type Entry = { kind: 'question'; text: string } | { kind: 'result'; text: string } | { kind: 'other' }

const textOf = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content.map((p) => (p as Json)['text'] ?? '').join('')
      : ''

/** Chat completions: user messages are questions, tool messages results. */
const chatEntries = (body: Json): Entry[] =>
  ((body['messages'] ?? []) as Json[]).map((m) =>
    m['role'] === 'user'
      ? { kind: 'question', text: textOf(m['content']) }
      : m['role'] === 'tool'
        ? { kind: 'result', text: textOf(m['content']) }
        : { kind: 'other' },
  )

/** Anthropic messages: a user message's tool_result blocks are results; a user message without any, a question. */
const anthropicEntries = (body: Json): Entry[] =>
  ((body['messages'] ?? []) as Json[]).flatMap((m): Entry[] => {
    if (m['role'] !== 'user') return [{ kind: 'other' }]
    const blocks = Array.isArray(m['content']) ? (m['content'] as Json[]) : []
    const results = blocks.filter((b) => b['type'] === 'tool_result')
    if (results.length === 0) return [{ kind: 'question', text: textOf(m['content']) }]
    return results.map((b) => ({ kind: 'result', text: textOf(b['content']) }))
  })

/** The Responses API: a string input is the question; user items are questions, function_call_output items results. */
const responsesEntries = (body: Json): Entry[] =>
  typeof body['input'] === 'string'
    ? [{ kind: 'question', text: body['input'] }]
    : ((body['input'] ?? []) as Json[]).map((item) =>
        item['type'] === 'function_call_output'
          ? { kind: 'result', text: textOf(item['output']) }
          : item['role'] === 'user'
            ? { kind: 'question', text: textOf(item['content']) }
            : { kind: 'other' },
      )

function turnOf(body: Json, entries: Entry[], toolName: (tool: Json) => unknown): Turn {
  const at = entries.findLastIndex((e) => e.kind === 'question')
  const question = entries[at]
  return {
    model: typeof body['model'] === 'string' ? body['model'] : 'unknown',
    tools: ((body['tools'] ?? []) as Json[]).map((t) => String(toolName(t))),
    question: question?.kind === 'question' ? question.text : '',
    results: entries.slice(at + 1).flatMap((e) => (e.kind === 'result' ? [e.text] : [])),
  }
}

// ---- What the model says ----

/** A call with its number in the conversation (1 for its first): ids stay unique across the turns of a question. */
interface NumberedCall {
  name: string
  args: string
  n: number
}

interface Said {
  /** How many tool results the conversation holds (the calls made before). */
  seen: number
  text: string | null
  calls: NumberedCall[]
  usage: { prompt: number; completion: number }
}

function decide(body: Json, entries: Entry[], turn: Turn, options: ToolModelOptions): Said {
  const calls = typeof options.calls === 'function' ? options.calls(turn) : (options.calls ?? [])
  const acting = turn.results.length === 0 && calls.length > 0
  const reply = acting ? calls : (options.answer ?? echo)(turn)
  const before = entries.filter((e) => e.kind === 'result').length
  const numbered = (typeof reply === 'string' ? [] : Array.isArray(reply) ? reply : [reply]).map((call, i) => ({
    name: call.name,
    args: JSON.stringify(call.arguments),
    n: before + i + 1,
  }))
  const text = typeof reply === 'string' ? reply : acting ? (options.say ?? null) : null
  const completion = (text ?? '').length + numbered.reduce((sum, c) => sum + c.args.length, 0)
  return {
    seen: before,
    text,
    calls: numbered,
    usage: options.usage ?? { prompt: Math.ceil(JSON.stringify(body).length / 4), completion },
  }
}

// ---- The wires ----

const sse = (data: unknown, event?: string) =>
  `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`
const halves = (text: string): [string, string] => [
  text.slice(0, Math.ceil(text.length / 2)),
  text.slice(Math.ceil(text.length / 2)),
]

const CHAT_ID = 'chatcmpl-t'

export interface ChatCompletionOptions {
  /** Default 100. */
  promptTokens?: number
  /** Default 20. */
  completionTokens?: number
  /** Default `tool_calls` with tool calls, else `stop`. */
  finishReason?: string
  toolCalls?: Array<{ id: string; name: string; arguments: string }>
  refusal?: string | null
  /** Default `fake-model`. */
  model?: string
}

/** A 200 chat completion (OpenAI's JSON answer): the model's own, and any a test scripts. */
export function chatCompletion(content: string | null, options: ChatCompletionOptions = {}): ProviderReply {
  const { promptTokens = 100, completionTokens = 20, toolCalls = [] } = options
  const message: Json = { role: 'assistant', content }
  if (options.refusal !== undefined) message['refusal'] = options.refusal
  if (toolCalls.length > 0)
    message['tool_calls'] = toolCalls.map((c) => ({
      id: c.id,
      type: 'function',
      function: { name: c.name, arguments: c.arguments },
    }))
  const finishReason = options.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop')
  return {
    json: {
      id: CHAT_ID,
      object: 'chat.completion',
      created: 1,
      model: options.model ?? 'fake-model',
      choices: [{ index: 0, message, finish_reason: finishReason }],
      usage: {
        prompt_tokens: promptTokens,
        completion_tokens: completionTokens,
        total_tokens: promptTokens + completionTokens,
      },
    },
  }
}

function chat(request: ProviderRequest, options: ToolModelOptions): ProviderReply {
  const body = request.body ?? {}
  const entries = chatEntries(body)
  const turn = turnOf(body, entries, (t) => (t['function'] as Json)['name'])
  const said = decide(body, entries, turn, options)
  const usage = {
    prompt_tokens: said.usage.prompt,
    completion_tokens: said.usage.completion,
    total_tokens: said.usage.prompt + said.usage.completion,
  }
  const finish = said.calls.length > 0 ? 'tool_calls' : 'stop'
  const id = (call: NumberedCall) => `call_${call.n}`
  if (body['stream'] !== true)
    return chatCompletion(said.text, {
      model: turn.model,
      toolCalls: said.calls.map((c) => ({ id: id(c), name: c.name, arguments: c.args })),
      promptTokens: said.usage.prompt,
      completionTokens: said.usage.completion,
    })
  const base = { id: CHAT_ID, object: 'chat.completion.chunk', created: 1, model: turn.model }
  const chunk = (delta: Json, finishReason: string | null = null) =>
    sse({ ...base, choices: [{ index: 0, delta, finish_reason: finishReason }] })
  const includeUsage = (body['stream_options'] as Json | undefined)?.['include_usage'] === true
  return {
    events: [
      chunk({ role: 'assistant', content: said.text === null ? null : '' }),
      ...(said.text === null ? [] : halves(said.text).map((content) => chunk({ content }))),
      // Each call's head and first half of arguments, then each call's second half: parallel calls interleave.
      ...said.calls.map((c, index) =>
        chunk({
          tool_calls: [
            { index, id: id(c), type: 'function', function: { name: c.name, arguments: halves(c.args)[0] } },
          ],
        }),
      ),
      ...said.calls.map((c, index) => chunk({ tool_calls: [{ index, function: { arguments: halves(c.args)[1] } }] })),
      chunk({}, finish),
      ...(includeUsage ? [sse({ ...base, choices: [], usage })] : []),
      sse('[DONE]'),
    ],
  }
}

function responses(request: ProviderRequest, options: ToolModelOptions): ProviderReply {
  const body = request.body ?? {}
  const entries = responsesEntries(body)
  const turn = turnOf(body, entries, (t) => t['name'])
  const said = decide(body, entries, turn, options)
  const usage = {
    input_tokens: said.usage.prompt,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: said.usage.completion,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: said.usage.prompt + said.usage.completion,
  }
  const message =
    said.text === null
      ? []
      : [
          {
            type: 'message',
            id: `msg_${said.seen + 1}`,
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text: said.text, annotations: [] }],
          },
        ]
  const calls = said.calls.map((c) => ({
    type: 'function_call',
    id: `fc_${c.n}`,
    call_id: `call_${c.n}`,
    name: c.name,
    arguments: c.args,
    status: 'completed',
  }))
  const output: Json[] = [...message, ...calls]
  const response = (status: string, items: Json[], withUsage: Json | null) => ({
    id: 'resp_t',
    object: 'response',
    created_at: 1,
    status,
    model: turn.model,
    output: items,
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: body['tools'] ?? [],
    usage: withUsage,
    error: null,
    incomplete_details: null,
  })
  if (body['stream'] !== true) return { json: response('completed', output, usage) }
  let seq = 0
  const ev = (type: string, data: Json) => sse({ type, sequence_number: seq++, ...data }, type)
  const itemEvents = (item: Json, index: number): string[] => {
    const at = { output_index: index, item_id: item['id'] }
    if (item['type'] === 'function_call') {
      const args = String(item['arguments'])
      return [
        ev('response.output_item.added', {
          output_index: index,
          item: { ...item, arguments: '', status: 'in_progress' },
        }),
        ...halves(args).map((delta) => ev('response.function_call_arguments.delta', { ...at, delta })),
        ev('response.function_call_arguments.done', { ...at, arguments: args }),
        ev('response.output_item.done', { output_index: index, item }),
      ]
    }
    const text = said.text ?? ''
    const part = (t: string) => ({ type: 'output_text', text: t, annotations: [] })
    return [
      ev('response.output_item.added', { output_index: index, item: { ...item, content: [], status: 'in_progress' } }),
      ev('response.content_part.added', { ...at, content_index: 0, part: part('') }),
      ...halves(text).map((delta) =>
        ev('response.output_text.delta', { ...at, content_index: 0, delta, logprobs: [] }),
      ),
      ev('response.output_text.done', { ...at, content_index: 0, text, logprobs: [] }),
      ev('response.content_part.done', { ...at, content_index: 0, part: part(text) }),
      ev('response.output_item.done', { output_index: index, item }),
    ]
  }
  return {
    events: [
      ev('response.created', { response: response('in_progress', [], null) }),
      ev('response.in_progress', { response: response('in_progress', [], null) }),
      ...output.flatMap(itemEvents),
      ev('response.completed', { response: response('completed', output, usage) }),
    ],
  }
}

function messages(request: ProviderRequest, options: ToolModelOptions): ProviderReply {
  const body = request.body ?? {}
  const entries = anthropicEntries(body)
  const turn = turnOf(body, entries, (t) => t['name'])
  const said = decide(body, entries, turn, options)
  const blocks: Json[] = [
    ...(said.text === null ? [] : [{ type: 'text', text: said.text }]),
    ...said.calls.map((c) => ({ type: 'tool_use', id: `toolu_${c.n}`, name: c.name, input: JSON.parse(c.args) })),
  ]
  const stop = said.calls.length > 0 ? 'tool_use' : 'end_turn'
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
    return {
      json: message(blocks, { input_tokens: said.usage.prompt, output_tokens: said.usage.completion }, stop),
    }
  const ev = (type: string, data: Json) => sse({ type, ...data }, type)
  const blockEvents = (block: Json, index: number): string[] => {
    const text = block['type'] === 'text'
    const deltas = text
      ? halves(String(block['text'])).map((t) => ({ type: 'text_delta', text: t }))
      : halves(JSON.stringify(block['input'])).map((partial_json) => ({ type: 'input_json_delta', partial_json }))
    return [
      ev('content_block_start', { index, content_block: text ? { ...block, text: '' } : { ...block, input: {} } }),
      ...deltas.map((delta) => ev('content_block_delta', { index, delta })),
      ev('content_block_stop', { index }),
    ]
  }
  return {
    events: [
      ev('message_start', { message: message([], { input_tokens: said.usage.prompt, output_tokens: 1 }, null) }),
      ...blocks.flatMap(blockEvents),
      ev('message_delta', {
        delta: { stop_reason: stop, stop_sequence: null },
        usage: { output_tokens: said.usage.completion },
      }),
      ev('message_stop', {}),
    ],
  }
}
