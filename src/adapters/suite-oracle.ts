import type { Answer } from '../core/answer.js'
import type { DataAgent } from '../core/data-agent.js'
import { casesOfData, expectedAnswerOf } from '../datasets/questions/expected.js'
import { turnsOf } from '../datasets/questions/types.js'

/**
 * PRIVILEGED oracle for question suites (`mock-qa`): finds the cases asked over the data object its session
 * was opened with and answers each question with the answer the suite derived for it, read through the
 * suite's private registry (never from anything an agent receives). Within a session it follows the turns in
 * order (a conversation's repeated question gets the answer of its own turn). Scores 100% by construction;
 * it tests the harness, never a result. Data or a question it does not know gets a refusal.
 */
export const suiteOracle: DataAgent & { privileged: true } = {
  name: 'mock-qa',
  kind: 'oracle',
  privileged: true,
  session(tables) {
    const turns = casesOfData(tables).flatMap(turnsOf)
    let next = 0
    return {
      ask(question: string): Answer {
        const later = turns.findIndex((t, i) => i >= next && t.question === question)
        const at = later >= 0 ? later : turns.findIndex((t) => t.question === question)
        const expected = at >= 0 ? expectedAnswerOf(turns[at]!) : undefined
        if (!expected)
          return {
            refused: true,
            text: `mock-qa: no expected answer for this data and question: ${question}`,
            steps: 1,
          }
        next = at + 1
        return { ...expected, steps: 1 }
      },
    }
  },
}

/** Refuses every question: the floor of a suite, which passes exactly its refusal cases. */
export const refusingAgent: DataAgent = {
  name: 'refuse',
  kind: 'baseline',
  session() {
    return { ask: (): Answer => ({ refused: true, text: "I can't answer that from the data.", steps: 1 }) }
  },
}

/** Answers nothing (an empty answer): the floor that passes no case, refusals included. */
export const noopQaAgent: DataAgent = {
  name: 'noop-qa',
  kind: 'baseline',
  session() {
    return { ask: (): Answer => ({ steps: 1 }) }
  },
}
