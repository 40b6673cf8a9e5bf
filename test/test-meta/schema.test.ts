import { describe, expect, it } from 'vitest'
import { DataforgeMetaSchema, parseDataforgeMeta } from '../../src/test-meta/schema.js'
import { compileExactCheck } from '../../src/core/exact-check.js'
import { isExactDataforgeMeta } from '../../src/test-meta/check.js'
import { createRepairTask } from '../../src/datasets/create-repair-task.js'
import { gradeRepair } from '../../src/grading/repair/grade.js'
import { deserialize, serialize } from 'node:v8'
import { datasetDigests, newMeta } from '../../src/test-meta/build.js'
import { putUsage } from '../../src/test-meta/put.js'
import { recordFromTest } from '../../src/test-meta/to-run-record.js'
import { emptyUsage } from '../../src/core/usage.js'

function repairMeta() {
  const { task, info } = createRepairTask({
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
  const repair = gradeRepair(task, [
    { row: 0, column: 'city', newValue: 'Boston' },
    { row: 1, column: 'city', newValue: 'Rome' },
  ])
  const usage = {
    calls: 1,
    promptTokens: 10,
    completionTokens: 2,
    quotaUnits: 0,
    costUsd: 0.01,
    cachedCalls: 0,
    cachedPromptTokens: 0,
    cachedCompletionTokens: 0,
  }
  return Object.assign(
    newMeta({
      caseId: 'c',
      suite: 's',
      dataset: 'tiny',
      agent: 'a',
      agentProvenance: { source: 'built-in', sha256: null, isolated: false },
    }),
    {
      datasetInfo: info,
      usage,
      steps: 2,
      matchers: [
        { matcher: 'toRepairCells', passed: false, negated: false, summary: 'F1 0.5', score: repair.f1, repair },
      ],
      metrics: { f1: repair.f1 },
    },
  )
}

describe('the Vitest test meta schema', () => {
  it('accepts what evalCase writes and names the test and field of a malformed one', () => {
    const meta = newMeta({ caseId: 'c', suite: 's', dataset: 'd', agent: 'a' })
    expect(parseDataforgeMeta(meta, 'c [trial 1/1]')).toEqual(meta)
    expect(() => parseDataforgeMeta({ ...meta, trial: -1 }, 'c [trial 1/1]')).toThrow(
      /test "c \[trial 1\/1\]": invalid dataforge meta at trial: /,
    )
    expect(() => parseDataforgeMeta({ ...meta, matchers: [{ matcher: 'x' }] }, 't')).toThrow(/at matchers\.0\.passed/)
  })

  it('returns exactly what zod would, whether or not the compiled check takes the value', () => {
    const meta = repairMeta()
    const isExact = compileExactCheck(DataforgeMetaSchema)
    expect(isExact(meta)).toBe(true)
    expect(parseDataforgeMeta(meta, 't')).toEqual(DataforgeMetaSchema.parse(meta))
    const { cachedCalls: _dropped, ...oldUsage } = meta.usage!
    const variants: unknown[] = [
      { ...meta, extra: 1 }, // stripped by zod
      { ...meta, usage: oldUsage }, // default filled in by zod
      { ...meta, steps: 1.5 },
      { ...meta, trials: 0 },
      { ...meta, seed: Number.NaN },
      { ...meta, datasetInfo: { ...meta.datasetInfo!, origin: 'elsewhere' } },
      { ...meta, agentProvenance: undefined },
      { ...meta, metrics: { f1: '1' } },
      {
        ...meta,
        matchers: [{ ...meta.matchers[0]!, repair: { ...meta.matchers[0]!.repair!, perColumn: { city: { tp: -1 } } } }],
      },
      [meta],
      null,
    ]
    for (const value of variants) {
      expect(isExact(value)).toBe(false)
      const parsed = DataforgeMetaSchema.safeParse(value)
      if (parsed.success) expect(parseDataforgeMeta(value, 't')).toEqual(parsed.data)
      else expect(() => parseDataforgeMeta(value, 't')).toThrow(/invalid dataforge meta/)
    }
  })

  it('the hand-written check (no zod in the reporter) answers as the compiled one on every mutation of a meta', () => {
    const isExact = compileExactCheck(DataforgeMetaSchema)
    const full = structuredClone(repairMeta()) // mutable (the task's tables are frozen)
    full.matchers[0]!.repair!.diagnostics.wrongValue = [{ row: 1, column: 'city', got: 'Rome', dirty: 'Parls' }]
    full.matchers[0]!.repair!.perKind = { typo: { total: 2, tp: 1, recall: 0.5 } }
    full.matchers[0]!.repair!.fixes = [{ row: 0, column: 'city', newValue: 'Boston', reason: 'typo' }]
    full.matchers.push({
      matcher: 'toBeNumeric',
      passed: true,
      negated: true,
      summary: 's',
      score: 1,
      failure: { kind: 'parse_error', message: 'm' },
    })
    full.datasetInfo = {
      ...full.datasetInfo!,
      corruptionKinds: ['typo'],
      seed: 3,
      options: { rows: 10, mode: 'x', strict: true },
      dirty: { ...full.datasetInfo!.dirty, path: 'd.csv' },
    }
    Object.assign(full, {
      turn: 2,
      model: 'm',
      provider: 'p',
      category: 'c',
      generation: 'g',
      tags: ['t'],
      failure: { kind: 'timeout', message: 'late' },
      warnings: ['cut'],
    })
    const bases = [full, newMeta({ caseId: 'c', suite: 's', dataset: 'd', agent: 'a' })]
    const replacements: unknown[] = [
      undefined,
      null,
      -1,
      0,
      1,
      1.5,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      2 ** 53,
      '',
      'csv-pair',
      'file-bytes',
      true,
      [],
      ['x'],
      {},
      { kind: 'k', message: 'm' },
    ]
    let checked = 0
    // Each check gets a copy: the reporter's check remembers the parts it passed (shared by many metas, never
    // changed once arrived), and this test changes parts in place.
    const agree = (value: unknown, where: string) => {
      checked++
      expect(isExactDataforgeMeta(structuredClone(value)), where).toBe(isExact(value))
    }
    // Every path of the value: each replaced by each candidate, deleted, and (objects) given an unknown key.
    const visit = (root: unknown, node: unknown, path: Array<string | number>) => {
      if (node === null || typeof node !== 'object') return
      const entries = Array.isArray(node) ? node.map((v, i) => [i, v] as const) : Object.entries(node)
      if (!Array.isArray(node)) {
        ;(node as Record<string, unknown>).extra = 1
        agree(root, `${path.join('.')}.extra`)
        delete (node as Record<string, unknown>).extra
      }
      for (const [key, original] of entries) {
        const target = node as Record<string | number, unknown>
        for (const replacement of replacements) {
          target[key] = replacement
          agree(root, `${[...path, key].join('.')} = ${String(replacement)}`)
        }
        if (!Array.isArray(node)) {
          delete target[key]
          agree(root, `${[...path, key].join('.')} deleted`)
        }
        target[key] = original
        visit(root, original, [...path, key])
      }
    }
    for (const base of bases) {
      agree(base, 'unchanged')
      expect(isExactDataforgeMeta(base)).toBe(true)
      visit(base, base, [])
    }
    for (const value of [null, [], 'meta', 1, [bases[1]]]) agree(value, String(value))
    expect(checked).toBeGreaterThan(2000)
  })
})

describe("the hand-written check's memory of shared parts", () => {
  it('takes a part shared by many metas once, and still refuses another object that is malformed', () => {
    const shared = repairMeta().matchers[0]!.repair!.diagnostics
    const withParts = (diagnostics: unknown) => {
      const meta = structuredClone(repairMeta())
      ;(meta.matchers[0]!.repair as { diagnostics: unknown }).diagnostics = diagnostics
      return meta
    }
    expect(isExactDataforgeMeta(withParts(shared))).toBe(true)
    expect(isExactDataforgeMeta(withParts(shared))).toBe(true)
    expect(isExactDataforgeMeta(withParts({ ...shared, wrongCell: [{ row: 'x' }] }))).toBe(false)
    expect(isExactDataforgeMeta(withParts({ ...shared, extra: 1 }))).toBe(false)
  })
})

describe('what a meta carries to the main process', () => {
  const identity = { caseId: 'c', suite: 's', dataset: 'd', agent: 'a' }

  it('a run whose agent reports no usage keeps usage null, and its record reads zeros all the same', () => {
    const meta = newMeta(identity)
    putUsage(meta, emptyUsage(), 1, undefined)
    putUsage(meta, { calls: 0, costUsd: 0 }, 1, undefined)
    expect(meta.usage).toBeNull()
    expect(meta.steps).toBe(2)
    expect(isExactDataforgeMeta(meta)).toBe(true)
    const record = recordFromTest(
      { fullName: 'c', state: 'passed', errors: [], durationMs: 1, meta },
      { projectCommit: null, runDateUtc: '2026-12-01T00:00:00.000Z' },
    )
    expect(record.usage).toEqual(emptyUsage())
  })

  it('usage is kept from the first call that reports any, and later zero calls add to it', () => {
    const meta = newMeta(identity)
    putUsage(meta, { calls: 1, promptTokens: 5 }, 1, undefined)
    putUsage(meta, emptyUsage(), 1, undefined)
    expect(meta.usage).toEqual({ ...emptyUsage(), calls: 1, promptTokens: 5 })
    const negative = newMeta(identity)
    putUsage(negative, { costUsd: -1 }, undefined, undefined)
    // Not zero: kept, so the meta check sends it to zod's parse, which names the field.
    expect(negative.usage?.costUsd).toBe(-1)
    expect(isExactDataforgeMeta(negative)).toBe(false)
  })

  it('tests on one dataset share one frozen digests object, which a structured clone sends once per batch', () => {
    const a = datasetDigests('d'.repeat(64), 'c'.repeat(64))
    expect(datasetDigests('d'.repeat(64), 'c'.repeat(64))).toBe(a)
    expect(datasetDigests('c'.repeat(64), 'd'.repeat(64))).not.toBe(a)
    expect(Object.isFrozen(a)).toBe(true)
    const metas = Array.from({ length: 100 }, (_, i) => ({
      ...newMeta({ ...identity, caseId: `case ${i}` }),
      datasetSha256: a,
    }))
    const copies = Array.from({ length: 100 }, (_, i) => ({
      ...newMeta({ ...identity, caseId: `case ${i}` }),
      datasetSha256: { ...a },
    }))
    const batch = deserialize(serialize(metas)) as typeof metas
    expect(batch[99]!.datasetSha256).toBe(batch[0]!.datasetSha256)
    expect(batch[99]!.datasetSha256).toEqual(a)
    expect(serialize(metas).length).toBeLessThan(serialize(copies).length - 99 * 128)
  })
})
