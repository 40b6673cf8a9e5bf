import { serialize } from 'node:v8'
import { describe, expect, it } from 'vitest'
import { AgentFailure } from '../../src/core/errors.js'
import { sha256Hex } from '../../src/core/hash.js'
import { MAX_VALUE_CHARS } from '../../src/core/value-cap.js'
import { createRepairTask } from '../../src/datasets/create-repair-task.js'
import { newMeta } from '../../src/test-meta/build.js'
import { isExactDataforgeMeta } from '../../src/test-meta/check.js'
import { putFailure } from '../../src/test-meta/put.js'
import { recordFromTest } from '../../src/test-meta/to-run-record.js'
import type { DataforgeMeta } from '../../src/vitest/meta.js'

// The size policy on the test side (issue 26): a test's meta crosses from the worker to the reporter, so the
// matchers store long values cut, with the same notes the CLI's records carry.

const N = 20_000_000
const huge = 'x'.repeat(N)
const hugeSha = sha256Hex(huge)
const note = (field: string) =>
  `value cut: ${field} has ${N} characters (sha256 ${hugeSha}); the record keeps the first ${MAX_VALUE_CHARS}`
const provenance = { projectCommit: null, runDateUtc: '2026-12-02T00:00:00.000Z' }

const { task } = createRepairTask({
  name: 'tiny',
  dirty: {
    columns: ['id', 'city'],
    rows: [
      ['1', 'Bostn'],
      ['2', 'Parls'],
    ],
  },
  clean: {
    columns: ['id', 'city'],
    rows: [
      ['1', 'Boston'],
      ['2', 'Paris'],
    ],
  },
})

describe('the size policy on a test meta', () => {
  it('toRepairCells stores two 20 M-character fixes cut, each cut noted; the failure message quotes them cut', ({
    task: test,
  }) => {
    const fixes = [0, 1].map((row) => ({ row, column: 'city', newValue: huge }))
    let message = ''
    try {
      expect(fixes).toRepairCells(task)
    } catch (error) {
      message = (error as Error).message
    }
    expect(message).toContain(`"${'x'.repeat(200)}"… (${N} characters)`)
    expect(message.length).toBeLessThan(2_000)

    const meta = test.meta.dataforge as DataforgeMeta
    const repair = meta.matchers[0]!.repair!
    expect(repair.fixes.map((f) => f.newValue.length)).toEqual([MAX_VALUE_CHARS, MAX_VALUE_CHARS])
    expect(repair.diagnostics.wrongValue.map((c) => c.got!.length)).toEqual([MAX_VALUE_CHARS, MAX_VALUE_CHARS])
    expect(repair.warnings).toEqual([
      note('fixes[0].newValue'),
      note('fixes[1].newValue'),
      note('diagnostics.wrongValue[0].got'),
      note('diagnostics.wrongValue[1].got'),
    ])
    // What Vitest sends to the main process: the meta, serialized as V8 does it, is small.
    expect(serialize(meta).byteLength).toBeLessThan(100_000)
    expect(isExactDataforgeMeta(meta)).toBe(true)

    // The reporter's record keeps the notes once (its own cut finds nothing left to cut).
    const record = recordFromTest(
      { fullName: 't', state: 'failed', errors: [{ message }], durationMs: 1, meta },
      provenance,
    )
    expect(record.fixes!.map((f) => f.newValue.length)).toEqual([MAX_VALUE_CHARS, MAX_VALUE_CHARS])
    expect(record.warnings).toEqual(repair.warnings)
  })

  it('a short value is stored as it is, with no note', ({ task: test }) => {
    expect([{ row: 0, column: 'city', newValue: 'Boston' }]).toRepairCells(task, { minF1: 0 })
    const meta = test.meta.dataforge as DataforgeMeta
    expect(meta.matchers[0]!.repair!.warnings).toEqual([])
    expect(meta.warnings).toBeUndefined()
  })

  it("an agent failure's 20 M-character message is cut on the meta and noted in its warnings, once in the record", () => {
    const meta = newMeta({ caseId: 'c', suite: 's', dataset: 'd', agent: 'a' })
    putFailure(meta, new AgentFailure('invalid_output', huge))
    expect(meta.failure!.message).toHaveLength(MAX_VALUE_CHARS)
    expect(meta.warnings).toEqual([note('failureMessage')])
    expect(isExactDataforgeMeta(meta)).toBe(true)
    const record = recordFromTest({ fullName: 'c', state: 'failed', errors: [], durationMs: 1, meta }, provenance)
    expect(record.failureMessage).toHaveLength(MAX_VALUE_CHARS)
    expect(record.warnings).toEqual([note('failureMessage')])
  })
})
