import type { Grader } from '../../core/answer.js'
import type { Table } from '../../core/schemas.js'
import { caseLabel } from '../../core/case-label.js'

/**
 * The names of the built-in question suites (`QA_SUITES` is keyed by exactly these). Apart from the suites
 * themselves so a report can recognise their records without loading them.
 */
export const BUILT_IN_QA_SUITES = ['bespoke', 'hard', 'large', 'messy', 'wtq', 'dabench'] as const
export type BuiltInQaSuite = (typeof BUILT_IN_QA_SUITES)[number]

/** One question and the grader of its answer. */
export interface QaTurn {
  question: string
  grader: Grader
}

interface QaCaseBase {
  id: string
  category: string
  /** Named tables the agent's session is opened over. */
  data: Record<string, Table>
  /**
   * Facts about the case copied into the metrics of every run of it, whatever the outcome (DABench: the number
   * of sub-answers and the concepts), so reports can break results down without the suite at hand.
   */
  metrics?: Readonly<Record<string, number>>
}

/** A single-shot question case. */
export interface SingleQaCase extends QaCaseBase {
  question: string
  grader: Grader
}

/** A conversation: turns asked in order in one session; turn ids are `id#t<n>`. */
export interface ConversationQaCase extends QaCaseBase {
  turns: QaTurn[]
}

/** A case is data, not a test: the same case runs under Vitest (`qaSuite`) and the CLI (`qa`). */
export type QaCase = SingleQaCase | ConversationQaCase

export interface QaSuiteOptions {
  seed: number
  /** WikiTableQuestions and DABench: a full release folder instead of the bundled slice. */
  dataDir?: string
  /** Draw a deterministic sample of this many cases (seeded by `seed`). */
  limit?: number
}

/** A suite returns its cases, deterministic given the seed. */
export type QaSuite = (opts: QaSuiteOptions) => QaCase[] | Promise<QaCase[]>

export function isConversationCase(c: QaCase): c is ConversationQaCase {
  return Array.isArray((c as ConversationQaCase).turns)
}

/** The turns of a case: a single-shot case is one turn. */
export function turnsOf(c: QaCase): QaTurn[] {
  return isConversationCase(c) ? c.turns : [c]
}

/** The turn number recorded on runs: null for single-shot cases, 1-based in conversations. */
export function turnNumber(c: QaCase, index: number): number | null {
  return isConversationCase(c) ? index + 1 : null
}

/** `id` for single-shot cases, `id#t<n>` for a conversation's turns. */
export function turnId(c: QaCase, index: number): string {
  return caseLabel({ caseId: c.id, turn: turnNumber(c, index) })
}
