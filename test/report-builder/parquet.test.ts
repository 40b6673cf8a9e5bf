import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parquetMetadata, parquetReadObjects } from 'hyparquet'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main } from '../../src/cli/main.js'
import { type RunRecord, RunRecordSchema } from '../../src/core/run-record.js'
import { z } from 'zod'
import { verifyDir, writeManifest } from '../../src/report-builder/manifest.js'
import { PARQUET_COLUMNS, runRecordsToParquet } from '../../src/report-builder/parquet.js'
import { failedRecord, makeRecord } from '../helpers/stats-records.js'
import { captureIO } from '../helpers/cli-harness.js'

const capture = captureIO

const prf = { tp: 3, fp: 1, fn: 2, precision: 0.75, recall: 0.6, f1: 2 / 3 }
const repaired = makeRecord({
  caseId: 'hospital-repair',
  turn: 2,
  model: 'llama-3.3-70b',
  provider: 'groq',
  seed: 2 ** 40,
  generation: 'gen-2',
  precision: 0.75,
  recall: 0.6,
  f1: 2 / 3,
  tp: 3,
  fp: 1,
  fn: 2,
  detection: prf,
  perColumn: { city: prf },
  fixes: [{ row: 0, column: 'city', newValue: 'Boston' }],
  metrics: { latency: 1.5 },
  usage: {
    calls: 2,
    promptTokens: 100,
    completionTokens: 20,
    quotaUnits: 1.5,
    costUsd: 0.0012,
    cachedCalls: 0,
    cachedPromptTokens: 0,
    cachedCompletionTokens: 0,
  },
  warnings: ['duplicate fix'],
})
const failed = failedRecord({ caseId: 'q1', category: null, datasetSha256: null, projectCommit: null })
const records: RunRecord[] = [repaired, failed]

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dfe-parquet-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('runRecordsToParquet', () => {
  it('writes flat, nullable columns that read back to the same values', async () => {
    const bytes = runRecordsToParquet(records)
    const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer
    const meta = parquetMetadata(file)
    expect(meta.num_rows).toBe(2n)
    expect(meta.created_by).toBe('dataforge-evals')
    expect(meta.schema.slice(1).map((s) => s.name)).toEqual(PARQUET_COLUMNS.map((c) => c.name))
    const optional = meta.schema.filter((s) => s.repetition_type === 'OPTIONAL').map((s) => s.name)
    expect(optional).toContain('correct')
    expect(optional).toContain('f1')
    expect(optional).not.toContain('caseId')

    const [a, b] = await parquetReadObjects({ file })
    expect(a).toMatchObject({
      caseId: 'hospital-repair',
      turn: 2,
      seed: 2n ** 40n,
      generation: 'gen-2',
      correct: true,
      f1: 2 / 3,
      tp: 3,
      detection_tp: 3,
      detection_recall: 0.6,
      usage_calls: 2,
      usage_costUsd: 0.0012,
      datasetSha256_dirty: 'a'.repeat(64),
      model: 'llama-3.3-70b',
    })
    expect(JSON.parse(a!.fixes as string)).toEqual([{ column: 'city', newValue: 'Boston', row: 0 }])
    expect(JSON.parse(a!.perColumn as string)).toEqual({ city: prf })
    expect(JSON.parse(a!.warnings as string)).toEqual(['duplicate fix'])
    expect(b).toMatchObject({
      caseId: 'q1',
      status: 'failed',
      failureKind: 'timeout',
      correct: null,
      completed: false,
      category: null,
      f1: null,
      detection_f1: null,
      fixes: null,
      datasetSha256_clean: null,
      projectCommit: null,
      metrics: '{}',
    })
  })

  it('covers every RunRecord field: each one, at every depth the schema has, reads back from its column(s)', async () => {
    const bytes = runRecordsToParquet(records)
    const rows = await parquetReadObjects({
      file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
    })
    const bySource = new Map(PARQUET_COLUMNS.map((c) => [c.source.replace(/ \(JSON\)$/, ''), c]))
    const read = (row: Record<string, unknown>, source: string): unknown => {
      const column = bySource.get(source)
      if (!column) return undefined
      const value = row[column.name]
      if (column.source.endsWith('(JSON)')) return value === null ? null : JSON.parse(value as string)
      return typeof value === 'bigint' ? Number(value) : value
    }
    const fields = Object.entries(RunRecordSchema.shape)
    expect(fields.length).toBeGreaterThan(40)
    for (const [field, schema] of fields) {
      const inner = schema instanceof z.ZodNullable ? schema.unwrap() : schema
      const flattened = !bySource.has(field) && inner instanceof z.ZodObject ? Object.keys(inner.shape) : null
      if (!flattened) expect(bySource.has(field), `RunRecord.${field} has no Parquet column`).toBe(true)
      for (const sub of flattened ?? [])
        expect(bySource.has(`${field}.${sub}`), `RunRecord.${field}.${sub} has no Parquet column`).toBe(true)
      records.forEach((record, i) => {
        const row = rows[i] as Record<string, unknown>
        let back: unknown = read(row, field)
        if (flattened) {
          const parts = flattened.map((sub) => [sub, read(row, `${field}.${sub}`)] as const)
          back =
            parts.every(([, v]) => v === null) && schema instanceof z.ZodNullable ? null : Object.fromEntries(parts)
        }
        expect(back, `${field} of record ${i}`).toEqual(record[field as keyof RunRecord])
      })
    }
  })

  it('is deterministic and handles no rows', async () => {
    expect(Buffer.from(runRecordsToParquet(records)).equals(Buffer.from(runRecordsToParquet(records)))).toBe(true)
    const empty = runRecordsToParquet([])
    const file = empty.buffer.slice(empty.byteOffset, empty.byteOffset + empty.byteLength) as ArrayBuffer
    expect(parquetMetadata(file).num_rows).toBe(0n)
  })
})

describe('export command', () => {
  it('writes the Parquet file and adds it to the folder manifest', async () => {
    const reports = join(dir, 'reports')
    await writeFile(join(dir, 'runs.jsonl'), records.map((r) => JSON.stringify(r)).join('\n') + '\n')
    const io = capture(dir)
    expect(await main(['export', 'runs.jsonl', '--parquet', 'reports/runs.parquet'], io)).toBe(0)
    expect(io.out).toMatch(/^wrote reports\/runs\.parquet: 2 rows, \d+ bytes; created reports\/manifest\.json\n$/)
    const bytes = await readFile(join(reports, 'runs.parquet'))
    const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer
    expect((await parquetReadObjects({ file })).map((r) => r.caseId)).toEqual(['hospital-repair', 'q1'])
    const manifest = JSON.parse(await readFile(join(reports, 'manifest.json'), 'utf8'))
    expect(manifest.rowCounts).toEqual({ 'runs.parquet': 2 })
    expect(await verifyDir(reports)).toMatchObject({ ok: true })
  })

  it('joins an existing report manifest', async () => {
    const reports = join(dir, 'with-report')
    await main(['export', 'runs.jsonl', '--parquet', 'with-report/runs.parquet'], capture(dir))
    await writeFile(join(reports, 'runs.jsonl'), records.map((r) => JSON.stringify(r)).join('\n') + '\n')
    await writeManifest(reports, ['runs.jsonl'])
    expect(await main(['export', 'with-report', '--parquet', 'with-report/runs.parquet'], capture(dir))).toBe(0)
    const manifest = JSON.parse(await readFile(join(reports, 'manifest.json'), 'utf8'))
    expect(manifest.files.map((f: { path: string }) => f.path)).toEqual(['runs.jsonl', 'runs.parquet'])
    expect(manifest.rowCounts).toEqual({ 'runs.jsonl': 2, 'runs.parquet': 2 })
    expect((await verifyDir(reports)).ok).toBe(true)
  })

  it('bad input exits 2 with one line', async () => {
    for (const argv of [['runs.jsonl'], ['nope.jsonl', '--parquet', 'x.parquet'], []]) {
      const io = capture(dir)
      expect(await main(['export', ...argv], io)).toBe(2)
      expect(io.err).toMatch(/^dataforge-evals: .+\n$/)
    }
  })
})
