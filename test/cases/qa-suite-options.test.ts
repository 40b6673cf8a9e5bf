import { describe, expect, it } from 'vitest'
import { InputError } from '../../src/core/errors.js'
import { qaSuite as jestQaSuite } from '../../src/jest/qa-suite.js'
import { qaSuite as vitestQaSuite } from '../../src/vitest/qa-suite.js'

// Issue 26 item 12: qaSuite's options go through the same checks as evalCase's and conversation's, in both
// runners, at collection (before a test is registered or Jest's globals are read).

const KNOWN = 'known options: agent, trials, seed, name, timeout, generation, dataDir, limit, llm'

describe.each([
  ['Vitest', vitestQaSuite],
  ['Jest', jestQaSuite],
])('%s qaSuite options', (_runner, qaSuite) => {
  it.each([
    [{ agent: 'mock-qa', trails: 3 }, `qaSuite: unknown option "trails" (did you mean "trials"?); ${KNOWN}`],
    [{ agent: 'mock-qa', timout: 5 }, `qaSuite: unknown option "timout" (did you mean "timeout"?); ${KNOWN}`],
    [{ agent: 'mock-qa', model: 'x' }, `qaSuite: unknown option "model"; ${KNOWN}`],
    [{ agent: 'mock-qa', timeout: -5 }, 'qaSuite: timeout must be a positive number of milliseconds, got -5'],
    [
      { agent: 'mock-qa', timeout: Number.POSITIVE_INFINITY },
      'qaSuite: timeout must be a positive number of milliseconds, got Infinity',
    ],
    [{ agent: 'mock-qa', timeout: '5' }, 'qaSuite: timeout must be a positive number of milliseconds, got "5"'],
    [{ agent: 'mock-qa', trials: 0 }, 'qaSuite: trials must be a positive integer, got 0'],
    [{ agent: 'mock-qa', seed: 1.5 }, 'qaSuite: seed must be an integer, got 1.5'],
    [{ agent: 'mock-qa', limit: -1 }, 'qaSuite: limit must be a positive integer, got -1'],
    [{ agent: 'mock-qa', name: '' }, 'qaSuite: name must be a non-empty string, got ""'],
    [{ agent: 'mock-qa', dataDir: 3 }, 'qaSuite: dataDir must be a folder path, got 3'],
    [{ trials: 1 }, 'qaSuite: agent is required'],
  ])('refuses %o', (options, message) => {
    expect(() => qaSuite('bespoke', options as never)).toThrow(new InputError(message))
  })

  it('refuses options that are not an object', () => {
    expect(() => qaSuite('bespoke', undefined as never)).toThrow(
      new InputError('qaSuite: options must be an object with an agent'),
    )
  })
})
