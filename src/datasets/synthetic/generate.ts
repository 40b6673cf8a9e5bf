import type { DatasetInfo } from '../../core/dataset-info.js'
import { InputError } from '../../core/errors.js'
import { type Correction, createTask } from '../../core/ground-truth.js'
import { Random } from '../../core/random.js'
import type { AgentTask, Table } from '../../core/schemas.js'
import { csvDigestPair } from '../csv-digest.js'
import { SYNTHETIC_COLUMNS, type SyntheticColumn, generateCleanTable } from './clean-table.js'
import { corruptValue } from './corruptions.js'

/** Bump whenever the same seed and options would give different bytes. */
export const SYNTHETIC_GENERATOR_VERSION = 1
export const SYNTHETIC_SOURCE = `dataforge-evals synthetic generator v${SYNTHETIC_GENERATOR_VERSION}`
export const SYNTHETIC_DEFAULTS = { rows: 200, errorRate: 0.05 } as const
const SYNTHETIC_ID_COLUMNS = ['id'] as const
/** A guard against typos like 1e9: ten million rows already take gigabytes. */
export const SYNTHETIC_MAX_ROWS = 10_000_000

export interface SyntheticOptions {
  seed: number
  rows?: number
  /** Share of non-id cells to corrupt, in [0, 1]; the count is rounded to the nearest cell. */
  errorRate?: number
}

function resolveSyntheticOptions(opts: SyntheticOptions): { seed: number; rows: number; errorRate: number } {
  const rows = opts.rows ?? SYNTHETIC_DEFAULTS.rows
  const errorRate = opts.errorRate ?? SYNTHETIC_DEFAULTS.errorRate
  if (!Number.isSafeInteger(opts.seed)) throw new InputError(`seed must be an integer, got ${opts.seed}`)
  if (!Number.isSafeInteger(rows) || rows < 1) throw new InputError(`rows must be a whole number ≥ 1, got ${rows}`)
  if (rows > SYNTHETIC_MAX_ROWS) throw new InputError(`rows must be at most ${SYNTHETIC_MAX_ROWS}, got ${rows}`)
  if (!Number.isFinite(errorRate) || errorRate < 0 || errorRate > 1) {
    throw new InputError(`errorRate must be a number between 0 and 1, got ${errorRate}`)
  }
  return { seed: opts.seed, rows, errorRate }
}

/**
 * A seeded customer table and a corrupted copy. Same seed and options give byte-identical tables.
 * Exactly round(errorRate × rows × 10) non-id cells are corrupted, each recording its kind.
 * Both tables' rows are frozen, and rows without a corrupted cell are shared by the two tables.
 */
export function generateSynthetic(opts: SyntheticOptions): { dirty: Table; clean: Table; corrections: Correction[] } {
  const { seed, rows, errorRate } = resolveSyntheticOptions(opts)
  const rng = new Random(seed)
  const clean = generateCleanTable(rng, rows)
  const dirtyRows = clean.rows.slice()
  const corrections: Correction[] = []
  const dataColumns = SYNTHETIC_COLUMNS.length - 1
  const cells = rows * dataColumns
  const chosen = sampleCells(rng, cells, Math.round(errorRate * cells))
  for (let cell = 0; cell < cells; cell++) {
    if (chosen[cell] === 0) continue
    const r = Math.floor(cell / dataColumns)
    const j = (cell % dataColumns) + 1
    const column = SYNTHETIC_COLUMNS[j] as Exclude<SyntheticColumn, 'id'>
    const cleanValue = clean.rows[r]![j]!
    const { value, kind } = corruptValue(cleanValue, column, rng)
    // Copy-on-write: a row is copied the first time one of its cells is corrupted.
    if (dirtyRows[r] === clean.rows[r]) dirtyRows[r] = clean.rows[r]!.slice()
    dirtyRows[r]![j] = value
    corrections.push({ row: r, column, dirty: value, clean: cleanValue, kind })
  }
  freezeRows(clean.rows)
  freezeRows(dirtyRows)
  return { dirty: { columns: [...clean.columns], rows: dirtyRows }, clean, corrections }
}

/**
 * Exactly `k` distinct cells of `n`, as a 0/1 mask (Floyd's algorithm: k draws rather than one per cell).
 * Visiting the mask in order then corrupts cells in row-major order.
 */
function sampleCells(rng: Random, n: number, k: number): Uint8Array {
  const chosen = new Uint8Array(n)
  for (let j = n - k; j < n; j++) {
    const t = Math.floor(rng.next() * (j + 1))
    if (chosen[t] === 0) chosen[t] = 1
    else chosen[j] = 1
  }
  return chosen
}

/** Rows are frozen (one level deep is enough: cells are strings), so createTask's deep freeze skips them fast. */
function freezeRows(rows: string[][]): void {
  for (const row of rows) Object.freeze(row)
  Object.freeze(rows)
}

/** Generates the synthetic dataset and wraps it as a graded task. */
export function loadSynthetic(opts: SyntheticOptions): { task: AgentTask; info: DatasetInfo } {
  const resolved = resolveSyntheticOptions(opts)
  const { dirty, clean, corrections } = generateSynthetic(resolved)
  const options = { rows: resolved.rows, errorRate: resolved.errorRate }
  const idColumns = [...SYNTHETIC_ID_COLUMNS]
  const [dirtyDigest, cleanDigest] = csvDigestPair(dirty, clean)
  const info: DatasetInfo = {
    id: 'synthetic',
    origin: 'synthetic',
    source: SYNTHETIC_SOURCE,
    rows: clean.rows.length,
    columns: clean.columns.length,
    columnNames: [...clean.columns],
    dirtyCells: corrections.length,
    corruptionKinds: [...new Set(corrections.map((c) => c.kind!))].sort(),
    idColumns,
    seed: resolved.seed,
    options,
    dirty: dirtyDigest,
    clean: cleanDigest,
  }
  const task = createTask(
    {
      name: 'synthetic',
      dirty,
      metadata: {
        dataset: 'synthetic',
        origin: 'synthetic',
        idColumns,
        generator: SYNTHETIC_SOURCE,
        rows: resolved.rows,
        errorRate: resolved.errorRate,
      },
      seed: resolved.seed,
    },
    { corrections, dataset: info },
  )
  return { task, info }
}
