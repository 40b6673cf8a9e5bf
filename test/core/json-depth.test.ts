import { describe, expect, it } from 'vitest'
import { checkJsonDepth, MAX_JSON_DEPTH } from '../../src/core/json-depth.js'

const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`
const outcome = (text: string) => {
  try {
    checkJsonDepth(text, (line) => `f: line ${line}`)
    return 'ok'
  } catch (error) {
    return (error as Error).message
  }
}

describe('checkJsonDepth', () => {
  it('takes nesting up to the limit, refuses one level more, naming the line where it passed the limit', () => {
    expect(outcome(deep(MAX_JSON_DEPTH))).toBe('ok')
    expect(outcome(deep(MAX_JSON_DEPTH + 1))).toMatch(/^f: line 1: arrays or objects nested more than 256 levels deep/)
    expect(outcome(`{\n"a": 1,\n"b": ${deep(300)}}`)).toMatch(/^f: line 3: /)
  })

  it('skips brackets inside strings, escaped quotes and backslashes included', () => {
    expect(outcome(JSON.stringify({ a: '['.repeat(1000) }))).toBe('ok')
    expect(outcome(JSON.stringify({ a: `\\"${'{'.repeat(1000)}` }))).toBe('ok')
    expect(outcome(`{"a":"x\\\\","b":${deep(300)}}`)).toMatch(/nested more than/)
  })
})
