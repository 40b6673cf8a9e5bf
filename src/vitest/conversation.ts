import type { RunnerTestCase as Test, TestContext } from 'vitest'
import { afterAll, test as vitestTest } from 'vitest'
import { type ConversationOptions, conversationSession, turnTestName } from '../cases/conversation-turns.js'
import type { Answer } from '../core/answer.js'
import type { Trajectory } from '../grading/trajectory.js'
import { withQuestionAnnotated } from './annotate.js'
import { metaOf, runInTest } from './current.js'

export type { ConversationOptions }

export type Turn = [
  question: string,
  check: (
    answer: Answer,
    ctx: { turn: number; test: TestContext; trajectory(): Trajectory },
  ) => unknown | Promise<unknown>,
]

/**
 * One session, turns asked in order, each turn its own test named `name#t<n>`. State persists across turns;
 * a failed turn does not stop the later ones (they still ask their questions in order). A turn that runs
 * alone (`-t`) first asks the turns before it. Each question gets its own timeout and abort signal, so a hung
 * question fails its turn without holding up the next; the session is closed after the last turn.
 */
export function conversation(name: string, options: ConversationOptions, turns: Turn[]): void {
  const session = conversationSession(name, options, turns)
  afterAll(() => session.close())

  turns.forEach(([question, check], index) => {
    const turn = index + 1
    // A turn run alone may first wait for the questions before it, each with its own timeout.
    const timeout = session.runnerTimeoutMs(index)
    vitestTest(
      turnTestName(name, turn),
      { timeout, meta: { dataforge: session.turnMeta(turn) } },
      async (context: TestContext) => {
        const test = context.task as Test
        await runInTest(test, () =>
          withQuestionAnnotated(test, `t${turn}: ${question}`, () =>
            session.runTurn(metaOf(test), index, (answer) =>
              check(answer, { turn, test: context, trajectory: () => session.trajectory(metaOf(test), index) }),
            ),
          ),
        )
      },
    )
  })
}
