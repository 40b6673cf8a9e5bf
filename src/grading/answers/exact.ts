import type { Answer, GradeResult } from '../../core/answer.js'
import { InputError } from '../../core/errors.js'
import { kindOf, show } from './describe.js'
import type { SyncGrader } from './grader-types.js'

/**
 * Passes when `answer.value` deeply equals `expected`: no coercion ("5" is not 5), numbers by === (NaN
 * equals NaN, 0 equals -0), arrays in order, plain objects by their own enumerable keys (a key holding
 * undefined still counts as a key). Tables are objects, so they compare as { columns, rows }.
 */
export function exact(expected: unknown): SyncGrader {
  if (expected === undefined) throw new InputError('exact(): expected value is undefined (nothing to compare)')
  return (answer: Answer): GradeResult => {
    if (answer.value === undefined)
      return { passed: false, detail: `expected value ${show(expected)}, but the answer has no value` }
    const diff = firstDifference(expected, answer.value, 'value')
    if (diff === null) return { passed: true, detail: `value equals ${show(expected)}` }
    return { passed: false, detail: `${diff} (expected value ${show(expected)}, found ${show(answer.value)})` }
  }
}

/** A description of the first place where `got` differs from `want`, or null when they are equal. */
function firstDifference(want: unknown, got: unknown, path: string): string | null {
  if (typeof want === 'number' && typeof got === 'number') {
    return want === got || (Number.isNaN(want) && Number.isNaN(got))
      ? null
      : `${path}: expected ${show(want)}, found ${show(got)}`
  }
  if (want === got) return null
  if (kindOf(want) !== kindOf(got)) {
    return `${path}: expected ${kindOf(want)} ${show(want, 40)}, found ${kindOf(got)} ${show(got, 40)}`
  }
  if (typeof want !== 'object' || want === null || typeof got !== 'object' || got === null) {
    return `${path}: expected ${show(want, 40)}, found ${show(got, 40)}`
  }
  if (Array.isArray(want) && Array.isArray(got)) {
    for (let i = 0; i < Math.min(want.length, got.length); i++) {
      const d = firstDifference(want[i], got[i], `${path}[${i}]`)
      if (d) return d
    }
    return want.length === got.length ? null : `${path}: expected ${want.length} items, found ${got.length}`
  }
  const w = want as Record<string, unknown>
  const g = got as Record<string, unknown>
  const wantKeys = Object.keys(w)
  const gotKeys = Object.keys(g)
  const missing = wantKeys.filter((k) => !Object.hasOwn(g, k))
  if (missing.length)
    return `${path}: missing key${missing.length > 1 ? 's' : ''} ${missing.map((k) => JSON.stringify(k)).join(', ')}`
  const extra = gotKeys.filter((k) => !Object.hasOwn(w, k))
  if (extra.length)
    return `${path}: unexpected key${extra.length > 1 ? 's' : ''} ${extra.map((k) => JSON.stringify(k)).join(', ')}`
  for (const key of wantKeys) {
    const d = firstDifference(w[key], g[key], `${path}.${key}`)
    if (d) return d
  }
  return null
}
