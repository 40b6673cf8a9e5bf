import type { DatasetInfo } from '../core/dataset-info.js'
import { InputError } from '../core/errors.js'
import type { AgentTask } from '../core/schemas.js'
import { readCsvTable } from './csv.js'
import { buildPairTask } from './pair.js'
import { loadRahaDataset, resolveDataDir } from './raha.js'
import { loadSynthetic } from './synthetic/generate.js'

export interface DatasetRequest {
  /** 'synthetic', 'hospital', 'flights', 'beers', any Raha-layout folder name, or a custom pair name. */
  id: string
  /** Trial seed: synthetic generates from it; other datasets record it on the task only. */
  seed: number
  /** Raha-layout root; default DATAFORGE_DATA_DIR, else ./data. */
  dataDir?: string
  /** Custom pair (both or neither). */
  dirtyCsv?: string
  cleanCsv?: string
  /** Synthetic only. */
  rows?: number
  errorRate?: number
}

export interface LoadedDataset {
  task: AgentTask
  info: DatasetInfo
}

async function loadCsvPair(id: string, dirtyCsv: string, cleanCsv: string, seed: number): Promise<LoadedDataset> {
  const [dirty, clean] = await Promise.all([readCsvTable(dirtyCsv), readCsvTable(cleanCsv)])
  const { task, info } = buildPairTask({
    id,
    origin: 'csv-pair',
    source: `CSV pair: dirty ${dirtyCsv}, clean ${cleanCsv}`,
    seed,
    dirty: { ...dirty, label: dirtyCsv },
    clean: { ...clean, label: cleanCsv },
  })
  return { task, info }
}

function rejectSyntheticOptions(req: DatasetRequest): void {
  if (req.rows !== undefined || req.errorRate !== undefined) {
    throw new InputError(`dataset "${req.id}": rows and errorRate apply only to the synthetic dataset`)
  }
}

/** Resolves a request to a task (ground truth filed behind the label wall) and what reports say about it. */
export async function loadDataset(req: DatasetRequest): Promise<LoadedDataset> {
  if (typeof req.id !== 'string' || req.id.length === 0) {
    if (req.dirtyCsv !== undefined || req.cleanCsv !== undefined) {
      throw new InputError(
        "a CSV pair needs a name, the dataset its reports group by: give it an id, e.g. { id: 'products', dirtyCsv, cleanCsv }",
      )
    }
    throw new InputError('dataset id must be a non-empty string')
  }
  if (!Number.isSafeInteger(req.seed)) throw new InputError(`seed must be an integer, got ${req.seed}`)
  const hasDirty = req.dirtyCsv !== undefined
  const hasClean = req.cleanCsv !== undefined
  if (hasDirty !== hasClean) {
    throw new InputError(
      `dataset "${req.id}": give both dirtyCsv and cleanCsv, or neither (got only ${hasDirty ? 'dirtyCsv' : 'cleanCsv'})`,
    )
  }
  if (hasDirty && hasClean) {
    if (req.id === 'synthetic') {
      throw new InputError('dataset id "synthetic" is reserved for the generator: name the CSV pair something else')
    }
    rejectSyntheticOptions(req)
    return loadCsvPair(req.id, req.dirtyCsv!, req.cleanCsv!, req.seed)
  }
  if (req.id === 'synthetic') return loadSynthetic({ seed: req.seed, rows: req.rows, errorRate: req.errorRate })
  rejectSyntheticOptions(req)
  return loadRahaDataset(req.id, resolveDataDir(req.dataDir), req.seed)
}
