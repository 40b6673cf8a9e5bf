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
import { caseTest, type JestGlobals, jestGlobals, startMeta } from './globals.js'

type EvalBody = (ctx: EvalTrialContext) => unknown | Promise<unknown>

function makeEvalCase(pick: (test: JestGlobals['test']) => JestGlobals['test'] | JestGlobals['test']['only']) {
  return (name: string, options: EvalCaseOptions, body: EvalBody): void => {
    checkEvalCaseArgs(name, options, body)
    const jest = jestGlobals('evalCase')
    const register = pick(jest.test)
    const trials = options.trials ?? 1
    const timeoutMs = options.timeout ?? DEFAULT_TRIAL_TIMEOUT_MS
    checkTimeoutMs(timeoutMs, `evalCase "${name}": timeout`)
    const agentOf = caseAgent(options)
    jest.afterAll(() => agentOf.close())
    for (let trial = 0; trial < trials; trial++) {
      const meta = trialMeta(name, options, trial)
      // Jest's timeout sits past ours, so an expired trial reports as our `timeout`, not Jest's.
      register(
        trialTestName(name, trial, trials, meta.seed),
        caseTest(async () => {
          await runTrial(startMeta('evalCase', meta), options, agentOf, { trial, timeoutMs }, body)
        }, meta),
        runnerTimeoutMs(timeoutMs),
      )
    }
  }
}

type EvalCaseFn = ReturnType<typeof makeEvalCase>

/**
 * Jest's `evalCase`: one `test` per trial, named `name [trial i/N · seed s]` as under Vitest, the agent bound
 * through the same trial path, the run recorded on the test's meta for the Jest setup and reporter.
 */
export const evalCase: EvalCaseFn & { only: EvalCaseFn; skip: EvalCaseFn; concurrent: EvalCaseFn; fails: EvalCaseFn } =
  Object.assign(
    makeEvalCase((test) => test),
    {
      only: makeEvalCase((test) => test.only),
      skip: makeEvalCase((test) => test.skip),
      // Each trial's verdicts land on its own test (the setup asks Jest which test an assertion runs in).
      concurrent: makeEvalCase((test) => test.concurrent),
      // Expected to miss its bars (a floor agent): Jest's `test.failing` passes when an assertion fails, and the
      // run is recorded as not correct, as under Vitest.
      fails: makeEvalCase((test) => test.failing),
    },
  )
