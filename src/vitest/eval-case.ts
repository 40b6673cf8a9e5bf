import type { RunnerTestCase as Test, TestContext } from 'vitest'
import { afterAll, test as vitestTest } from 'vitest'
import {
  caseAgent,
  DEFAULT_TRIAL_TIMEOUT_MS,
  type EvalCaseOptions,
  type EvalTrialContext,
  runTrial,
  trialMeta,
  trialTestName,
} from '../cases/eval-trial.js'
import { checkTimeoutMs, runnerTimeoutMs } from '../run/with-timeout.js'
import { checkEvalCaseArgs } from '../cases/check-options.js'
import { metaOf, runInTest } from './current.js'

export type { BoundAgent, DatasetOption, EvalCaseOptions, TaskSource } from '../cases/eval-trial.js'
export { trialTestName }

export interface EvalCaseContext extends EvalTrialContext {
  /** Vitest's own test context (annotate, skip, onTestFinished…). */
  test: TestContext
}

type EvalBody = (ctx: EvalCaseContext) => unknown | Promise<unknown>
type Registrar =
  | typeof vitestTest
  | typeof vitestTest.only
  | typeof vitestTest.skip
  | typeof vitestTest.concurrent
  | typeof vitestTest.fails

function makeEvalCase(register: Registrar) {
  return (name: string, options: EvalCaseOptions, body: EvalBody): void => {
    checkEvalCaseArgs(name, options, body)
    const trials = options.trials ?? 1
    const timeoutMs = options.timeout ?? DEFAULT_TRIAL_TIMEOUT_MS
    checkTimeoutMs(timeoutMs, `evalCase "${name}": timeout`)
    const agentOf = caseAgent(options)
    // One hook per case would be a thousand for a thousand cases: only agents with a process to close get one.
    if (agentOf.closes) afterAll(() => agentOf.close())
    for (let trial = 0; trial < trials; trial++) {
      const meta = trialMeta(name, options, trial)
      // The Vitest timeout sits past ours, so an expired trial reports as our `timeout`, not Vitest's.
      register(
        trialTestName(name, trial, trials, meta.seed),
        { timeout: runnerTimeoutMs(timeoutMs), meta: { dataforge: meta } },
        async (context: TestContext) => {
          const test = context.task as Test
          // Vitest's `signal` is made when read: the trial reads it only if its own signal is read, and the context
          // gains Vitest's `test` in place (a spread would read it too).
          await runInTest(test, () =>
            runTrial(metaOf(test), options, agentOf, { trial, timeoutMs, parentSignal: () => context.signal }, (ctx) =>
              body(Object.assign(ctx, { test: context })),
            ),
          )
        },
      )
    }
  }
}

type EvalCaseFn = ReturnType<typeof makeEvalCase>

/**
 * Registers one Vitest test per trial, named `name [trial i/N · seed s]`. The body gets the label-hidden task,
 * the agent, the seed, an abort signal and `record()`; dataset id and hashes, agent, model, category, trial and
 * seed go on the test's meta for the reporter.
 */
export const evalCase: EvalCaseFn & { only: EvalCaseFn; skip: EvalCaseFn; concurrent: EvalCaseFn; fails: EvalCaseFn } =
  Object.assign(makeEvalCase(vitestTest), {
    only: makeEvalCase(vitestTest.only),
    skip: makeEvalCase(vitestTest.skip),
    concurrent: makeEvalCase(vitestTest.concurrent),
    // Expected to miss its bars (a floor agent): the test passes when an assertion fails, and the run is recorded
    // as not correct, so Score says what the assertions found.
    fails: makeEvalCase(vitestTest.fails),
  })
