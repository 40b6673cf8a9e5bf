/**
 * Splits a server-sent-event stream into whole events (each with its blank-line terminator), as text arrives in
 * arbitrary pieces. The gateway forwards each event as it completes and keeps them for the cassette, so a replay
 * sends the same events in the same order.
 */
export class SseSplitter {
  private buffer = ''

  push(text: string): string[] {
    this.buffer += text
    const events: string[] = []
    for (;;) {
      const end = eventEnd(this.buffer)
      if (end === -1) break
      events.push(this.buffer.slice(0, end))
      this.buffer = this.buffer.slice(end)
    }
    return events
  }

  /** What is left when the stream ends (an event without its terminator), if anything. */
  flush(): string | null {
    const rest = this.buffer
    this.buffer = ''
    return rest.trim() === '' ? null : rest
  }
}

function eventEnd(text: string): number {
  const match = /\r?\n\r?\n/.exec(text)
  return match ? match.index + match[0].length : -1
}

/** The data of one event (its `data:` lines joined), null when it has none. */
export function eventData(event: string): string | null {
  let data: string | null = null
  for (const line of event.split(/\r?\n/)) {
    if (!line.startsWith('data:')) continue
    const value = line.slice(line[5] === ' ' ? 6 : 5)
    data = data === null ? value : `${data}\n${value}`
  }
  return data
}
