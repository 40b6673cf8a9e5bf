import { deepFreeze } from '../core/freeze.js'

/** Upstream revision the canonical Raha/Baran pairs are pinned to (public facts, see shared MANIFEST.json). */
export const CANONICAL_UPSTREAM = {
  repo: 'LUH-DBS/ErrorCorrectionscores',
  revision: 'cfcb2645a9cac53b75385bb48fe63aca89d8b9a1',
  path: 'datasets',
} as const

export const DEFAULT_DATASETS_BASE_URL = `https://raw.githubusercontent.com/${CANONICAL_UPSTREAM.repo}/${CANONICAL_UPSTREAM.revision}/${CANONICAL_UPSTREAM.path}`

export interface CanonicalFile {
  sha256: string
  bytes: number
}

export interface CanonicalDataset {
  name: string
  rows: number
  columns: number
  /** Cells whose dirty and clean strings differ (compared by position). */
  dirtyCells: number
  idColumns: readonly string[]
  files: { dirty: CanonicalFile; clean: CanonicalFile }
}

export type CanonicalName = 'hospital' | 'flights' | 'beers'

export const CANONICAL_DATASETS: Readonly<Record<CanonicalName, CanonicalDataset>> = deepFreeze({
  hospital: {
    name: 'hospital',
    rows: 1000,
    columns: 20,
    dirtyCells: 509,
    idColumns: ['index'],
    files: {
      dirty: { sha256: 'dbc5575b915fe8b5e0ac6dc6172f38ba91e611fdb76d09a8f4a81cb7ea9925ac', bytes: 303306 },
      clean: { sha256: 'ea3ee44998455c0b491750c348509de176c758a3bbf58e4530c0a136bb248b4b', bytes: 303324 },
    },
  },
  flights: {
    name: 'flights',
    rows: 2376,
    columns: 7,
    dirtyCells: 4920,
    idColumns: ['tuple_id'],
    files: {
      dirty: { sha256: '1b5c1afa10aa0e7c20fd7e14d05c56772715b2771aa0f5fa67ed1709e1eecd46', bytes: 154776 },
      clean: { sha256: '0acfcfd8985b06fdd363965c9e8d9522c43e7589a93d79ae7dc311e1c37fdf3b', bytes: 173159 },
    },
  },
  beers: {
    name: 'beers',
    rows: 2410,
    columns: 11,
    dirtyCells: 4362,
    idColumns: ['index'],
    files: {
      dirty: { sha256: '7110bf4931a9445a1675e544d6c996817c739136239f8a2b02e088c7ec0a1f68', bytes: 255295 },
      clean: { sha256: '373227df59ad197e154dd5149125789e415019535c7223355e9486ee1b3b93de', bytes: 233019 },
    },
  },
})

export function isCanonicalName(name: string): name is CanonicalName {
  return Object.hasOwn(CANONICAL_DATASETS, name)
}

/** Human description of the pinned upstream of a canonical dataset. */
export function canonicalSource(name: CanonicalName): string {
  return `${CANONICAL_UPSTREAM.repo}@${CANONICAL_UPSTREAM.revision.slice(0, 12)} ${CANONICAL_UPSTREAM.path}/${name}`
}
