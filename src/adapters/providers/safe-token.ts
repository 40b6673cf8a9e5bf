/** A header value fit for a message: a short token, else a placeholder. */
export function safeToken(value: string): string {
  return /^[\w.+/-]{1,64}$/.test(value) ? value : 'unprintable'
}
