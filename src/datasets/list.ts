import { InputError } from '../core/errors.js'
import { CANONICAL_DATASETS, type CanonicalName, canonicalSource } from './canonical.js'
import { BUNDLED_DATA_DIR, describeRahaDataset, findRahaFolders, hasRahaFiles, rahaPaths, resolveDataDir } from './raha.js'
import { SYNTHETIC_COLUMNS } from './synthetic/clean-table.js'
import { CORRUPTION_KINDS } from './synthetic/corruptions.js'
import { SYNTHETIC_DEFAULTS, SYNTHETIC_SOURCE } from './synthetic/generate.js'

export interface DatasetListing {
  id: string
  origin: 'synthetic' | 'raha'
  rows: number
  columns: number
  dirtyCells: number
  source: string
  /** Kinds of corruption the dataset records per cell, where known (synthetic). */
  corruptionKinds?: string[]
  /** False for canonical sets not yet downloaded and for folders that fail to load. */
  available: boolean
  /** What to do about an unavailable dataset. */
  hint?: string
}

function syntheticListing(): DatasetListing {
  const { rows, errorRate } = SYNTHETIC_DEFAULTS
  const dataColumns = SYNTHETIC_COLUMNS.length - 1
  return {
    id: 'synthetic',
    origin: 'synthetic',
    rows,
    columns: SYNTHETIC_COLUMNS.length,
    dirtyCells: Math.round(errorRate * rows * dataColumns),
    source: `${SYNTHETIC_SOURCE} (defaults: ${rows} rows, error rate ${errorRate}; any seed)`,
    corruptionKinds: [...CORRUPTION_KINDS],
    available: true,
  }
}

async function folderListing(name: string, dataDir: string): Promise<DatasetListing> {
  try {
    const info = await describeRahaDataset(name, dataDir)
    return {
      id: name,
      origin: 'raha',
      rows: info.rows,
      columns: info.columns,
      dirtyCells: info.dirtyCells,
      source: info.source,
      available: true,
    }
  } catch (error) {
    if (!(error instanceof InputError)) throw error
    const known = Object.hasOwn(CANONICAL_DATASETS, name) ? CANONICAL_DATASETS[name as CanonicalName] : undefined
    return {
      id: name,
      origin: 'raha',
      rows: known?.rows ?? 0,
      columns: known?.columns ?? 0,
      dirtyCells: known?.dirtyCells ?? 0,
      source: `Raha-layout folder ${rahaPaths(dataDir, name).dir}`,
      available: false,
      hint: `cannot load: ${error.message}`,
    }
  }
}

function notDownloadedListing(name: CanonicalName, dataDir: string): DatasetListing {
  const known = CANONICAL_DATASETS[name]
  const paths = rahaPaths(dataDir, name)
  return {
    id: name,
    origin: 'raha',
    rows: known.rows,
    columns: known.columns,
    dirtyCells: known.dirtyCells,
    source: canonicalSource(name),
    available: false,
    hint: `not downloaded: run \`dataforge-evals datasets pull ${name}\` or put dirty.csv and clean.csv in ${paths.dir}`,
  }
}

/**
 * Synthetic first, then hospital, flights, beers, then every other Raha-layout folder under dataDir or bundled with
 * the package (rayyan) by name. A folder in dataDir wins over the bundled copy of the same name.
 */
export async function listDatasets(opts: { dataDir?: string } = {}): Promise<DatasetListing[]> {
  const dataDir = resolveDataDir(opts.dataDir)
  const out: DatasetListing[] = [syntheticListing()]
  const canonical = Object.keys(CANONICAL_DATASETS) as CanonicalName[]
  for (const name of canonical) {
    if (await hasRahaFiles(dataDir, name)) out.push(await folderListing(name, dataDir))
    else if (await hasRahaFiles(BUNDLED_DATA_DIR, name)) out.push(await folderListing(name, BUNDLED_DATA_DIR))
    else out.push(notDownloadedListing(name, dataDir))
  }
  const local = await findRahaFolders(dataDir)
  const bundled = (await findRahaFolders(BUNDLED_DATA_DIR)).filter((name) => !local.includes(name))
  const others = [...local.map((name) => ({ name, dir: dataDir })), ...bundled.map((name) => ({ name, dir: BUNDLED_DATA_DIR }))]
    .filter(({ name }) => !canonical.includes(name as CanonicalName))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  for (const { name, dir } of others) out.push(await folderListing(name, dir))
  return out
}
