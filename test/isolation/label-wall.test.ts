import { describe, expect, it } from 'vitest'
import { mockAgent } from '../../src/testing/mock-oracle.js'
import type { AgentTask } from '../../src/core/schemas.js'
import { createRepairTask } from '../../src/datasets/create-repair-task.js'
import { loadDataset } from '../../src/datasets/index.js'
import { gradeRepair } from '../../src/grading/index.js'
import { bundledDatasets as canonicalDir } from '../helpers/dataset-paths.js'

/** Every string reachable from a value: own and inherited keys, symbols, getters, array items. */
function reachableStrings(root: unknown): Set<string> {
  const out = new Set<string>()
  const seen = new Set<unknown>()
  const stack: unknown[] = [root]
  while (stack.length) {
    const value = stack.pop()
    if (typeof value === 'string') {
      out.add(value)
      continue
    }
    if ((typeof value !== 'object' && typeof value !== 'function') || value === null || seen.has(value)) continue
    seen.add(value)
    for (
      let obj: object | null = value as object;
      obj && obj !== Object.prototype && obj !== Array.prototype && obj !== Function.prototype;
      obj = Object.getPrototypeOf(obj)
    ) {
      for (const key of Reflect.ownKeys(obj)) {
        if (typeof key === 'string') out.add(key)
        else out.add(String(key.description))
        const descriptor = Reflect.getOwnPropertyDescriptor(obj, key)
        if (!descriptor) continue
        if ('value' in descriptor) stack.push(descriptor.value)
        else if (descriptor.get) {
          try {
            stack.push(descriptor.get.call(value))
          } catch {
            // a throwing getter hides nothing
          }
        }
      }
    }
  }
  return out
}

/** A secret is exposed when it is a reachable string, or a whole JSON string inside serialized text. */
function exposes(found: Set<string>, secret: string): boolean {
  if (found.has(secret)) return true
  const quoted = JSON.stringify(secret)
  for (const s of found) if (s.length > secret.length + 2 && s.includes(quoted)) return true
  return false
}

/** Clean values that never appear anywhere in the dirty table: finding one would prove a leak. */
function leakCandidates(task: AgentTask, clean: string[]): string[] {
  const dirtyValues = new Set(task.dirty.rows.flat())
  return [...new Set(clean)].filter((v) => v.length >= 3 && !dirtyValues.has(v) && !task.columns.includes(v))
}

const hostileViews = (task: AgentTask): Array<[string, unknown]> => [
  ['the task object', task],
  ['JSON.stringify', JSON.stringify(task)],
  ['structuredClone', structuredClone(task)],
  ['Object.getOwnPropertyDescriptors', Object.getOwnPropertyDescriptors(task)],
  ['Object.getOwnPropertySymbols', Object.getOwnPropertySymbols(task)],
  ['Object.getPrototypeOf', Object.getPrototypeOf(task)],
]

describe('the label wall', () => {
  it('a hostile agent that walks the task finds no clean value (synthetic)', async () => {
    const { task } = await loadDataset({ id: 'synthetic', seed: 5, rows: 120 })
    const truth = (
      mockAgent.run(task, { seed: 5, trial: 0, signal: new AbortController().signal }) as { newValue: string }[]
    ).map((f) => f.newValue)
    const secrets = leakCandidates(task, truth)
    expect(secrets.length).toBeGreaterThan(10)
    for (const [how, view] of hostileViews(task)) {
      const found = reachableStrings(view)
      for (const secret of secrets) expect(exposes(found, secret), `${how} exposes ${secret}`).toBe(false)
    }
  })

  it('holds on a canonical set with its quirks (hospital)', async () => {
    const { task } = await loadDataset({ id: 'hospital', seed: 1, dataDir: canonicalDir })
    const truth = (
      mockAgent.run(task, { seed: 1, trial: 0, signal: new AbortController().signal }) as { newValue: string }[]
    ).map((f) => f.newValue)
    const secrets = leakCandidates(task, truth)
    expect(secrets.length).toBeGreaterThanOrEqual(5)
    const everything = new Set(hostileViews(task).flatMap(([, v]) => [...reachableStrings(v)]))
    for (const secret of secrets) expect(exposes(everything, secret), `leak of ${secret}`).toBe(false)
  })

  it('the task is deep-frozen: an agent cannot tamper with what gets graded', async () => {
    const { task } = await loadDataset({ id: 'synthetic', seed: 2, rows: 20 })
    expect(Object.isFrozen(task)).toBe(true)
    expect(Object.isFrozen(task.dirty.rows)).toBe(true)
    expect(Object.isFrozen(task.dirty.rows[0])).toBe(true)
    expect(Object.isFrozen(task.metadata)).toBe(true)
    expect(() => {
      ;(task.dirty.rows[0] as string[])[1] = 'tampered'
    }).toThrow(TypeError)
  })

  it('a copy of the task cannot be graded: truth is keyed by the original object', async () => {
    const { task } = createRepairTask({
      name: 'tiny',
      dirty: { columns: ['a', 'b'], rows: [['1', 'Londn']] },
      clean: { columns: ['a', 'b'], rows: [['1', 'London']] },
    })
    expect(gradeRepair(task, [{ row: 0, column: 'b', newValue: 'London' }]).f1).toBe(1)
    const copy = structuredClone(task)
    expect(() => gradeRepair(copy, [])).toThrow(/no ground truth/)
    expect(JSON.stringify(task)).not.toContain('London')
  })
})
