/** At most `max` characters, the last one `…` when cut. */
export function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}

/** Whitespace (newlines included) collapsed to single spaces, then truncated: text quoted in a one-line message. */
export function oneLine(text: string, max: number): string {
  return truncate(text.replace(/\s+/g, ' ').trim(), max)
}
