import type { Correction } from '../core/ground-truth.js'
import { InputError } from '../core/errors.js'
import { CANONICAL_DATASETS, type CanonicalName, canonicalSource } from './canonical.js'
import {
  BUNDLED_DATA_DIR,
  describeRahaDataset,
  findRahaFolders,
  hasRahaFiles,
  rahaPaths,
  resolveDataDir,
} from './raha.js'
import { SYNTHETIC_COLUMNS } from './synthetic/clean-table.js'
import { CORRUPTION_KINDS } from './synthetic/corruptions.js'
import { generateSynthetic, SYNTHETIC_DEFAULTS, SYNTHETIC_SOURCE } from './synthetic/generate.js'

/** How cells are compared (a grader comparator: `exact`, `raha`); structural, so datasets need not import grading. */
interface CellComparator {
  name: string
  normalize(value: string): string
}

export interface DatasetListing {
  id: string
  origin: 'synthetic' | 'raha'
  rows: number
  columns: number
  /** Cells whose dirty and clean strings differ at all (outside id columns). */
  dirtyCells: number
  /** The errors the grader scores: differing cells that still differ under the comparator. Null when not loaded. */
  errors: number | null
  /** Differences the comparator treats as equal (e.g. trailing whitespace under `exact`): not graded. */
  ignoredByComparator: number | null
  comparator: string
  source: string
  /** Kinds of corruption the dataset records per cell, where known (synthetic). */
  corruptionKinds?: string[]
  /** False for canonical sets not yet downloaded and for folders that fail to load. */
  available: boolean
  /** What to do about an unavailable dataset. */
  hint?: string
}

/** The seed the listing generates synthetic data with: the CLI's default first seed. */
const LISTING_SEED = 1

function graded(
  corrections: readonly Correction[],
  comparator: CellComparator,
): Pick<DatasetListing, 'dirtyCells' | 'errors' | 'ignoredByComparator' | 'comparator'> {
  const errors = corrections.filter((c) => comparator.normalize(c.dirty) !== comparator.normalize(c.clean)).length
  return {
    dirtyCells: corrections.length,
    errors,
    ignoredByComparator: corrections.length - errors,
    comparator: comparator.name,
  }
}

function syntheticListing(comparator: CellComparator): DatasetListing {
  const { rows, errorRate } = SYNTHETIC_DEFAULTS
  const { corrections } = generateSynthetic({ seed: LISTING_SEED, rows, errorRate })
  return {
    id: 'synthetic',
    origin: 'synthetic',
    rows,
    columns: SYNTHETIC_COLUMNS.length,
    ...graded(corrections, comparator),
    source: `${SYNTHETIC_SOURCE} (defaults: ${rows} rows, error rate ${errorRate}; counts for seed ${LISTING_SEED}, other seeds differ)`,
    corruptionKinds: [...CORRUPTION_KINDS],
    available: true,
  }
}

async function folderListing(name: string, dataDir: string, comparator: CellComparator): Promise<DatasetListing> {
  try {
    const { info, corrections } = await describeRahaDataset(name, dataDir)
    return {
      id: name,
      origin: 'raha',
      rows: info.rows,
      columns: info.columns,
      ...graded(corrections, comparator),
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
      errors: null,
      ignoredByComparator: null,
      comparator: comparator.name,
      source: `Raha-layout folder ${rahaPaths(dataDir, name).dir}`,
      available: false,
      hint: `cannot load: ${error.message}`,
    }
  }
}

function notDownloadedListing(name: CanonicalName, dataDir: string, comparator: CellComparator): DatasetListing {
  const known = CANONICAL_DATASETS[name]
  const paths = rahaPaths(dataDir, name)
  return {
    id: name,
    origin: 'raha',
    rows: known.rows,
    columns: known.columns,
    dirtyCells: known.dirtyCells,
    errors: null,
    ignoredByComparator: null,
    comparator: comparator.name,
    source: canonicalSource(name),
    available: false,
    hint: `not downloaded: run \`dataforge-evals datasets pull ${name}\` or put dirty.csv and clean.csv in ${paths.dir}`,
  }
}

/**
 * Counts are of the grader's errors under `comparator` (pass the grader's `exactComparator` for the default).
 * Synthetic first, then hospital, flights, beers, then every other Raha-layout folder under dataDir or bundled with
 * the package (rayyan) by name. A folder in dataDir wins over the bundled copy of the same name.
 */
export async function listDatasets(opts: { dataDir?: string; comparator: CellComparator }): Promise<DatasetListing[]> {
  const dataDir = resolveDataDir(opts.dataDir)
  const { comparator } = opts
  const out: DatasetListing[] = [syntheticListing(comparator)]
  const canonical = Object.keys(CANONICAL_DATASETS) as CanonicalName[]
  for (const name of canonical) {
    if (await hasRahaFiles(dataDir, name)) out.push(await folderListing(name, dataDir, comparator))
    else if (await hasRahaFiles(BUNDLED_DATA_DIR, name))
      out.push(await folderListing(name, BUNDLED_DATA_DIR, comparator))
    else out.push(notDownloadedListing(name, dataDir, comparator))
  }
  const local = await findRahaFolders(dataDir)
  const bundled = (await findRahaFolders(BUNDLED_DATA_DIR)).filter((name) => !local.includes(name))
  const others = [
    ...local.map((name) => ({ name, dir: dataDir })),
    ...bundled.map((name) => ({ name, dir: BUNDLED_DATA_DIR })),
  ]
    .filter(({ name }) => !canonical.includes(name as CanonicalName))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  for (const { name, dir } of others) out.push(await folderListing(name, dir, comparator))
  return out
}
