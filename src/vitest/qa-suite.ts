import type { RunnerTestCase as Test, TestContext } from 'vitest'
import { afterAll, describe, test as vitestTest } from 'vitest'
import { turnId, turnsOf } from '../datasets/questions/types.js'
import type { QaTrialSession } from '../run/run-qa-trial.js'
import { withQuestionAnnotated } from './annotate.js'
import { metaOf, runInTest } from './current.js'
import { trialTestName } from './eval-case.js'
import { agentIdentity } from '../core/trial-identity.js'
import { turnRunnerTimeoutMs } from '../cases/conversation-turns.js'
import {
  qaCases,
  qaPlan,
  type QaSuiteInput,
  type QaSuiteRunOptions,
  qaTurnMeta,
  resolveQaAgent,
  runQaTurn,
} from '../cases/qa-turns.js'

export type { QaSuiteRunOptions }

/**
 * Registers a question suite as tests: a `describe` named after the suite holding one test per case (or
 * conversation turn, `id#t<n>`) and trial, named `id [trial i/N · seed s]`. Each test is recorded like an
 * `evalCase` run: identity, usage, steps, failures and the grader's verdict (through `toPass`), so the
 * reporter builds the same RunRecords as the `qa` command. A conversation's turns share one session per
 * trial and are asked in order; a failed turn does not stop the later ones.
 */
export function qaSuite(suite: QaSuiteInput, options: QaSuiteRunOptions): void {
  const plan = qaPlan(suite, options)
  const { name, trials, seed, timeoutMs } = plan

  describe(name, async () => {
    // The trial path (and the answer schema's zod) loads with the first suite: plain evalCase files do not pay for it.
    const [cases, agent, { QaTrialSession, qaDataDigest }, llm] = await Promise.all([
      qaCases(suite, plan.suiteOptions),
      resolveQaAgent(options.agent),
      import('../run/run-qa-trial.js'),
      plan.llm(),
    ])
    const sessions: QaTrialSession[] = []
    afterAll(async () => {
      await Promise.all(sessions.map((s) => s.close()))
    })
    for (const qaCase of cases) {
      for (let trial = 0; trial < trials; trial++) {
        const trialSeed = seed + trial
        const session = new QaTrialSession(agent, qaCase, { seed: trialSeed, timeoutMs, llm, trial })
        sessions.push(session)
        turnsOf(qaCase).forEach(({ question }, index) => {
          const meta = qaTurnMeta(plan, qaCase, index, trial, agentIdentity(agent), options.generation)
          const testName = trialTestName(turnId(qaCase, index), trial, trials, trialSeed)
          vitestTest(
            testName,
            { timeout: turnRunnerTimeoutMs(timeoutMs, index), meta: { dataforge: meta } },
            async (context: TestContext) => {
              const test = context.task as Test
              // The question is annotated on failed turns (every turn under DATAFORGE_ANNOTATE=all).
              await runInTest(test, () =>
                withQuestionAnnotated(test, `${turnId(qaCase, index)}: ${question}`, () =>
                  runQaTurn(
                    metaOf(test),
                    { session, qaCase, index, dataSha256: qaDataDigest(qaCase), timeoutMs },
                    (answer, grader) => context.expect(answer).toPass(grader),
                  ),
                ),
              )
            },
          )
        })
      }
    }
  })
}
