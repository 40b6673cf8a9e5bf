import type { Correction } from '../core/ground-truth.js'
import { readFileSync } from 'node:fs'
import { readdir, stat } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { DatasetInfo } from '../core/dataset-info.js'
import { InputError } from '../core/errors.js'
import type { AgentTask } from '../core/schemas.js'
import { CANONICAL_DATASETS, canonicalSource, isCanonicalName } from './canonical.js'
import { readCsvTable } from './csv.js'
import { type PairInput, analysePair, buildPairTask } from './pair.js'

/** `dataDir` option, else DATAFORGE_DATA_DIR, else `./data`; resolved against the working directory. */
export function resolveDataDir(dataDir?: string, env: Record<string, string | undefined> = process.env): string {
  return resolve(dataDir ?? env['DATAFORGE_DATA_DIR'] ?? './data')
}

/**
 * The canonical sets shipped with the package (hospital, flights, beers, rayyan under `datasets/` at the package
 * root), used when the data folder has no copy of its own: they work offline right after install.
 */
export const BUNDLED_DATA_DIR = join(packageRoot(fileURLToPath(import.meta.url)), 'datasets')

/**
 * The folder of the package.json named dataforge-evals above `file`. Walked up to rather than computed from a
 * fixed depth: this module runs from src/datasets/, from a shared chunk of the bundle (dist/chunks/) and, in the
 * CommonJS build, as its ESM twin's path, which need not exist on disk.
 */
function packageRoot(file: string): string {
  for (let dir = dirname(file); ; ) {
    if (packageName(join(dir, 'package.json')) === 'dataforge-evals') return dir
    const parent = dirname(dir)
    // Copied into some other build: keep the layout of src/ and dist/ as the best guess.
    if (parent === dir) return resolve(file, '../../..')
    dir = parent
  }
}

function packageName(path: string): string | undefined {
  try {
    const { name } = JSON.parse(readFileSync(path, 'utf8')) as { name?: unknown }
    return typeof name === 'string' ? name : undefined
  } catch {
    return undefined
  }
}

/** The folder to read `name` from: `dataDir` when it holds the pair, else the bundled copy when one ships. */
async function locateRahaDir(name: string, dataDir: string): Promise<string> {
  if (await hasRahaFiles(dataDir, name)) return dataDir
  if (await hasRahaFiles(BUNDLED_DATA_DIR, name)) return BUNDLED_DATA_DIR
  return dataDir
}

const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/

function assertDatasetName(name: string): void {
  if (!SAFE_NAME.test(name)) {
    throw new InputError(
      `dataset id "${name}" is not a folder name: use letters, digits, '.', '_' or '-' (no slashes), e.g. hospital`,
    )
  }
}

export function rahaPaths(dataDir: string, name: string): { dir: string; dirty: string; clean: string } {
  const dir = join(dataDir, name)
  return { dir, dirty: join(dir, 'dirty.csv'), clean: join(dir, 'clean.csv') }
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile()
  } catch {
    return false
  }
}

export async function hasRahaFiles(dataDir: string, name: string): Promise<boolean> {
  const paths = rahaPaths(dataDir, name)
  return (await isFile(paths.dirty)) && (await isFile(paths.clean))
}

/** Sorted names of the folders under `dataDir` that hold both dirty.csv and clean.csv. */
export async function findRahaFolders(dataDir: string): Promise<string[]> {
  let entries: string[]
  try {
    entries = (await readdir(dataDir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name)
  } catch {
    return []
  }
  const out: string[] = []
  for (const name of entries.sort()) {
    if (SAFE_NAME.test(name) && (await hasRahaFiles(dataDir, name))) out.push(name)
  }
  return out
}

export function missingDatasetMessage(name: string, dataDir: string): string {
  const paths = rahaPaths(dataDir, name)
  const where = `put its files at ${paths.dirty} and ${paths.clean}`
  if (isCanonicalName(name)) {
    return `dataset "${name}" is not downloaded: run \`dataforge-evals datasets pull ${name}\` or ${where}`
  }
  return `dataset "${name}" not found: ${where} (Raha layout: <dataDir>/<name>/dirty.csv and clean.csv), or pick one of: synthetic, ${Object.keys(CANONICAL_DATASETS).join(', ')}`
}

async function readRahaPair(name: string, requestedDir: string, seed: number): Promise<PairInput> {
  assertDatasetName(name)
  const dataDir = await locateRahaDir(name, requestedDir)
  if (!(await hasRahaFiles(dataDir, name))) throw new InputError(missingDatasetMessage(name, dataDir))
  const paths = rahaPaths(dataDir, name)
  const [dirty, clean] = await Promise.all([readCsvTable(paths.dirty), readCsvTable(paths.clean)])
  const where = dataDir === BUNDLED_DATA_DIR ? 'the copy bundled with dataforge-evals' : paths.dir
  let source = `Raha-layout folder ${paths.dir}`
  if (isCanonicalName(name)) {
    const pinned = CANONICAL_DATASETS[name].files
    const verified = dirty.digest.sha256 === pinned.dirty.sha256 && clean.digest.sha256 === pinned.clean.sha256
    source = verified
      ? `${canonicalSource(name)} (sha256 verified, read from ${where})`
      : `local files in ${paths.dir} (sha256 differs from ${canonicalSource(name)})`
  }
  return {
    id: name,
    origin: 'raha',
    source,
    seed,
    dirty: { ...dirty, label: paths.dirty },
    clean: { ...clean, label: paths.clean },
  }
}

/** Loads `<dataDir>/<name>/{dirty,clean}.csv`, aligning columns by position and naming them from clean.csv. */
export async function loadRahaDataset(
  name: string,
  dataDir: string,
  seed: number,
): Promise<{ task: AgentTask; info: DatasetInfo }> {
  const { task, info } = buildPairTask(await readRahaPair(name, dataDir, seed))
  return { task, info }
}

/** What a report or listing says about a Raha-layout folder, with its differing cells, without building a task. */
export async function describeRahaDataset(
  name: string,
  dataDir: string,
): Promise<{ info: DatasetInfo; corrections: Correction[] }> {
  const { info, corrections } = analysePair(await readRahaPair(name, dataDir, 0))
  return { info, corrections }
}
