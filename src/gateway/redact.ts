/**
 * Finds a secret in every form it can take in text we write or relay, and replaces it with `[redacted]`:
 * - as is, and with any of its characters JSON-escaped (`\u0061`, `\"`, `\/`, escaped again inside a quoted
 *   message: `\\u0061`, `\\\"`) or URL-encoded (`%61`), in any mix;
 * - base64 (standard and URL alphabets) at each of the three alignments it can start at inside a longer encoded
 *   text, and hex (secrets of 8 characters or more: shorter fragments would match ordinary text).
 * Secrets shorter than 4 characters are ignored.
 */
export class SecretMatcher {
  private readonly pattern: RegExp | null
  /** Exact forms (as is, URL-encoded, base64, hex): what a streamed text may end with a piece of. */
  private readonly exact: string[]

  constructor(secrets: readonly string[]) {
    const usable = [...new Set(secrets)].filter((s) => s.length >= 4)
    const alternatives = usable.flatMap((secret) => formsOf(secret))
    this.exact = [...new Set(usable.flatMap((secret) => exactFormsOf(secret)))]
    // Longest first, so a form that contains another is replaced whole.
    this.pattern =
      alternatives.length > 0 ? new RegExp(alternatives.sort((a, b) => b.length - a.length).join('|'), 'g') : null
  }

  get empty(): boolean {
    return this.pattern === null
  }

  redact(text: string): string {
    return this.pattern ? text.replace(this.pattern, '[redacted]') : text
  }

  /** Where each form found in `text` starts and ends. */
  matches(text: string): Array<[number, number]> {
    if (!this.pattern) return []
    return [...text.matchAll(this.pattern)].map((m) => [m.index, m.index + m[0].length])
  }

  /**
   * How many characters at the end of `text` could be the start of a form (of its exact forms: as is,
   * URL-encoded, base64, hex): a stream holds them back until the next piece shows whether the secret follows.
   */
  partialTail(text: string): number {
    let longest = 0
    for (const form of this.exact) {
      const from = Math.max(0, text.length - form.length + 1)
      for (let at = text.indexOf(form[0]!, from); at !== -1; at = text.indexOf(form[0]!, at + 1)) {
        if (text.length - at <= longest) break
        if (form.startsWith(text.slice(at))) {
          longest = text.length - at
          break
        }
      }
    }
    return longest
  }
}

const matchers = new Map<string, SecretMatcher>()

/** The matcher of a set of secrets, built once (a run has one or two keys). */
export function secretMatcher(secrets: readonly string[]): SecretMatcher {
  const id = secrets.join('\0')
  let matcher = matchers.get(id)
  if (!matcher) {
    matcher = new SecretMatcher(secrets)
    if (matchers.size > 64) matchers.clear()
    matchers.set(id, matcher)
  }
  return matcher
}

/** Replaces every form of each secret (see `SecretMatcher`) with `[redacted]`. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  return secrets.length === 0 ? text : secretMatcher(secrets).redact(text)
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')
/** A hex digit in either case. */
const hexDigit = (d: string) => (/[a-f]/i.test(d) ? `[${d.toLowerCase()}${d.toUpperCase()}]` : d)
const hexPattern = (code: number, width: number) => [...code.toString(16).padStart(width, '0')].map(hexDigit).join('')

/** The secret with each character as is, JSON-escaped (any number of times) or URL-encoded. */
function formsOf(secret: string): string[] {
  const chars = [...secret].map((char) => {
    const options = [escapeRegex(char)]
    // A character outside the BMP escapes as its two UTF-16 units.
    options.push(
      char
        .split('')
        .map((unit) => `\\\\+u${hexPattern(unit.charCodeAt(0), 4)}`)
        .join(''),
    )
    if (char === '"' || char === '/') options.push(`\\\\+${escapeRegex(char)}`)
    if (char === '\\') options.push('\\\\+')
    const bytes = Buffer.from(char, 'utf8')
    options.push([...bytes].map((b) => `%${hexPattern(b, 2)}`).join(''))
    return `(?:${options.join('|')})`
  })
  const forms = [chars.join('')]
  if (secret.length >= 8)
    forms.push(
      ...encodedFormsOf(secret).map((form) => [...form].map((c) => (c === '/' ? '\\\\*\\/' : escapeRegex(c))).join('')),
    )
  return forms
}

function exactFormsOf(secret: string): string[] {
  return [secret, encodeURIComponent(secret), ...(secret.length >= 8 ? encodedFormsOf(secret) : [])]
}

/**
 * Base64 of the secret at each alignment inside a longer text (only the characters that depend on the secret
 * alone), in both alphabets, and hex in both cases.
 */
function encodedFormsOf(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8')
  const forms: string[] = [bytes.toString('hex'), bytes.toString('hex').toUpperCase()]
  for (let align = 0; align < 3; align++) {
    const encoded = Buffer.concat([Buffer.alloc(align), bytes]).toString('base64')
    const fragment = encoded.slice(Math.ceil((8 * align) / 6), Math.floor((8 * (align + bytes.length)) / 6))
    forms.push(fragment, fragment.replace(/\+/g, '-').replace(/\//g, '_'))
  }
  return [...new Set(forms)]
}
