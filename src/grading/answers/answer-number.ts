import { findNumbers, type NumberMatch, type NumberOptions } from './numbers.js'

/**
 * Answer markers, strongest tier first. Matching is case-insensitive and whole-word.
 * The number an answer gives in prose is the first number after the LAST marker of the strongest tier that
 * has a number after it; with no such marker it is the FINAL number in the text. Tiers exist because a
 * weak marker often follows the answer ("The answer is 5, which is 20% more than 4" gives 5, not 20).
 */
export const ANSWER_MARKERS: readonly { tier: string; pattern: RegExp }[] = [
  { tier: 'final answer', pattern: /(?<![\p{L}\p{N}])final\s+answer(?![\p{L}\p{N}])/giu },
  {
    tier: 'answer',
    // "answer: 5", "answer = 5", "answer is 5", "**Answer**: 5", likewise "result"; but not "answer to question 3"
    pattern: /(?<![\p{L}\p{N}])(?:answer|result)[\s*_]*(?::|=|(?:is|was)(?![\p{L}\p{N}]))/giu,
  },
  {
    tier: 'connective',
    // "=", "≈", a colon not between digits (10:30 is a time), and the verbs is/are/was/were
    pattern: /=|≈|(?<!\d):|(?<![\p{L}\p{N}])(?:is|are|was|were)(?![\p{L}\p{N}])/giu,
  },
]

export interface AnswerNumber {
  value: number
  match: NumberMatch
  /** How the number was picked: after a marker of the named tier, or as the final number in the text. */
  source: { kind: 'marker'; tier: string; marker: string; index: number } | { kind: 'final' }
}

/** The number a prose answer gives (see `ANSWER_MARKERS`), or null when the text holds no number. */
export function answerNumberFromText(text: string, opts: NumberOptions = {}): AnswerNumber | null {
  const numbers = findNumbers(text, opts)
  if (numbers.length === 0) return null
  for (const { tier, pattern } of ANSWER_MARKERS) {
    const markers = [...text.matchAll(pattern)]
    for (let i = markers.length - 1; i >= 0; i--) {
      const marker = markers[i]!
      const end = marker.index + marker[0].length
      const next = numbers[firstAtOrAfter(numbers, end)]
      if (next) {
        return {
          value: next.value,
          match: next,
          source: { kind: 'marker', tier, marker: marker[0], index: marker.index },
        }
      }
    }
  }
  const last = numbers[numbers.length - 1]!
  return { value: last.value, match: last, source: { kind: 'final' } }
}

/** Index of the first match starting at or after `offset` (matches are in text order), or length. */
function firstAtOrAfter(numbers: readonly NumberMatch[], offset: number): number {
  let lo = 0
  let hi = numbers.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (numbers[mid]!.index < offset) lo = mid + 1
    else hi = mid
  }
  return lo
}
