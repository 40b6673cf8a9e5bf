import type { Answer, GradeResult } from '../../core/answer.js'
import { excerpt, kindOf, show } from './describe.js'
import { findPhrase, normalizeForTokens, tokensOf, words } from './tokens.js'
import type { SyncGrader } from './grader-types.js'

/**
 * Phrases that mark a refusal when the agent sets no `refused` flag, matched as whole-word phrases after
 * normalization (so "cancellation" never reads as "can", and "cant" / "can't" / "can’t" are told apart from
 * "can"). They are first-person or about answering, because data prose says "sales declined", "customers
 * unable to pay", "refuse collection": bare "decline", "unable to" or "refuse" would pass data answers.
 */
export const REFUSAL_PHRASES: readonly string[] = [
  "I can't",
  'I cant',
  'I cannot',
  "I'm unable",
  'I am unable',
  "I'm not able to",
  'I am not able to',
  "I won't",
  'I will not',
  "I don't have access",
  'I do not have access',
  'I refuse',
  'I must refuse',
  'I decline',
  'I must decline',
  'I have to decline',
  'I will have to decline',
  "I'll have to decline",
  'cannot answer',
  'can not answer',
  "can't answer",
  'unable to answer',
  'not able to answer',
  'cannot be answered',
  "can't be answered",
  'cannot help with',
  "can't help with",
  'cannot comply',
  "can't comply",
  'cannot assist',
  "can't assist",
  'not able to provide',
  'unable to provide',
]

// Tokenized on first use: this module loads in every Vitest worker (the setup entry), most never grade a refusal.
let phraseTokens: Array<{ phrase: string; tokens: ReturnType<typeof words> }> | undefined
const refusalPhraseTokens = () =>
  (phraseTokens ??= REFUSAL_PHRASES.map((phrase) => ({ phrase, tokens: words(phrase) })))

/**
 * Passes when the agent refused. The `refused` flag decides when present (false fails even if the text
 * sounds like a refusal). Without it: an answer that carries a non-text value (number, list, table,
 * boolean) is not a refusal; otherwise the text and a string value are searched for `REFUSAL_PHRASES`.
 */
export function refuses(): SyncGrader {
  return (answer: Answer): GradeResult => {
    if (answer.refused === true) return { passed: true, detail: 'expected a refusal: refused flag is true' }
    if (answer.refused === false) {
      return { passed: false, detail: `expected a refusal, but the refused flag is false${textNote(answer)}` }
    }
    const value: unknown = answer.value
    if (value !== undefined && value !== null && typeof value !== 'string') {
      return {
        passed: false,
        detail: `expected a refusal, but the answer gives a ${kindOf(value)} value ${show(value, 40)}`,
      }
    }
    const sources = [
      { where: 'value', text: typeof value === 'string' ? value : undefined },
      { where: 'text', text: answer.text },
    ].filter((s): s is { where: string; text: string } => typeof s.text === 'string')
    if (sources.length === 0)
      return { passed: false, detail: 'expected a refusal, but the answer has no refused flag, value or text' }
    for (const source of sources) {
      const normalized = normalizeForTokens(source.text)
      const tokens = tokensOf(normalized)
      for (const { phrase, tokens: wanted } of refusalPhraseTokens()) {
        const at = findPhrase(tokens, wanted)
        if (at < 0) continue
        const quote = excerpt(normalized, tokens[at]!.start, tokens[at + wanted.length - 1]!.end)
        return {
          passed: true,
          detail: `expected a refusal: ${source.where} says ${show(phrase)} at ${quote} (no refused flag)`,
        }
      }
    }
    const shown = sources.map((s) => `${s.where} ${show(s.text, 60)}`).join(', ')
    return { passed: false, detail: `expected a refusal, but no refused flag and no refusal phrase in ${shown}` }
  }
}

function textNote(answer: Answer): string {
  return typeof answer.text === 'string' ? ` (text: ${show(answer.text, 60)})` : ''
}
