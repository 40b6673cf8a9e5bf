import { describe, expect, it } from 'vitest'
import { InputError } from '../../src/core/errors.js'
import { conversation, createMockQaAgent, evalCase, trialTestName } from '../../src/vitest/index.js'

// Usage errors are thrown where the helpers are called (at collection), before any test is registered.

const body = () => {}
const qa = createMockQaAgent({ 'q?': 1 })

describe('evalCase usage errors', () => {
  it.each([
    [{ agent: 'mock' }, 'evalCase "case": give a dataset or a task'],
    [
      { agent: 'mock', dataset: 'synthetic', task: () => ({}) as never },
      'evalCase "case": give a dataset or a task, not both',
    ],
    [
      { dataset: 'synthetic' },
      'evalCase "case": agent is required (a name like "baseline", a module path or an agent object)',
    ],
    [{ agent: 'mock', dataset: 'synthetic', trials: 0 }, 'evalCase "case": trials must be a positive integer, got 0'],
    [
      { agent: 'mock', dataset: 'synthetic', trials: 2.5 },
      'evalCase "case": trials must be a positive integer, got 2.5',
    ],
    [{ agent: 'mock', dataset: 'synthetic', seed: 1.5 }, 'evalCase "case": seed must be an integer, got 1.5'],
    [
      { agent: 'mock', dataset: 'synthetic', timeout: -5 },
      'evalCase "case": timeout must be a positive number of milliseconds, got -5',
    ],
  ])('refuses %o', (options, message) => {
    expect(() => evalCase('case', options as never, body)).toThrow(new InputError(message))
  })

  it('refuses a missing name or body', () => {
    expect(() => evalCase('case', { agent: 'mock' } as never, body)).toThrow(InputError)
    expect(() => evalCase('', { agent: 'mock', dataset: 'synthetic' }, body)).toThrow(
      'evalCase(): the name must be a non-empty string, got ""',
    )
    expect(() => evalCase('case', { agent: 'mock', dataset: 'synthetic' }, undefined as never)).toThrow(
      'evalCase "case": the last argument must be the eval body, a function',
    )
  })

  it('names trials as `name [trial i/N · seed s]`', () => {
    expect(trialTestName('hospital repair', 1, 3, 43)).toBe('hospital repair [trial 2/3 · seed 43]')
  })
})

describe('conversation usage errors', () => {
  it('refuses empty or malformed turns, a missing agent and bad timeouts', () => {
    expect(() => conversation('talk', { data: [{ a: 1 }], agent: qa }, [])).toThrow(
      'conversation "talk": turns must be a non-empty list of [question, check] pairs',
    )
    expect(() => conversation('talk', { data: [{ a: 1 }], agent: qa }, [['q?', 'check' as never]])).toThrow(
      'conversation "talk": turns[0] must be [question, check] with a string question and a check function',
    )
    expect(() => conversation('talk', { data: [{ a: 1 }], agent: {} as never }, [['q?', body]])).toThrow(
      'conversation "talk": agent must be a data agent with session(tables)',
    )
    expect(() => conversation('talk', { data: [{ a: 1 }], agent: qa, timeout: 0 }, [['q?', body]])).toThrow(
      'conversation "talk": timeout must be a positive number of milliseconds, got 0',
    )
  })
})

describe('unknown options are errors naming the option (JavaScript users get no type check)', () => {
  it('evalCase: `trails: 3` is refused, with the option it was meant to be', () => {
    expect(() => evalCase('case', { agent: 'mock', dataset: 'synthetic', trails: 3 } as never, body)).toThrow(
      new InputError(
        'evalCase "case": unknown option "trails" (did you mean "trials"?); known options: dataset, task, agent, isolate, agentMemoryMb, trials, seed, timeout, category, tags, generation, llm',
      ),
    )
  })

  it('conversation: an unknown option is refused', () => {
    expect(() => conversation('talk', { data: [{ a: 1 }], agent: qa, turns: 2 } as never, [['q?', body]])).toThrow(
      'conversation "talk": unknown option "turns"; known options: data, agent, isolate, suite, category, seed, generation, timeout, llm',
    )
  })

  it('matchers: an unknown option fails the assertion, naming it', async () => {
    const { mockAgent } = await import('../../src/testing/mock-oracle.js')
    const { createRepairTask } = await import('../../src/datasets/create-repair-task.js')
    const { task } = createRepairTask({
      name: 't',
      dirty: { columns: ['a', 'b'], rows: [['x', '1']] },
      clean: { columns: ['a', 'b'], rows: [['y', '1']] },
    })
    const fixes = await mockAgent.run(task, { seed: 0, trial: 0, signal: new AbortController().signal })
    expect(() => expect(fixes).toRepairCells(task, { minF: 0.5 } as never)).toThrow(
      'toRepairCells: unknown option "minF" (did you mean "minF1"?); known options: minF1, minPrecision, minRecall',
    )
    expect(() => expect({ value: 3 }).toBeNumeric(3, { tolerance: 0.1 } as never)).toThrow(
      'toBeNumeric: unknown option "tolerance"',
    )
    expect(() => expect({ fixes: [] }).toStayWithinBudget({ token: 5 } as never)).toThrow(
      'toStayWithinBudget: unknown option "token" (did you mean "tokens"?)',
    )
    expect(fixes).toRepairCells(task, { minF1: 1 })
  })
})
