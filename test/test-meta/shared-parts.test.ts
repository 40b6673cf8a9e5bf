import { serialize } from 'node:v8'
import { describe, expect, it } from 'vitest'
import { createRepairTask } from '../../src/datasets/create-repair-task.js'
import { gradeRepair } from '../../src/grading/index.js'
import { isExactDataforgeMeta } from '../../src/test-meta/check.js'
import { newMeta } from '../../src/test-meta/build.js'
import { withSharedParts } from '../../src/test-meta/shared-parts.js'

const columns = ['id', 'city', 'state']
const { task } = createRepairTask({
  name: 'shared',
  dirty: {
    columns,
    rows: [
      ['1', 'Bostn', 'MA'],
      ['2', 'Austin', 'TX'],
    ],
  },
  clean: {
    columns,
    rows: [
      ['1', 'Boston', 'MA'],
      ['2', 'Austin', 'TX'],
    ],
  },
})

describe('withSharedParts', () => {
  it('keeps every value of the score, and shares the parts two clean scores have alike', () => {
    const a = gradeRepair(task, [{ row: 0, column: 'city', newValue: 'Boston' }])
    const b = gradeRepair(task, [{ row: 0, column: 'city', newValue: 'Boston' }])
    const [sa, sb] = [withSharedParts(a), withSharedParts(b)]
    expect(sa).toEqual(a)
    expect(JSON.stringify(sa)).toBe(JSON.stringify(a))
    expect(sa.diagnostics).toBe(sb.diagnostics)
    expect(sa.detection).toBe(sb.detection)
    expect(sa.perColumn.state).toBe(sb.perColumn.state)
    expect(sa.perColumn.id).toBe(sa.perColumn.state)
    expect(sa.warnings).toBe(sb.warnings)
    expect(Object.isFrozen(sa.diagnostics) && Object.isFrozen(sa.diagnostics.wrongValue)).toBe(true)
    expect(() => (sa.warnings as string[]).push('x')).toThrow(TypeError)
  })

  it("keeps a score's own diagnostics when it has issues, and a column named __proto__ as a column", () => {
    const wrong = gradeRepair(task, [{ row: 0, column: 'city', newValue: 'Bostonn' }])
    const shared = withSharedParts(wrong)
    expect(shared.diagnostics).toBe(wrong.diagnostics)
    expect(shared).toEqual(wrong)
    const proto = ['id', '__proto__']
    const { task: odd } = createRepairTask({
      name: 'odd',
      dirty: { columns: proto, rows: [['1', 'x']] },
      clean: { columns: proto, rows: [['1', 'y']] },
    })
    const score = withSharedParts(gradeRepair(odd, [{ row: 0, column: '__proto__', newValue: 'y' }]))
    expect(Object.keys(score.perColumn)).toEqual(['id', '__proto__'])
    expect(Object.getOwnPropertyDescriptor(score.perColumn, '__proto__')?.value).toMatchObject({ tp: 1, f1: 1 })
  })

  it('makes a batch of metas smaller on the wire, and the reporter still takes them as exact metas', () => {
    const metas = (share: boolean) =>
      Array.from({ length: 100 }, (_, i) => {
        const score = gradeRepair(task, [{ row: 0, column: 'city', newValue: 'Boston' }])
        const repair = share ? withSharedParts(score) : score
        const meta = newMeta({ caseId: `case ${i}`, dataset: 'shared', agent: 'fixer' })
        meta.matchers.push({ matcher: 'toRepairCells', passed: true, negated: false, summary: 's', score: 1, repair })
        return meta
      })
    const shared = metas(true)
    expect(shared.every(isExactDataforgeMeta)).toBe(true)
    expect(serialize(shared).length).toBeLessThan(0.8 * serialize(metas(false)).length)
  })
})
