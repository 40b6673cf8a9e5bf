import type { Answer, GradeResult } from '../../core/answer.js'
import { InputError } from '../../core/errors.js'
import { excerpt, show } from './describe.js'
import { answerSegments } from './segments.js'
import { findPhrase, normalizeForTokens, tokensOf, words } from './tokens.js'
import type { SyncGrader } from './grader-types.js'

export interface ContainsOptions {
  /** With several expected phrases: 'all' (the default) demands every one, 'any' at least one. */
  mode?: 'any' | 'all'
}

interface Hit {
  where: string
  quote: string
}

/**
 * Passes when the answer holds the expected phrase(s) as whole words (see `tokens.ts` for normalization):
 * `contains('NA')` fails on "analysis", `contains('US')` fails on "USA", `contains('New York')` passes on
 * "new-york" (a hyphen separates words). Looks in `answer.value` (strings, numbers, list items, table
 * cells, each on its own) and in `answer.text`. Several phrases default to mode 'all'.
 */
export function contains(expected: string | string[], opts: ContainsOptions = {}): SyncGrader {
  const phrases = typeof expected === 'string' ? [expected] : expected
  if (!Array.isArray(phrases) || phrases.length === 0) {
    throw new InputError('contains(): expected must be a non-empty string or a non-empty list of strings')
  }
  const mode = opts.mode ?? 'all'
  if (mode !== 'any' && mode !== 'all') {
    throw new InputError(`contains(): option mode must be 'any' or 'all', got ${show(mode)}`)
  }
  const wanted = phrases.map((phrase, i) => {
    if (typeof phrase !== 'string') throw new InputError(`contains(): expected[${i}] is not a string`)
    const tokens = words(phrase)
    // A phrase with no words (empty, or punctuation only) would match nothing or everything: refuse it.
    if (tokens.length === 0) throw new InputError(`contains(): expected phrase ${show(phrase)} has no words`)
    return { phrase, tokens }
  })

  return (answer: Answer): GradeResult => {
    const segments = answerSegments(answer).map((s) => {
      const normalized = normalizeForTokens(s.text)
      return { where: s.where, normalized, tokens: tokensOf(normalized) }
    })
    if (segments.length === 0) {
      return {
        passed: false,
        detail: `expected ${describeWanted(phrases, mode)}, but the answer has no value and no text`,
      }
    }
    const results = wanted.map(({ phrase, tokens }) => {
      for (const s of segments) {
        const at = findPhrase(s.tokens, tokens)
        if (at >= 0) {
          const quote = excerpt(s.normalized, s.tokens[at]!.start, s.tokens[at + tokens.length - 1]!.end)
          return { phrase, hit: { where: s.where, quote } as Hit }
        }
      }
      return { phrase, hit: undefined }
    })
    const found = results.filter((r) => r.hit)
    const missing = results.filter((r) => !r.hit).map((r) => r.phrase)
    const passed = mode === 'all' ? missing.length === 0 : found.length > 0
    const foundText = found.map((r) => `${show(r.phrase)} in ${r.hit!.where} ${r.hit!.quote}`).join('; ')
    const searched = segments.map((s) => s.where)
    const where =
      searched.length > 3 ? `${searched.slice(0, 3).join(', ')} and ${searched.length - 3} more` : searched.join(', ')
    const missingText = missing.length
      ? `missing ${missing.map((p) => show(p)).join(', ')} as whole words in ${where}${textSample(answer)}`
      : ''
    const detail = [`expected ${describeWanted(phrases, mode)}`, foundText && `found ${foundText}`, missingText]
      .filter(Boolean)
      .join('; ')
    return { passed, detail, score: found.length / results.length }
  }
}

function describeWanted(phrases: string[], mode: 'any' | 'all'): string {
  if (phrases.length === 1) return show(phrases[0])
  return `${mode} of [${phrases.map((p) => show(p)).join(', ')}]`
}

function textSample(answer: Answer): string {
  if (typeof answer.text === 'string') return ` (text: ${show(answer.text, 60)})`
  if (answer.value !== undefined && answer.value !== null) return ` (value: ${show(answer.value, 60)})`
  return ''
}
