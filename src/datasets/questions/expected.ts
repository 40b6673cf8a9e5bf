import type { Answer } from '../../core/answer.js'
import { deepFreeze } from '../../core/freeze.js'
import type { Table } from '../../core/schemas.js'
import type { QaCase, QaTurn } from './types.js'
import { turnsOf } from './types.js'

/**
 * The privileged path to expected answers. Suites store the answer they derived for each turn here, keyed by
 * the turn object, which no agent ever receives (agents get the tables and the question strings). Only the
 * `mock-qa` oracle reads it, to test the harness; graders never do (they close over their own expected value).
 */
const expectedByTurn = new WeakMap<QaTurn, Answer>()
const casesByData = new WeakMap<Record<string, Table>, QaCase[]>()

/** Records the answer a perfect agent gives to `turn`. */
export function setExpectedAnswer<T extends QaTurn>(turn: T, answer: Answer): T {
  expectedByTurn.set(turn, deepFreeze(answer))
  return turn
}

/** PRIVILEGED: the expected answer of a turn, for the oracle only. */
export function expectedAnswerOf(turn: QaTurn): Answer | undefined {
  return expectedByTurn.get(turn)
}

/**
 * Freezes a case's data (it is shared by every trial and agent) and remembers which case owns that data
 * object, so the oracle can find the cases from the tables its session is opened with.
 */
export function registerCase<C extends QaCase>(c: C): C {
  deepFreeze(c.data)
  const sharing = casesByData.get(c.data)
  if (sharing) sharing.push(c)
  else casesByData.set(c.data, [c])
  for (const turn of turnsOf(c)) {
    if (!expectedByTurn.has(turn)) throw new Error(`case ${c.id}: a turn has no expected answer (suite bug)`)
  }
  return c
}

/** PRIVILEGED: the cases asked over this data object (cases of one suite often share it), for the oracle only. */
export function casesOfData(tables: Record<string, Table>): readonly QaCase[] {
  return casesByData.get(tables) ?? []
}
