import type { SecretMatcher } from './redact.js'
import { eventData } from './sse.js'

/** The fields whose strings a client joins across events into one text (chat deltas, tool arguments, Responses deltas). */
const TEXT_FIELDS = new Set([
  'content',
  'text',
  'partial_json',
  'arguments',
  'thinking',
  'reasoning',
  'reasoning_content',
  'refusal',
  'delta',
])
/** Events after which a text does not go on: Anthropic's block and message ends, an error. */
const CLOSING_TYPES = new Set(['content_block_stop', 'message_delta', 'message_stop', 'error'])

interface Leaf {
  /** The text's place in the stream: its JSON path, with each `index` field in place of an array position. */
  channel: string
  holder: Record<string, unknown>
  field: string
  value: string
}

interface Pending {
  raw: string
  json: unknown
  leaves: Leaf[]
  modified: boolean
  /** Channels whose text in this event may be the start of a secret the next event completes. */
  holds: Set<string>
}

interface Segment {
  leaf: Leaf
  owner: Pending
}

/**
 * Redacts a secret from a server-sent-event stream, also when the upstream splits it across events: each text
 * field is joined with the same field of the events before it (as a client joins `delta.content`), and an event
 * whose text ends with the start of a secret is held back until the next piece of that text shows whether the
 * secret follows (then the secret is cut from both events) or not. Whole events are held, never cut, so events
 * keep their order; a hold ends at the latest when that text closes (`[DONE]`, a `finish_reason`, Anthropic's
 * `content_block_stop`, a Responses `*.done`) or the stream ends. Inside one event every form is redacted.
 */
export class StreamRedactor {
  private readonly queue: Pending[] = []
  private readonly open = new Map<string, Segment[]>()

  constructor(private readonly matcher: SecretMatcher) {}

  /** Takes one whole event; returns the events that may be sent now, in order. */
  push(event: string): string[] {
    const raw = this.matcher.redact(event)
    const data = eventData(raw)
    let json: unknown = null
    if (data !== null && data.trim() !== '[DONE]') {
      try {
        json = JSON.parse(data)
      } catch {
        json = null
      }
    }
    const pending: Pending = { raw, json, leaves: [], modified: false, holds: new Set() }
    if (json && typeof json === 'object') collectLeaves(json, '', pending.leaves)
    this.queue.push(pending)
    for (const leaf of pending.leaves) this.extend({ leaf, owner: pending })
    if (closesTexts(data, json)) this.releaseAll()
    return this.drain()
  }

  /** At the end of the stream: whatever is still held. */
  flush(): string[] {
    this.releaseAll()
    return this.drain()
  }

  private extend(segment: Segment): void {
    const { channel } = segment.leaf
    const segments = [...(this.open.get(channel) ?? []), segment]
    const values = segments.map((s) => s.leaf.value)
    const combined = values.join('')
    const found = this.matcher.matches(combined)
    if (found.length > 0) {
      cutMatches(values, found).forEach((value, i) => {
        const { leaf, owner } = segments[i]!
        if (value === leaf.value) return
        leaf.value = value
        leaf.holder[leaf.field] = value
        owner.modified = true
      })
    }
    for (const s of segments) s.owner.holds.delete(channel)
    let tail = this.matcher.partialTail(segments.map((s) => s.leaf.value).join(''))
    const kept: Segment[] = []
    for (let i = segments.length - 1; i >= 0 && tail > 0; i--) {
      kept.unshift(segments[i]!)
      tail -= segments[i]!.leaf.value.length
    }
    for (const s of kept) s.owner.holds.add(channel)
    if (kept.length > 0) this.open.set(channel, kept)
    else this.open.delete(channel)
  }

  private releaseAll(): void {
    this.open.clear()
    for (const pending of this.queue) pending.holds.clear()
  }

  private drain(): string[] {
    const out: string[] = []
    while (this.queue.length > 0 && this.queue[0]!.holds.size === 0) out.push(render(this.queue.shift()!))
    return out
  }
}

function collectLeaves(node: unknown, path: string, out: Leaf[]): void {
  if (Array.isArray(node)) {
    node.forEach((item, i) => {
      collectLeaves(item, hasIndex(item) ? path : `${path}[${i}]`, out)
    })
    return
  }
  if (!node || typeof node !== 'object') return
  const holder = node as Record<string, unknown>
  const here = hasIndex(holder) ? `${path}#${holder['index']}` : path
  for (const [field, value] of Object.entries(holder)) {
    if (typeof value === 'string') {
      if (TEXT_FIELDS.has(field)) out.push({ channel: `${here}.${field}`, holder, field, value })
    } else if (value && typeof value === 'object') collectLeaves(value, `${here}.${field}`, out)
  }
}

const hasIndex = (node: unknown): boolean =>
  !!node && typeof node === 'object' && typeof (node as Record<string, unknown>)['index'] === 'number'

function closesTexts(data: string | null, json: unknown): boolean {
  if (data === null) return false
  if (data.trim() === '[DONE]') return true
  if (!json || typeof json !== 'object') return false
  const root = json as Record<string, unknown>
  const type = root['type']
  if (typeof type === 'string' && (CLOSING_TYPES.has(type) || /\.(done|completed|failed|incomplete)$/.test(type)))
    return true
  const choices = root['choices']
  return (
    Array.isArray(choices) &&
    choices.some((c) => !!c && typeof c === 'object' && (c as Record<string, unknown>)['finish_reason'] != null)
  )
}

/** The pieces of a joined text with each match cut out, `[redacted]` in the piece where the match starts. */
function cutMatches(values: string[], found: Array<[number, number]>): string[] {
  let offset = 0
  return values.map((value) => {
    const start = offset
    const end = offset + value.length
    offset = end
    let out = ''
    let at = start
    for (const [from, to] of found) {
      if (to <= at || from >= end) continue
      if (from >= at) {
        out += value.slice(at - start, from - start)
        out += '[redacted]'
      }
      at = Math.min(to, end)
    }
    return out + value.slice(at - start)
  })
}

function render(pending: Pending): string {
  if (!pending.modified) return pending.raw
  const { raw } = pending
  const terminator = /(\r?\n)*$/.exec(raw)![0]
  const newline = raw.includes('\r\n') ? '\r\n' : '\n'
  const lines: string[] = []
  let placed = false
  for (const line of raw.slice(0, raw.length - terminator.length).split(/\r?\n/)) {
    if (!line.startsWith('data:')) lines.push(line)
    else if (!placed) {
      lines.push(`data: ${JSON.stringify(pending.json)}`)
      placed = true
    }
  }
  return lines.join(newline) + terminator
}
