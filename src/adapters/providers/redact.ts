/** Replaces every occurrence of each secret with `[redacted]`; secrets shorter than 4 characters are ignored. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text
  for (const secret of secrets) {
    if (secret.length < 4) continue
    out = out.split(secret).join('[redacted]')
  }
  return out
}
