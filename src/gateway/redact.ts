/**
 * Replaces every occurrence of each secret with `[redacted]`, in every form it can take in text we write: as
 * is, JSON-escaped once or twice (a key holding `"` or `\` reads `\"`, `\\\"` inside runs.jsonl or a quoted
 * message), and URL-encoded. Secrets shorter than 4 characters are ignored.
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text
  for (const secret of secrets) {
    if (secret.length < 4) continue
    for (const form of formsOf(secret)) out = out.split(form).join('[redacted]')
  }
  return out
}

function formsOf(secret: string): string[] {
  const once = JSON.stringify(secret).slice(1, -1)
  const twice = JSON.stringify(once).slice(1, -1)
  // Longest first, so a form that contains another is replaced whole.
  return [...new Set([twice, once, secret, encodeURIComponent(secret)])].sort((a, b) => b.length - a.length)
}
