import { join } from 'node:path'
import { createChatClient, type ChatClient, type ProviderAgentOptions } from '../../src/adapters/providers/index.js'
import type { Table } from '../../src/core/schemas.js'
import { Random } from '../../src/core/random.js'
import type { FakeProvider, ProviderHandler, ProviderReply, ProviderRequest } from './fake-llm-upstream.js'
import { FAKE_KEY, tempDir } from './providers.js'
import { chatCompletion } from './tool-model.js'

interface WireMessage {
  role: string
  content: string | null
  tool_call_id?: string
  tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>
}

let callSeq = 0

/** A chat answer that calls the given tools (arguments as objects, or a raw string for malformed JSON). */
export function callTools(...calls: Array<[name: string, args: Record<string, unknown> | string]>): ProviderReply {
  return chatCompletion(null, {
    toolCalls: calls.map(([name, args]) => ({
      id: `call_${++callSeq}`,
      name,
      arguments: typeof args === 'string' ? args : JSON.stringify(args),
    })),
  })
}

export function callTool(name: string, args: Record<string, unknown> | string = {}): ProviderReply {
  return callTools([name, args])
}

/** The messages a request carried. */
export function messagesOf(request: ProviderRequest): WireMessage[] {
  return (request.body as { messages: WireMessage[] }).messages
}

/** The last tool result the model was sent, parsed. */
export function lastToolResult(request: ProviderRequest): Record<string, unknown> {
  const tool = messagesOf(request)
    .filter((m) => m.role === 'tool')
    .at(-1)
  if (!tool?.content) throw new Error('no tool result in this request')
  return JSON.parse(tool.content) as Record<string, unknown>
}

/** The first cell of the last `sql` result the model was sent. */
export function firstCell(request: ProviderRequest): unknown {
  return (lastToolResult(request)['rows'] as unknown[][])[0]![0]
}

export type ModelStep = ProviderReply | ((request: ProviderRequest) => ProviderReply)

/**
 * A scripted model: each chat call takes the next step, which may read what the tools returned so far.
 * Running out of steps answers 500, so a loop that asks more than the script holds fails loudly.
 */
export function scriptedModel(steps: ModelStep[]): ProviderHandler {
  let next = 0
  return (request) => {
    const step = steps[next++]
    if (step === undefined)
      return { status: 500, json: { error: { message: `script has ${steps.length} steps, asked for more` } } }
    return typeof step === 'function' ? step(request) : step
  }
}

export function testClient(server: FakeProvider, extra: ProviderAgentOptions = {}): ChatClient {
  return createChatClient('openai-compatible', {
    baseUrl: server.baseUrl,
    model: 'fake-model',
    env: { OPENAI_API_KEY: FAKE_KEY },
    envFile: join(tempDir(), 'absent.env'),
    cache: { mode: 'off', dir: tempDir() },
    log: () => undefined,
    rpm: 0,
    maxServerRetries: 0,
    ...extra,
  })
}

/** Customers and their orders: a join is needed to answer anything per region. */
export function shopTables(): { customers: Table; orders: Table } {
  return {
    customers: {
      columns: ['id', 'name', 'region'],
      rows: [
        ['1', 'Ada', 'North'],
        ['2', 'Ben', 'South'],
        ['3', 'Cara', 'North'],
        ['4', 'Dev', 'East'],
      ],
    },
    orders: {
      columns: ['order_id', 'customer_id', 'amount'],
      rows: [
        ['10', '1', '120.50'],
        ['11', '2', '80'],
        ['12', '3', '42.25'],
        ['13', '1', '7.25'],
        ['14', '4', '300'],
        ['15', '3', '10'],
      ],
    },
  }
}

/**
 * The snapshot trap: `rows` seeded sales where the first rows (all an agent sees through `describe`) are
 * big outliers, so a mean taken from them is far from the real one.
 */
export function trapTable(rows: number, seed = 13): { table: Table; sampleMean: number; trueMean: number } {
  const random = new Random(seed)
  const out: string[][] = []
  let sum = 0
  for (let i = 0; i < rows; i++) {
    const amount = i < 5 ? 5_000 + random.int(0, 999) : random.int(1, 100)
    sum += amount
    out.push([String(i + 1), random.pick(['north', 'south', 'east', 'west']), String(amount)])
  }
  const sampleMean = out.slice(0, 5).reduce((a, r) => a + Number(r[2]), 0) / 5
  return { table: { columns: ['sale_id', 'region', 'amount'], rows: out }, sampleMean, trueMean: sum / rows }
}
