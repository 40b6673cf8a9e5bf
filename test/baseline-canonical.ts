// Test helper (not a test file): loads a canonical Raha pair straight from the shared CSVs and builds a task,
// the way the brief prescribes while `src/datasets` has no loader yet.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse } from 'csv-parse/sync'
import type { DatasetInfo } from '../src/core/dataset-info.js'
import { type Correction, createTask, diffTables } from '../src/core/ground-truth.js'
import type { AgentTask, Table } from '../src/core/schemas.js'

export const CANONICAL = ['hospital', 'flights', 'beers', 'rayyan'] as const
export type CanonicalName = (typeof CANONICAL)[number]

const ID_COLUMN: Record<CanonicalName, string> = { hospital: 'index', flights: 'tuple_id', beers: 'index', rayyan: 'id' }

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
export const sharedDatasets = path.resolve(repoRoot, '../shared/datasets')

function readTable(file: string): Table {
  const records = parse(readFileSync(file, 'utf8'), { bom: true, relax_column_count: false }) as string[][]
  const [header, ...rows] = records
  if (!header) throw new Error(`${file}: empty CSV`)
  return { columns: header, rows }
}

const cache = new Map<CanonicalName, { dirty: Table; clean: Table }>()

/** A fresh task (with its ground truth behind the wall) for one canonical set; CSVs are parsed once. */
export function loadCanonicalPair(name: CanonicalName): { task: AgentTask; corrections: Correction[] } {
  let tables = cache.get(name)
  if (!tables) {
    const dir = path.join(sharedDatasets, name)
    const clean = readTable(path.join(dir, 'clean.csv'))
    const rawDirty = readTable(path.join(dir, 'dirty.csv'))
    // positions, not header names, pair the cells: the clean header is canonical
    tables = { clean, dirty: { columns: clean.columns, rows: rawDirty.rows } }
    cache.set(name, tables)
  }
  const { dirty, clean } = tables
  const idColumn = ID_COLUMN[name]
  const corrections = diffTables(dirty, clean, new Set([idColumn]))
  const dataset: DatasetInfo = {
    id: name,
    origin: 'raha',
    source: `shared/datasets/${name}`,
    rows: dirty.rows.length,
    columns: dirty.columns.length,
    columnNames: dirty.columns,
    dirtyCells: corrections.length,
    idColumns: [idColumn],
    dirty: { sha256: '', bytes: 0 },
    clean: { sha256: '', bytes: 0 },
  }
  const task = createTask({ name, dirty, metadata: { idColumns: [idColumn] }, seed: 0 }, { corrections, dataset })
  return { task, corrections }
}
