import { FakeProvider, type ProviderReply, type ProviderRequest } from './fake-llm-upstream.js'

const sse = (data: unknown, event?: string) =>
  `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`
const usage = { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 }
const chunk = (delta: unknown, finish: string | null = null) =>
  sse({
    id: 'c',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm1',
    choices: [{ index: 0, delta, finish_reason: finish }],
  })

/**
 * A FakeProvider handler that asks for tools until it sees a tool result, then gives the default answer (the last
 * message reversed): on the OpenAI chat, Anthropic messages and Responses wires, streamed or not.
 */
export function toolScript(request: ProviderRequest): ProviderReply | undefined {
  const body = request.body ?? {}
  const stream = body['stream'] === true
  if (request.url.endsWith('/chat/completions')) {
    const messages = body['messages'] as Array<{ role: string }>
    if (messages.some((m) => m.role === 'tool')) return undefined
    if (!stream) {
      const calls = [
        { id: 'call_1', type: 'function', function: { name: 'sql', arguments: '{"query":"SELECT count(*) FROM t"}' } },
        { id: 'call_2', type: 'function', function: { name: 'describe', arguments: '{"table":"t"}' } },
      ]
      return {
        json: {
          id: 'x',
          object: 'chat.completion',
          created: 1,
          model: 'm1',
          choices: [
            { index: 0, message: { role: 'assistant', content: null, tool_calls: calls }, finish_reason: 'tool_calls' },
          ],
          usage,
        },
      }
    }
    // Two tool calls whose argument deltas interleave, as a parallel-tool-calls stream sends them.
    return {
      events: [
        chunk({
          role: 'assistant',
          content: null,
          tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'sql', arguments: '' } }],
        }),
        chunk({
          tool_calls: [{ index: 1, id: 'call_2', type: 'function', function: { name: 'describe', arguments: '{"ta' } }],
        }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '{"query":"SELECT ' } }] }),
        chunk({ tool_calls: [{ index: 1, function: { arguments: 'ble":"t"}' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: 'count(*) FROM t"}' } }] }),
        chunk({}, 'tool_calls'),
        sse({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm1', choices: [], usage }),
        sse('[DONE]'),
      ],
    }
  }
  if (request.url.endsWith('/messages')) {
    const messages = body['messages'] as Array<{ content: unknown }>
    if (
      messages.some(
        (m) => Array.isArray(m.content) && m.content.some((b) => (b as { type?: string }).type === 'tool_result'),
      )
    )
      return undefined
    if (!stream) {
      return {
        json: {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: 'claude-x',
          stop_reason: 'tool_use',
          stop_sequence: null,
          content: [
            { type: 'text', text: 'Let me count.' },
            { type: 'tool_use', id: 'toolu_1', name: 'sql', input: { query: 'SELECT 1' } },
          ],
          usage: { input_tokens: 20, output_tokens: 9 },
        },
      }
    }
    return {
      events: [
        sse(
          {
            type: 'message_start',
            message: {
              id: 'msg_1',
              type: 'message',
              role: 'assistant',
              model: 'claude-x',
              content: [],
              stop_reason: null,
              stop_sequence: null,
              usage: { input_tokens: 20, output_tokens: 1 },
            },
          },
          'message_start',
        ),
        sse(
          { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
          'content_block_start',
        ),
        sse(
          { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Let me ' } },
          'content_block_delta',
        ),
        sse(
          { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'count.' } },
          'content_block_delta',
        ),
        sse({ type: 'content_block_stop', index: 0 }, 'content_block_stop'),
        sse(
          {
            type: 'content_block_start',
            index: 1,
            content_block: { type: 'tool_use', id: 'toolu_1', name: 'sql', input: {} },
          },
          'content_block_start',
        ),
        sse(
          {
            type: 'content_block_delta',
            index: 1,
            delta: { type: 'input_json_delta', partial_json: '{"query": "SEL' },
          },
          'content_block_delta',
        ),
        sse(
          { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: 'ECT 1"}' } },
          'content_block_delta',
        ),
        sse({ type: 'content_block_stop', index: 1 }, 'content_block_stop'),
        sse(
          {
            type: 'message_delta',
            delta: { stop_reason: 'tool_use', stop_sequence: null },
            usage: { output_tokens: 9 },
          },
          'message_delta',
        ),
        sse({ type: 'message_stop' }, 'message_stop'),
      ],
    }
  }
  if (request.url.endsWith('/responses')) {
    const input = body['input'] as Array<{ type?: string }>
    const answered = Array.isArray(input) && input.some((i) => i.type === 'function_call_output')
    const output = answered
      ? [
          {
            type: 'message',
            id: 'msg_r',
            status: 'completed',
            role: 'assistant',
            content: [{ type: 'output_text', text: 'There are 3 rows.', annotations: [] }],
          },
        ]
      : [
          {
            type: 'function_call',
            id: 'fc_1',
            call_id: 'call_r1',
            name: 'sql',
            arguments: '{"query":"SELECT 3"}',
            status: 'completed',
          },
        ]
    const response = {
      id: 'resp_1',
      object: 'response',
      created_at: 1,
      status: 'completed',
      model: 'gpt-r',
      output,
      usage: { input_tokens: 30, output_tokens: 5, total_tokens: 35 },
    }
    if (!stream) return { json: response }
    const events = answered
      ? [
          sse(
            {
              type: 'response.created',
              sequence_number: 0,
              response: { ...response, status: 'in_progress', output: [] },
            },
            'response.created',
          ),
          sse(
            {
              type: 'response.output_item.added',
              sequence_number: 1,
              output_index: 0,
              item: { ...output[0], status: 'in_progress', content: [] },
            },
            'response.output_item.added',
          ),
          sse(
            {
              type: 'response.content_part.added',
              sequence_number: 1,
              item_id: 'msg_r',
              output_index: 0,
              content_index: 0,
              part: { type: 'output_text', text: '', annotations: [] },
            },
            'response.content_part.added',
          ),
          sse(
            {
              type: 'response.output_text.delta',
              sequence_number: 1,
              item_id: 'msg_r',
              output_index: 0,
              content_index: 0,
              delta: 'There are ',
            },
            'response.output_text.delta',
          ),
          sse(
            {
              type: 'response.output_text.delta',
              sequence_number: 2,
              item_id: 'msg_r',
              output_index: 0,
              content_index: 0,
              delta: '3 rows.',
            },
            'response.output_text.delta',
          ),
          sse({ type: 'response.completed', sequence_number: 3, response }, 'response.completed'),
        ]
      : [
          sse(
            {
              type: 'response.created',
              sequence_number: 0,
              response: { ...response, status: 'in_progress', output: [] },
            },
            'response.created',
          ),
          sse(
            {
              type: 'response.output_item.added',
              sequence_number: 1,
              output_index: 0,
              item: { ...output[0], arguments: '', status: 'in_progress' },
            },
            'response.output_item.added',
          ),
          sse(
            {
              type: 'response.function_call_arguments.delta',
              sequence_number: 2,
              item_id: 'fc_1',
              output_index: 0,
              delta: '{"query":',
            },
            'response.function_call_arguments.delta',
          ),
          sse(
            {
              type: 'response.function_call_arguments.delta',
              sequence_number: 3,
              item_id: 'fc_1',
              output_index: 0,
              delta: '"SELECT 3"}',
            },
            'response.function_call_arguments.delta',
          ),
          sse({ type: 'response.completed', sequence_number: 4, response }, 'response.completed'),
        ]
    return { events }
  }
  return undefined
}

/** A FakeProvider on 127.0.0.1 answering with `toolScript`. */
export async function startToolProvider(): Promise<FakeProvider> {
  const fake = await new FakeProvider().start()
  fake.handler = toolScript
  return fake
}
