import { afterEach, describe, expect, it } from 'vitest'
import type { Table } from '../../src/core/schemas.js'
import { createRepairTask } from '../../src/datasets/create-repair-task.js'

// The matchers are registered in this process by the repo's vitest.config.ts (src/vitest/setup.ts).

const clean: Table = {
  columns: ['id', 'city'],
  rows: [
    ['1', 'Boston'],
    ['2', 'Denver'],
  ],
}
const dirty: Table = {
  columns: ['id', 'city'],
  rows: [
    ['1', 'Bostn'],
    ['2', 'Denvr'],
  ],
}
const { task } = createRepairTask({ name: 'cities', dirty, clean })
const saved = process.env.DATAFORGE_SHOW_TRUTH

afterEach(() => {
  if (saved === undefined) delete process.env.DATAFORGE_SHOW_TRUTH
  else process.env.DATAFORGE_SHOW_TRUTH = saved
})

function failureOf(fixes: unknown[]): string {
  try {
    expect(fixes).toRepairCells(task)
  } catch (error) {
    return (error as Error).message
  }
  throw new Error('expected the matcher to fail')
}

describe('got → want in failure messages', () => {
  it('shows the clean value by default', () => {
    const message = failureOf([{ row: 0, column: 'city', newValue: 'Bostin' }])
    expect(message).toContain('0, city: "Bostin" → "Boston"')
    expect(message).toContain('1, city: (left as "Denvr") → "Denver"')
  })

  it('DATAFORGE_SHOW_TRUTH=0 hides only the clean value', () => {
    process.env.DATAFORGE_SHOW_TRUTH = '0'
    const message = failureOf([{ row: 0, column: 'city', newValue: 'Bostin' }])
    expect(message).toContain('0, city: "Bostin" → (hidden)')
    expect(message).toContain('1, city: (left as "Denvr") → (hidden)')
    expect(message).not.toMatch(/Boston|Denver/)
  })
})
