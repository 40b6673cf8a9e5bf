/**
 * Word tokens for whole-word, whole-phrase matching.
 *
 * Text is NFKC-normalized (full-width letters, ligatures and the like fold to plain forms) and lower-cased;
 * a token is a run of letters, digits and combining marks. Everything else separates tokens: spaces,
 * punctuation, hyphens ("new-york" is "new" "york"), slashes. Two joiners stay inside a token: an
 * apostrophe between letters ("can't", "O'Brien"; ’ counts as ') and a `.` or `,` between digits ("3.5",
 * "1,234"), so that "3.5" does not match "3,5" nor "3. 5". Accents are kept: "Zurich" does not match
 * "Zürich". Case folding is `toLowerCase`, so "STRASSE" does not match "straße".
 */

interface Token {
  /** The normalized (lower-cased) token. */
  word: string
  /** Offsets of the token in the NFKC-normalized source text. */
  start: number
  end: number
}

const TOKEN = /[\p{L}\p{N}\p{M}]+(?:(?:(?<=\p{L})'(?=\p{L})|(?<=\p{N})[.,](?=\p{N}))[\p{L}\p{N}\p{M}]+)*/gu

/** The NFKC form that token offsets refer to (curly apostrophes straightened). */
export function normalizeForTokens(text: string): string {
  return text.normalize('NFKC').replace(/[\u2018\u2019\u02BC]/g, "'")
}

/** Tokens of already-normalized text, with offsets. */
export function tokensOf(normalized: string): Token[] {
  const out: Token[] = []
  for (const m of normalized.matchAll(TOKEN)) {
    out.push({ word: m[0].toLowerCase(), start: m.index, end: m.index + m[0].length })
  }
  return out
}

/** The normalized words of `text`. */
export function words(text: string): string[] {
  return tokensOf(normalizeForTokens(text)).map((t) => t.word)
}

/** Index of the first occurrence of `phrase` as a contiguous run in `tokens`, or -1. */
export function findPhrase(tokens: readonly Token[], phrase: readonly string[]): number {
  if (phrase.length === 0) return -1
  outer: for (let i = 0; i + phrase.length <= tokens.length; i++) {
    for (let j = 0; j < phrase.length; j++) {
      if (tokens[i + j]!.word !== phrase[j]) continue outer
    }
    return i
  }
  return -1
}
