import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { RunRecordSchema } from '../../src/core/run-record.js'
import { canonicalJson } from '../../src/core/hash.js'
import { evaluateConformanceSync } from '../../src/grading/conformance/index.js'
import { runCli, withTempDir } from '../helpers/cli-harness.js'

// Issue 26 item 2: keys that come from data (column names, labels) named like Object.prototype's members.
const CLEAN = 'id,__proto__,constructor,city\n1,a,k,Paris\n2,b,l,Rome\n3,c,m,Oslo\n'
const DIRTY = 'id,__proto__,constructor,city\n1,x,k,Paris\n2,b,z,Rme\n3,c,m,Oslo\n'

describe('columns named __proto__ and constructor', () => {
  it('a run grades them as ordinary columns and writes every report', async () => {
    await withTempDir(async (dir) => {
      await writeFile(join(dir, 'clean.csv'), CLEAN)
      await writeFile(join(dir, 'dirty.csv'), DIRTY)
      const r = await runCli(
        ['run', '--agent', 'noop', '--dataset', 'protos', '--dirty-csv', 'dirty.csv', '--clean-csv', 'clean.csv'],
        dir,
      )
      expect(r.stderr).not.toContain('internal error')
      expect(r.code).toBe(0)
      const report = JSON.parse(await readFile(join(dir, 'reports', 'run', 'report.json'), 'utf8'))
      const perColumn = report.aggregates[0].perColumn
      expect(Object.keys(perColumn)).toEqual(expect.arrayContaining(['__proto__', 'constructor', 'city', 'id']))
      expect(Object.getOwnPropertyDescriptor(perColumn, '__proto__')!.value).toMatchObject({ fn: 1 })
      expect(perColumn.constructor).toMatchObject({ tp: 0, fp: 0, fn: 1 })
      expect(perColumn.city).toMatchObject({ fn: 1 })
      expect(await readFile(join(dir, 'reports', 'run', 'report.md'), 'utf8')).toContain('# dataforge-evals report')
      // Read back from runs.jsonl, the column is still there (zod's own record would drop a __proto__ key).
      const line = (await readFile(join(dir, 'reports', 'run', 'runs.jsonl'), 'utf8')).split('\n')[0]!
      const parsed = RunRecordSchema.parse(JSON.parse(line))
      expect(Object.keys(parsed.perColumn!)).toContain('__proto__')
      expect(Object.getPrototypeOf(parsed.perColumn)).toBeNull()
      const html = await runCli(['report', 'reports/run/runs.jsonl', '--html', 'reports/run/again.html'], dir)
      expect(html.code).toBe(0)
      expect(await readFile(join(dir, 'reports', 'run', 'again.html'), 'utf8')).toContain('__proto__')
    })
  })

  it('a record whose metrics are named like prototype members parses to those metrics', () => {
    const line = JSON.parse('{"__proto__": 2, "toString": 3}')
    const r = RunRecordSchema.shape.metrics.parse(line)
    expect(Object.entries(r)).toEqual([
      ['__proto__', 2],
      ['toString', 3],
    ])
  })

  it('canonical JSON keeps a __proto__ key, so two different values never hash alike', () => {
    expect(canonicalJson(JSON.parse('{"__proto__": {"a": 1}}'))).toBe('{"__proto__":{"a":1}}')
    expect(canonicalJson(JSON.parse('{"__proto__": {"a": 1}}'))).not.toBe(canonicalJson({}))
  })
})

describe('conformance labels named like prototype members', () => {
  it('an observed label "constructor" or "__proto__" counts as an unrequested label, not Object.prototype', () => {
    const samples = [
      ...Array.from({ length: 6 }, () => ({ s: 'yes' })),
      ...Array.from({ length: 2 }, () => ({ s: 'constructor' })),
      ...Array.from({ length: 2 }, () => ({ s: '__proto__' })),
    ]
    const r = evaluateConformanceSync(samples, { properties: [{ name: 's', distribution: { yes: 100 } }] })
    const a = r.distributionAnalysis[0]!
    expect(Object.entries(a.evaluatedDistributions)).toEqual([
      ['yes', 6],
      ['__proto__', 2],
      ['constructor', 2],
    ])
    expect(a.requestedDistributions).toEqual(Object.assign(Object.create(null), { yes: 100 }))
    expect(a.totalVariationDistance).toBeCloseTo(0.4, 12)
    expect(a.deviations.map((d) => [d.label, d.requestedPercent])).toEqual([
      ['yes', 100],
      ['__proto__', 0],
      ['constructor', 0],
    ])
  })

  it('a requested label "__proto__" is kept by the spec check', () => {
    const samples = [{ s: '__proto__' }, { s: 'b' }]
    const r = evaluateConformanceSync(samples, {
      properties: [{ name: 's', distribution: JSON.parse('{"__proto__": 50, "b": 50}') }],
    })
    expect(r.distributionAnalysis[0]!.totalVariationDistance).toBe(0)
  })
})
