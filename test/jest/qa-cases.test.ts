import { describe, expect, it } from 'vitest'
import { qaCases, qaCasesNow, qaPlan } from '../../src/cases/qa-turns.js'
import { hardSuite, loadQaSuite, loadQaSuiteSync, QA_SUITES } from '../../src/datasets/questions/index.js'
import { wtqSuite } from '../../src/datasets/wtq/suite.js'

// Jest's qaSuite needs its cases when the file is collected: the synchronous loads must give what the
// asynchronous ones (Vitest's qaSuite, the qa command) give.

const ids = (cases: Array<{ id: string }>) => cases.map((c) => c.id)

describe('question cases known at collection (Jest qaSuite)', () => {
  it('every built-in suite loads synchronously the cases it loads asynchronously, sampled the same way', async () => {
    // `large` builds 100,000-row tables per call; its suite function is synchronous like the others.
    for (const name of Object.keys(QA_SUITES).filter((n) => n !== 'large')) {
      for (const opts of [{ seed: 1 }, { seed: 3, limit: 4 }]) {
        expect(ids(loadQaSuiteSync(name, opts)), `${name} ${JSON.stringify(opts)}`).toEqual(
          ids(await loadQaSuite(name, opts)),
        )
      }
    }
    expect(() => loadQaSuiteSync('nope', { seed: 1 })).toThrow(
      /unknown suite "nope": use one of bespoke, hard, large, messy, wtq/,
    )
  })

  it('takes a suite by name, a sync suite function or the cases; a suite returning a promise is refused with what to do', async () => {
    const plan = qaPlan('wtq', { agent: 'mock-qa', limit: 2 })
    expect(ids(qaCasesNow('wtq', plan.suiteOptions, loadQaSuiteSync))).toEqual(
      ids(await qaCases('wtq', plan.suiteOptions)),
    )
    expect(ids(qaCasesNow(hardSuite, { seed: 1 }, loadQaSuiteSync))).toEqual(ids(hardSuite({ seed: 1 })))
    const cases = wtqSuite({ seed: 1, limit: 3 })
    expect(qaCasesNow(cases, { seed: 1 }, loadQaSuiteSync)).toBe(cases)
    const asyncSuite = async () => cases
    expect(() => qaCasesNow(asyncSuite, { seed: 1 }, loadQaSuiteSync)).toThrow(
      "qaSuite: the suite asyncSuite returns a promise, and Jest registers a file's tests synchronously; pass its cases instead (qaSuite(await asyncSuite({ seed: 1 }), …) in an ESM test file) or a suite that returns them",
    )
    expect(() => qaCasesNow([], { seed: 1 }, loadQaSuiteSync)).toThrow('qaSuite: the suite returned no cases')
    expect(qaPlan(cases, { agent: 'mock-qa' }).name).toBe('qa')
    expect(qaPlan(hardSuite, { agent: 'mock-qa' }).name).toBe('hard')
  })
})
