import { describe, expect, it } from 'vitest'
import { parseDataforgeMeta } from '../src/core/test-meta.js'
import { newMeta } from '../src/vitest/meta.js'

describe('the Vitest test meta schema', () => {
  it('accepts what evalCase writes and names the test and field of a malformed one', () => {
    const meta = newMeta({ caseId: 'c', suite: 's', dataset: 'd', agent: 'a' })
    expect(parseDataforgeMeta(meta, 'c [trial 1/1]')).toEqual(meta)
    expect(() => parseDataforgeMeta({ ...meta, trial: -1 }, 'c [trial 1/1]')).toThrow(/test "c \[trial 1\/1\]": invalid dataforge meta at trial: /)
    expect(() => parseDataforgeMeta({ ...meta, matchers: [{ matcher: 'x' }] }, 't')).toThrow(/at matchers\.0\.passed/)
  })
})
