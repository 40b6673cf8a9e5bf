import {
  qaCasesNow,
  qaPlan,
  type QaSuiteInput,
  type QaSuiteRunOptions,
  qaTurnMeta,
  resolveQaAgent,
  runQaTurn,
} from '../cases/qa-turns.js'
import { specIdentity, trialTestName } from '../cases/eval-trial.js'
import { agentIdentity } from '../core/trial-identity.js'
import { putAgent } from '../test-meta/put.js'
import { turnRunnerTimeoutMs } from '../cases/conversation-turns.js'
import type { DataAgent } from '../core/data-agent.js'
import type { DataforgeMeta } from '../test-meta/build.js'
import { loadQaSuiteSync } from '../datasets/questions/index.js'
import { turnId, turnsOf } from '../datasets/questions/types.js'
import { QaTrialSession, qaDataDigest } from '../run/run-qa-trial.js'
import { caseTest, jestGlobals, startMeta } from './globals.js'

/**
 * Jest's `qaSuite`: a `describe` named after the suite, one `test` per case (or turn, `id#t<n>`) and trial,
 * named and recorded as under Vitest. Jest collects a file's tests without awaiting, so the cases must be known
 * at once: the built-in suites (by name) load synchronously, a suite function must return its cases (not a
 * promise), or pass the cases themselves. A named agent is resolved before the suite's first test runs.
 */
export function qaSuite(suite: QaSuiteInput, options: QaSuiteRunOptions): void {
  const plan = qaPlan(suite, options)
  const jest = jestGlobals('qaSuite')
  const cases = qaCasesNow(suite, plan.suiteOptions, loadQaSuiteSync)
  // A named agent's identity until it is resolved: the suite's `beforeAll` resolves it and puts it on every test's
  // meta, so its skipped tests record it too; only a suite none of whose tests runs keeps this one.
  const identity = specIdentity(options.agent)
  let agent: Promise<DataAgent> | null = null
  const agentNow = () => {
    agent ??= resolveQaAgent(options.agent)
    return agent
  }
  // One session per case and trial, opened by its first question.
  const sessions = new Map<string, Promise<QaTrialSession>>()
  const sessionOf = (caseIndex: number, trial: number) => {
    const key = `${caseIndex}#${trial}`
    let session = sessions.get(key)
    if (!session) {
      session = Promise.all([agentNow(), plan.llm()]).then(
        ([a, llm]) =>
          new QaTrialSession(a, cases[caseIndex]!, { seed: plan.seed + trial, timeoutMs: plan.timeoutMs, llm, trial }),
      )
      sessions.set(key, session)
    }
    return session
  }

  const metas: DataforgeMeta[] = []
  jest.describe(plan.name, () => {
    // Jest runs it only when a test of the suite runs, before the first; a failure to resolve is left to the
    // tests, which fail with it as each asks its first question.
    jest.beforeAll(async () => {
      const resolved = await agentNow().catch(() => null)
      if (resolved) for (const meta of metas) putAgent(meta, agentIdentity(resolved))
    }, plan.timeoutMs)
    jest.afterAll(async () => {
      await Promise.all([...sessions.values()].map(async (s) => (await s.catch(() => null))?.close()))
    })
    cases.forEach((qaCase, caseIndex) => {
      for (let trial = 0; trial < plan.trials; trial++) {
        turnsOf(qaCase).forEach((_, index) => {
          const meta = qaTurnMeta(plan, qaCase, index, trial, identity, options.generation)
          metas.push(meta)
          jest.test(
            trialTestName(turnId(qaCase, index), trial, plan.trials, plan.seed + trial),
            caseTest(async () => {
              const live = startMeta('qaSuite', meta)
              putAgent(live, agentIdentity(await agentNow()))
              const session = await sessionOf(caseIndex, trial)
              await runQaTurn(
                live,
                { session, qaCase, index, dataSha256: qaDataDigest(qaCase), timeoutMs: plan.timeoutMs },
                (answer, grader) => jest.expect(answer).toPass(grader),
              )
            }, meta),
            // A turn run alone first asks the turns before it, each with its own timeout.
            turnRunnerTimeoutMs(plan.timeoutMs, index),
          )
        })
      }
    })
  })
}
