import { type ConversationOptions, conversationSession, turnTestName } from '../cases/conversation-turns.js'
import type { Answer } from '../core/answer.js'
import type { Trajectory } from '../grading/trajectory.js'
import { caseTest, jestGlobals, startMeta } from './globals.js'

export type JestTurn = [
  question: string,
  check: (answer: Answer, ctx: { turn: number; trajectory(): Trajectory }) => unknown | Promise<unknown>,
]

/**
 * Jest's `conversation`: one session, each turn a `test` named `name#t<n>` as under Vitest, questions asked
 * strictly in order (a turn run alone first asks the turns before it), the session closed after the file.
 */
export function conversation(name: string, options: ConversationOptions, turns: JestTurn[]): void {
  const session = conversationSession(name, options, turns)
  const jest = jestGlobals('conversation')
  jest.afterAll(() => session.close())
  turns.forEach(([, check], index) => {
    const turn = index + 1
    jest.test(
      turnTestName(name, turn),
      caseTest(() => {
        const live = startMeta('conversation', session.turnMeta(turn))
        return session.runTurn(live, index, (answer) =>
          check(answer, { turn, trajectory: () => session.trajectory(live, index) }),
        )
      }, session.turnMeta(turn)),
      // A turn run alone may first wait for the questions before it, each with its own timeout.
      session.runnerTimeoutMs(index),
    )
  })
}
