import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { DatasetInfoSchema } from '../../src/core/dataset-info.js'
import { InputError } from '../../src/core/errors.js'
import { type Correction, diffTables, groundTruthOf } from '../../src/core/ground-truth.js'
import { AgentTaskSchema, type Table } from '../../src/core/schemas.js'
import {
  CORRUPTION_KINDS,
  NULL_PLACEHOLDERS,
  SYNTHETIC_COLUMNS,
  SYNTHETIC_SOURCE,
  generateSynthetic,
  loadDataset,
  parseCsvStrict,
  toCsv,
} from '../../src/datasets/index.js'

const sha = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex')
const col = (table: Table, name: string) => table.columns.indexOf(name)

/** Edit distance, for checking that a typo is a single slip. */
function levenshtein(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!
    prev[0] = i
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j]!
      prev[j] = Math.min(up + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1))
      diag = up
    }
  }
  return prev[b.length]!
}

describe('generateSynthetic', () => {
  it('is byte-identical for the same seed and options', () => {
    const a = generateSynthetic({ seed: 123 })
    const b = generateSynthetic({ seed: 123 })
    expect(toCsv(a.dirty)).toBe(toCsv(b.dirty))
    expect(toCsv(a.clean)).toBe(toCsv(b.clean))
    expect(a.corrections).toEqual(b.corrections)
  })

  it('gives different data and corruptions for different seeds', () => {
    const a = generateSynthetic({ seed: 1 })
    const b = generateSynthetic({ seed: 2 })
    expect(toCsv(a.clean)).not.toBe(toCsv(b.clean))
    const cells = (cs: Correction[]) => cs.map((c) => `${c.row}:${c.column}`).join(' ')
    expect(cells(a.corrections)).not.toBe(cells(b.corrections))
  })

  it('pins the bytes of seed 7 (change the generator only with a version bump)', () => {
    const { dirty, clean } = generateSynthetic({ seed: 7 })
    expect(SYNTHETIC_SOURCE).toBe('dataforge-evals synthetic generator v1')
    expect({ dirty: sha(toCsv(dirty)), clean: sha(toCsv(clean)) }).toEqual({
      dirty: 'da02e11aa1b403f1b576f3c9ea13979bc66b727c88dde617a6896b5225950583',
      clean: 'fe5d3cd70826e36831ad9b29c1d07a00c1b63cca714bbedec3ea32a236ccd30d',
    })
  })

  it('defaults to 200 rows, 11 columns (id + 10) and 5% of non-id cells corrupted', () => {
    const { dirty, clean, corrections } = generateSynthetic({ seed: 5 })
    expect(clean.columns).toEqual([...SYNTHETIC_COLUMNS])
    expect(clean.columns).toHaveLength(11)
    expect(clean.rows).toHaveLength(200)
    expect(dirty.rows).toHaveLength(200)
    expect(corrections).toHaveLength(100)
  })

  it('corrupts exactly round(errorRate × rows × 10) cells, from none to all', () => {
    expect(generateSynthetic({ seed: 1, rows: 37, errorRate: 0.13 }).corrections).toHaveLength(Math.round(0.13 * 370))
    const none = generateSynthetic({ seed: 1, rows: 50, errorRate: 0 })
    expect(none.corrections).toEqual([])
    expect(toCsv(none.dirty)).toBe(toCsv(none.clean))
    const all = generateSynthetic({ seed: 1, rows: 50, errorRate: 1 })
    expect(all.corrections).toHaveLength(500)
    expect(all.dirty.rows.every((row, r) => row[0] === String(r + 1))).toBe(true)
  })

  it('records every corrupted cell exactly once, in row-major order, matching a plain diff of the tables', () => {
    const { dirty, clean, corrections } = generateSynthetic({ seed: 9, rows: 1000, errorRate: 0.08 })
    const plain = diffTables(dirty, clean).map((c) => `${c.row}|${c.column}|${c.dirty}|${c.clean}`)
    expect(corrections.map((c) => `${c.row}|${c.column}|${c.dirty}|${c.clean}`)).toEqual(plain)
    const kinds: readonly string[] = CORRUPTION_KINDS
    expect(corrections.filter((c) => c.dirty === c.clean || c.column === 'id' || !kinds.includes(c.kind!))).toEqual([])
  })

  it('never corrupts the id column, which numbers the rows from 1', () => {
    const { dirty, clean } = generateSynthetic({ seed: 3, rows: 500, errorRate: 0.5 })
    dirty.rows.forEach((row, r) => {
      expect(row[0]).toBe(String(r + 1))
      expect(clean.rows[r]![0]).toBe(String(r + 1))
    })
  })

  it('produces all eight corruption kinds on a table of realistic size', () => {
    const { corrections } = generateSynthetic({ seed: 1, rows: 2000 })
    const kinds = new Set(corrections.map((c) => c.kind))
    expect([...kinds].sort()).toEqual([...CORRUPTION_KINDS].sort())
    expect(CORRUPTION_KINDS.length).toBeGreaterThanOrEqual(7)
  })

  it('each kind does what its name says', () => {
    const { clean, corrections } = generateSynthetic({ seed: 4, rows: 3000, errorRate: 0.1 })
    const domain = (name: string) => new Set(clean.rows.map((r) => r[col(clean, name)]!))
    const seen = new Map<string, number>()
    const sameDate = (d: string, v: string) => {
      const [y, m, day] = v.split('-')
      return (
        d.includes(y!) &&
        (d.includes(m!) || /[A-Z][a-z]{2} /.test(d)) &&
        (d.includes(day!) || d.includes(String(Number(day))))
      )
    }
    const holds = (c: Correction): boolean => {
      const { dirty: d, clean: v } = c
      switch (c.kind) {
        case 'null_placeholder':
          return (NULL_PLACEHOLDERS as readonly string[]).includes(d)
        case 'typo':
          return levenshtein(d, v) === 1
        case 'transposition':
          return (
            d.length === v.length &&
            [...d].sort().join('') === [...v].sort().join('') &&
            [...d].filter((ch, i) => ch !== v[i]).length === 2
          )
        case 'case_whitespace':
          return d.trim().replace(/ +/g, ' ').toLowerCase() === v.toLowerCase()
        case 'decimal_shift': {
          const ratio = Number(d) / Number(v)
          return [10, 0.1].some((k) => Math.abs(ratio - k) < 1e-9)
        }
        case 'abbreviation':
          return d.length < v.length && d[0]!.toLowerCase() === v[0]!.toLowerCase()
        case 'fd_violation':
          return domain(c.column).has(d)
        case 'format_drift':
          if (c.column === 'phone') return d.replace(/\D/g, '').slice(-10) === v.replace(/\D/g, '')
          if (c.column === 'signup_date') return sameDate(d, v)
          if (c.column === 'zip') return d === v.replace(/^0+/, '') || d === `${v}.0`
          return true
        default:
          return false
      }
    }
    for (const c of corrections) seen.set(c.kind!, (seen.get(c.kind!) ?? 0) + 1)
    expect(corrections.filter((c) => !holds(c))).toEqual([])
    expect(seen.size).toBe(CORRUPTION_KINDS.length)
  })

  it('makes a realistic clean table: consistent formats and functional dependencies', () => {
    const { clean } = generateSynthetic({ seed: 11, rows: 3000 })
    const rows = clean.rows
    const get = (row: string[], name: string) => row[col(clean, name)]!
    const fd = (from: string, to: string) => {
      const seen = new Map<string, string>()
      const conflicts: string[] = []
      for (const row of rows) {
        const key = get(row, from)
        const value = get(row, to)
        if ((seen.get(key) ?? value) !== value) conflicts.push(`${from}=${key} → ${to} ${seen.get(key)} and ${value}`)
        seen.set(key, value)
      }
      expect(conflicts).toEqual([])
      return seen
    }
    fd('zip', 'city')
    const cityState = fd('city', 'state')
    fd('plan', 'monthly_fee')
    fd('email', 'name')
    expect(cityState.size).toBeGreaterThan(20)
    expect(cityState.size).toBeLessThan(60)
    const bad = (name: string, ok: (value: string, row: string[]) => boolean) =>
      rows.map((row) => get(row, name)).filter((value, i) => !ok(value, rows[i]!))
    expect(bad('phone', (v) => /^\d{3}-\d{3}-\d{4}$/.test(v))).toEqual([])
    expect(bad('zip', (v) => /^\d{5}$/.test(v))).toEqual([])
    expect(bad('state', (v) => /^[A-Z]{2}$/.test(v))).toEqual([])
    expect(
      bad(
        'signup_date',
        (v) => /^20(1[89]|2[0-4])-\d{2}-\d{2}$/.test(v) && new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) === v,
      ),
    ).toEqual([])
    expect(bad('score', (v) => /^\d{1,3}\.\d$/.test(v) && Number(v) <= 100)).toEqual([])
    expect(bad('monthly_fee', (v) => /^\d+\.\d{2}$/.test(v))).toEqual([])
    expect(
      bad('email', (v, row) => {
        const [first, last] = get(row, 'name').split(' ')
        return v.startsWith(`${first!.toLowerCase()}.${last!.toLowerCase()}`)
      }),
    ).toEqual([])
    // Categories repeat: a handful of plans, with Basic the most common.
    const plans = new Map<string, number>()
    for (const row of rows) plans.set(get(row, 'plan'), (plans.get(get(row, 'plan')) ?? 0) + 1)
    expect([...plans.keys()].sort()).toEqual(['Basic', 'Enterprise', 'Premium', 'Standard'])
    expect(Math.max(...plans.values())).toBe(plans.get('Basic'))
    // Boston's zips keep their leading zero as literal strings.
    expect(rows.some((row) => get(row, 'zip').startsWith('0'))).toBe(true)
  })

  it('round-trips its tables through CSV unchanged (values needing quotes included)', () => {
    const { dirty, clean } = generateSynthetic({ seed: 2, rows: 400, errorRate: 0.3 })
    expect(parseCsvStrict(toCsv(dirty), 'dirty.csv')).toEqual(dirty)
    expect(parseCsvStrict(toCsv(clean), 'clean.csv')).toEqual(clean)
  })

  it('returns frozen rows, sharing untouched rows between the two tables', () => {
    const { dirty, clean, corrections } = generateSynthetic({ seed: 6, rows: 100 })
    expect(Object.isFrozen(dirty.rows)).toBe(true)
    expect(Object.isFrozen(clean.rows[0])).toBe(true)
    const touched = new Set(corrections.map((c) => c.row))
    dirty.rows.forEach((row, r) => {
      if (touched.has(r)) expect(row).not.toBe(clean.rows[r])
      else expect(row).toBe(clean.rows[r])
    })
  })

  it('rejects bad options with an InputError naming the option', () => {
    const cases: [object, string][] = [
      [{ seed: 1.5 }, 'seed must be an integer, got 1.5'],
      [{ seed: 1, rows: 0 }, 'rows must be a whole number ≥ 1, got 0'],
      [{ seed: 1, rows: 2.5 }, 'rows must be a whole number ≥ 1, got 2.5'],
      [{ seed: 1, rows: 1e9 }, 'rows must be at most 10000000, got 1000000000'],
      [{ seed: 1, errorRate: -0.1 }, 'errorRate must be a number between 0 and 1, got -0.1'],
      [{ seed: 1, errorRate: 1.5 }, 'errorRate must be a number between 0 and 1, got 1.5'],
      [{ seed: 1, errorRate: Number.NaN }, 'errorRate must be a number between 0 and 1, got NaN'],
    ]
    for (const [opts, message] of cases) {
      expect(() => generateSynthetic(opts as { seed: number })).toThrow(new InputError(message))
    }
  })
})

describe('loadDataset synthetic', () => {
  it('builds a task with kinds behind the label wall and an info that reproduces it', async () => {
    const { task, info } = await loadDataset({ id: 'synthetic', seed: 21, rows: 300, errorRate: 0.1 })
    const { dirty, clean, corrections } = generateSynthetic({ seed: 21, rows: 300, errorRate: 0.1 })
    expect(DatasetInfoSchema.parse(info)).toEqual(info)
    expect(AgentTaskSchema.safeParse(task).success).toBe(true)
    expect(task.dirty).toEqual(dirty)
    expect(task.seed).toBe(21)
    expect(task.name).toBe('synthetic')
    expect(task.metadata).toEqual({
      dataset: 'synthetic',
      origin: 'synthetic',
      idColumns: ['id'],
      generator: SYNTHETIC_SOURCE,
      rows: 300,
      errorRate: 0.1,
    })
    const truth = groundTruthOf(task)
    expect(truth.corrections).toEqual(corrections)
    expect(truth.dataset).toBe(info)
    const dirtyCsv = toCsv(dirty)
    const cleanCsv = toCsv(clean)
    expect(info).toEqual({
      id: 'synthetic',
      origin: 'synthetic',
      source: SYNTHETIC_SOURCE,
      rows: 300,
      columns: 11,
      columnNames: [...SYNTHETIC_COLUMNS],
      dirtyCells: 300,
      corruptionKinds: [...new Set(corrections.map((c) => c.kind!))].sort(),
      idColumns: ['id'],
      seed: 21,
      options: { rows: 300, errorRate: 0.1 },
      dirty: { sha256: sha(dirtyCsv), bytes: Buffer.byteLength(dirtyCsv), of: 'csv-serialization' },
      clean: { sha256: sha(cleanCsv), bytes: Buffer.byteLength(cleanCsv), of: 'csv-serialization' },
    })
  })

  it('records the defaults in info.options when none are given', async () => {
    const { info } = await loadDataset({ id: 'synthetic', seed: 0 })
    expect(info.options).toEqual({ rows: 200, errorRate: 0.05 })
    expect(info.dirtyCells).toBe(100)
  })

  it('keeps every clean value of a corrupted cell off the task', async () => {
    const { task } = await loadDataset({ id: 'synthetic', seed: 8, rows: 150 })
    const json = JSON.stringify(task)
    // Clean values that also occur elsewhere in the dirty table (a city, a plan) are not leaks.
    const dirtyCells = new Set(task.dirty.rows.flat())
    for (const c of groundTruthOf(task).corrections) {
      if (!dirtyCells.has(c.clean)) expect(json).not.toContain(JSON.stringify(c.clean))
    }
  })

  it('rejects bad synthetic options through loadDataset too', async () => {
    await expect(loadDataset({ id: 'synthetic', seed: 0, rows: -1 })).rejects.toThrow(
      new InputError('rows must be a whole number ≥ 1, got -1'),
    )
  })
})
