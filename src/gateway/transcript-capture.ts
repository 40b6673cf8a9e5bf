import type { TranscriptCall } from '../core/transcript.js'
import type { ParsedCall } from './protocol.js'
import type { CallTrace } from './types.js'

/*
 * What a transcript keeps of one call the gateway served: the request flattened to text (system, messages with
 * their tool calls and results, the tools offered) and the answer (text, tool calls with their arguments, finish
 * reason), read from the three chat wires: OpenAI chat completions, Anthropic messages and the OpenAI Responses
 * API. Streamed answers are assembled from their events. Only bodies are read: keys and headers never reach it.
 * Long strings are cut by `cutTranscript` (core/transcript-build.ts) when the trial's transcript is built.
 */

type Json = Record<string, unknown>
type Message = TranscriptCall['request']['messages'][number]
type ToolCall = NonNullable<TranscriptCall['response']>['toolCalls'][number]
type TranscriptRequest = TranscriptCall['request']
export type TranscriptAnswer = NonNullable<TranscriptCall['response']>

const obj = (v: unknown): Json | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : null)
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null)
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])
const jsonText = (v: unknown): string => (typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v))

/** Text of a content value: a string, or parts whose text is kept and whose other kinds read `[image]`, `[file]`, … */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return content === null || content === undefined ? '' : JSON.stringify(content)
  const parts: string[] = []
  for (const raw of content) {
    const part = obj(raw)
    if (!part) {
      if (typeof raw === 'string') parts.push(raw)
      continue
    }
    const type = str(part['type']) ?? 'part'
    const text = str(part['text']) ?? str(part['refusal'])
    if (text !== null) parts.push(text)
    else if (
      type === 'tool_use' ||
      type === 'tool_result' ||
      type === 'function_call' ||
      type === 'function_call_output'
    )
      continue
    else parts.push(`[${type.replace(/^input_/, '').replace(/_url$/, '')}]`)
  }
  return parts.join('\n')
}

function openAiToolCall(raw: unknown): ToolCall | null {
  const call = obj(raw)
  const fn = obj(call?.['function'])
  if (!call || !fn) return null
  return { id: str(call['id']), name: str(fn['name']) ?? '', arguments: jsonText(fn['arguments']) }
}

function openAiMessages(body: Json): { system: string | null; messages: Message[] } {
  const system: string[] = []
  const messages: Message[] = []
  for (const raw of arr(body['messages'])) {
    const m = obj(raw)
    if (!m) continue
    const role = str(m['role']) ?? ''
    if (role === 'system' || role === 'developer') {
      system.push(contentText(m['content']))
      continue
    }
    messages.push({
      role,
      content: contentText(m['content']),
      toolCalls: arr(m['tool_calls'])
        .map(openAiToolCall)
        .filter((c): c is ToolCall => c !== null),
      toolCallId: str(m['tool_call_id']),
    })
  }
  return { system: system.length ? system.join('\n\n') : null, messages }
}

function anthropicMessages(body: Json): { system: string | null; messages: Message[] } {
  const system = body['system'] === undefined ? null : contentText(body['system'])
  const messages: Message[] = []
  for (const raw of arr(body['messages'])) {
    const m = obj(raw)
    if (!m) continue
    const role = str(m['role']) ?? ''
    const blocks = Array.isArray(m['content']) ? m['content'] : null
    const toolCalls: ToolCall[] = []
    const results: Message[] = []
    for (const b of blocks ?? []) {
      const block = obj(b)
      if (block?.['type'] === 'tool_use')
        toolCalls.push({
          id: str(block['id']),
          name: str(block['name']) ?? '',
          arguments: jsonText(block['input'] ?? {}),
        })
      if (block?.['type'] === 'tool_result') {
        results.push({
          role: 'tool',
          content: contentText(block['content']),
          toolCalls: [],
          toolCallId: str(block['tool_use_id']),
        })
      }
    }
    const text = contentText(m['content'])
    // A user turn of tool results reads as one tool message per result, as the OpenAI wire sends them.
    if (text !== '' || toolCalls.length > 0 || results.length === 0)
      messages.push({ role, content: text, toolCalls, toolCallId: null })
    messages.push(...results)
  }
  return { system, messages }
}

function responsesInput(body: Json): { system: string | null; messages: Message[] } {
  const instructions = str(body['instructions'])
  const system: string[] = instructions !== null ? [instructions] : []
  const messages: Message[] = []
  const input = body['input']
  if (typeof input === 'string')
    return { system: system[0] ?? null, messages: [{ role: 'user', content: input, toolCalls: [], toolCallId: null }] }
  for (const raw of arr(input)) {
    const item = obj(raw)
    if (!item) continue
    const type = str(item['type']) ?? 'message'
    if (type === 'function_call') {
      const call = {
        id: str(item['call_id']) ?? str(item['id']),
        name: str(item['name']) ?? '',
        arguments: jsonText(item['arguments']),
      }
      const last = messages[messages.length - 1]
      // Consecutive calls of one answer read as one assistant message, as on the chat wire.
      if (last && last.role === 'assistant' && last.content === '' && last.toolCalls.length > 0)
        last.toolCalls.push(call)
      else messages.push({ role: 'assistant', content: '', toolCalls: [call], toolCallId: null })
    } else if (type === 'function_call_output') {
      messages.push({
        role: 'tool',
        content: contentText(item['output']),
        toolCalls: [],
        toolCallId: str(item['call_id']),
      })
    } else if (type === 'message') {
      const role = str(item['role']) ?? 'user'
      if (role === 'system' || role === 'developer') system.push(contentText(item['content']))
      else messages.push({ role, content: contentText(item['content']), toolCalls: [], toolCallId: null })
    } else
      messages.push({
        role: type,
        content: contentText(item['content'] ?? item['summary'] ?? ''),
        toolCalls: [],
        toolCallId: null,
      })
  }
  return { system: system.length ? system.join('\n\n') : null, messages }
}

function toolsOf(body: Json): TranscriptRequest['tools'] {
  return arr(body['tools']).flatMap((raw) => {
    const tool = obj(raw)
    if (!tool) return []
    // Chat: { type: 'function', function: { name, description, parameters } }; Responses: the function's fields
    // on the tool; Anthropic: { name, description, input_schema }.
    const fn = obj(tool['function']) ?? tool
    const parameters = fn['parameters'] ?? fn['input_schema']
    const name = str(fn['name']) ?? str(tool['type']) ?? ''
    return [
      {
        name,
        description: str(fn['description']),
        parameters: parameters === undefined ? null : JSON.stringify(parameters),
      },
    ]
  })
}

/** The request of a call, flattened. */
function transcriptRequest(protocol: TranscriptCall['protocol'], body: Json | null): TranscriptRequest {
  if (!body || protocol === 'other') return { system: null, messages: [], tools: [] }
  const read =
    protocol === 'anthropic-messages'
      ? anthropicMessages(body)
      : protocol === 'openai-responses'
        ? responsesInput(body)
        : openAiMessages(body)
  return { ...read, tools: toolsOf(body) }
}

function responsesOutput(output: unknown[], status: string | null): TranscriptAnswer {
  const text: string[] = []
  const toolCalls: ToolCall[] = []
  for (const raw of output) {
    const item = obj(raw)
    if (item?.['type'] === 'message') text.push(contentText(item['content']))
    if (item?.['type'] === 'function_call')
      toolCalls.push({
        id: str(item['call_id']) ?? str(item['id']),
        name: str(item['name']) ?? '',
        arguments: jsonText(item['arguments']),
      })
  }
  return { text: text.length ? text.join('\n') : null, toolCalls, finishReason: status }
}

/** The answer of a JSON reply (chat completion, message, response); null when it is none of them. */
export function answerOfJson(json: unknown): TranscriptAnswer | null {
  const root = obj(json)
  if (!root) return null
  if (Array.isArray(root['choices'])) {
    const choice = obj(root['choices'][0])
    const message = obj(choice?.['message'])
    const text = message ? contentText(message['content']) : ''
    return {
      text: message?.['content'] === null || message?.['content'] === undefined ? null : text,
      toolCalls: arr(message?.['tool_calls'])
        .map(openAiToolCall)
        .filter((c): c is ToolCall => c !== null),
      finishReason: str(choice?.['finish_reason']),
    }
  }
  if (Array.isArray(root['output'])) return responsesOutput(root['output'], str(root['status']))
  if (Array.isArray(root['content'])) {
    const text = root['content'].flatMap((b) => (obj(b)?.['type'] === 'text' ? [str(obj(b)?.['text']) ?? ''] : []))
    const toolCalls = root['content'].flatMap((b) => {
      const block = obj(b)
      return block?.['type'] === 'tool_use'
        ? [{ id: str(block['id']), name: str(block['name']) ?? '', arguments: jsonText(block['input'] ?? {}) }]
        : []
    })
    return { text: text.length ? text.join('') : null, toolCalls, finishReason: str(root['stop_reason']) }
  }
  return null
}

/** An event's data as an object; null for OpenAI's `[DONE]` and data that is not a JSON object. */
function readEvent(data: string): Json | null {
  if (data.trim() === '[DONE]') return null
  try {
    return obj(JSON.parse(data))
  } catch {
    return null
  }
}

interface Building {
  id: string | null
  name: string
  args: string
}

/**
 * Assembles a streamed answer event by event, whichever of the three wires streamed it: OpenAI chat chunks
 * (`choices[].delta`, `tool_calls` argument deltas by index), Anthropic events (`content_block_start`,
 * `text_delta`, `input_json_delta`, `message_delta`) and Responses events (`response.output_text.delta`,
 * `response.output_item.added`, `response.function_call_arguments.delta`, `response.completed`).
 */
export class StreamAnswer {
  private text = ''
  private sawText = false
  private finish: string | null = null
  /** Tool calls by their key on the wire (OpenAI index, Anthropic block index, Responses output index). */
  private readonly tools = new Map<string, Building>()
  private completed: TranscriptAnswer | null = null
  private any = false

  onData(data: string): void {
    const root = readEvent(data)
    if (!root) return
    this.any = true
    const type = str(root['type'])
    if (Array.isArray(root['choices'])) this.onChatChunk(root['choices'])
    else if (type?.startsWith('response.')) this.onResponses(type, root)
    else if (type) this.onAnthropic(type, root)
  }

  private addText(piece: unknown): void {
    if (typeof piece !== 'string') return
    this.text += piece
    this.sawText = true
  }

  private tool(key: string): Building {
    let tool = this.tools.get(key)
    if (!tool) {
      tool = { id: null, name: '', args: '' }
      this.tools.set(key, tool)
    }
    return tool
  }

  private onChatChunk(choices: unknown[]): void {
    const choice = obj(choices[0])
    if (!choice) return
    const delta = obj(choice['delta'])
    this.addText(delta?.['content'])
    for (const raw of arr(delta?.['tool_calls'])) {
      const part = obj(raw)
      if (!part) continue
      const tool = this.tool(`c${typeof part['index'] === 'number' ? part['index'] : this.tools.size}`)
      const fn = obj(part['function'])
      tool.id = str(part['id']) ?? tool.id
      tool.name += str(fn?.['name']) ?? ''
      tool.args += str(fn?.['arguments']) ?? ''
    }
    this.finish = str(choice['finish_reason']) ?? this.finish
  }

  private onAnthropic(type: string, root: Json): void {
    const key = `a${typeof root['index'] === 'number' ? root['index'] : 0}`
    if (type === 'content_block_start') {
      const block = obj(root['content_block'])
      if (block?.['type'] === 'text') this.addText(block['text'])
      if (block?.['type'] === 'tool_use') {
        const tool = this.tool(key)
        tool.id = str(block['id'])
        tool.name = str(block['name']) ?? ''
        const input = obj(block['input'])
        if (input && Object.keys(input).length > 0) tool.args = JSON.stringify(input)
      }
    } else if (type === 'content_block_delta') {
      const delta = obj(root['delta'])
      if (delta?.['type'] === 'text_delta') this.addText(delta['text'])
      if (delta?.['type'] === 'input_json_delta') this.tool(key).args += str(delta['partial_json']) ?? ''
    } else if (type === 'message_delta') {
      this.finish = str(obj(root['delta'])?.['stop_reason']) ?? this.finish
    }
  }

  private onResponses(type: string, root: Json): void {
    const key = `r${typeof root['output_index'] === 'number' ? root['output_index'] : str(root['item_id'])}`
    if (type === 'response.output_text.delta') this.addText(root['delta'])
    else if (type === 'response.output_item.added' || type === 'response.output_item.done') {
      const item = obj(root['item'])
      if (item?.['type'] !== 'function_call') return
      const tool = this.tool(key)
      tool.id = str(item['call_id']) ?? str(item['id'])
      tool.name = str(item['name']) ?? tool.name
      const args = str(item['arguments'])
      if (args && (type === 'response.output_item.done' || tool.args === '')) tool.args = args
    } else if (type === 'response.function_call_arguments.delta') this.tool(key).args += str(root['delta']) ?? ''
    else if (type === 'response.function_call_arguments.done') {
      const args = str(root['arguments'])
      if (args !== null) this.tool(key).args = args
    } else if (type === 'response.completed' || type === 'response.incomplete' || type === 'response.failed') {
      const response = obj(root['response'])
      if (Array.isArray(response?.['output']) && response['output'].length > 0)
        this.completed = responsesOutput(response['output'], str(response['status']))
      else this.finish = str(response?.['status']) ?? this.finish
    }
  }

  /** The answer as streamed so far; null when no event was readable. */
  result(): TranscriptAnswer | null {
    // The Responses API's last event holds the whole answer: it wins over the deltas.
    if (this.completed) return this.completed
    if (!this.any) return null
    const toolCalls = [...this.tools.values()].map((t) => ({ id: t.id, name: t.name, arguments: t.args }))
    return { text: this.sawText ? this.text : null, toolCalls, finishReason: this.finish }
  }
}

/**
 * One call as a transcript keeps it (uncut): the gateway's trace of it (the record's `llmCalls` entry, so both
 * say the same protocol, tokens, status…) without its start time, then its request and its answer.
 */
export function transcriptCall(
  index: number,
  trace: CallTrace,
  call: ParsedCall | null,
  answer: TranscriptAnswer | null,
): TranscriptCall {
  // The call's start time is the record's (`llmCalls`, for traces); a transcript keeps what was said.
  const { startedAtMs: _, ...kept } = trace
  return { index, ...kept, request: transcriptRequest(trace.protocol, call?.body ?? null), response: answer }
}
