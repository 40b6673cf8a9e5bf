import { readFileSync } from 'node:fs'
import { isAbsolute, join, relative, resolve } from 'node:path'
import { InputError } from '../../core/errors.js'
import type { Table } from '../../core/schemas.js'
import { seededSample } from '../questions/sample.js'
import { BUNDLED_DATA_DIR } from '../raha.js'
import { realPathInside } from '../../files/inside-folder.js'
import { parseWtqCsv, WtqCsvError } from './table-csv.js'
import { parseTsv, TsvError, tsvUnescape, tsvUnescapeList } from './tsv.js'

/** The bundled slice: the first 200 questions of the official test split and their 160 tables. */
export const BUNDLED_WTQ_DIR = join(BUNDLED_DATA_DIR, 'wtq')
const DEFAULT_WTQ_SPLIT = 'pristine-unseen-tables'

export interface WtqExample {
  id: string
  utterance: string
  /** The table's path relative to the release root, e.g. `csv/203-csv/733.csv`. */
  context: string
  table: Table
  /** Raw target strings (all required, any order). */
  targetValue: string[]
  /** Canonical targets from the tagged release, one per target value; absent without a tagged file. */
  targetCanon?: string[]
  /** `number`, `date`, `string`… from the tagged release; absent without it. */
  targetCanonType?: string
}

export interface WtqLoadOptions {
  /**
   * A full release (`data/<split>.tsv`, `csv/`, `tagged/data/<split>.tagged`). Default: the bundled slice.
   */
  dataDir?: string
  /** Which split of a full release; default `pristine-unseen-tables` (the official test set). */
  split?: string
  /** Keep a seeded sample of this many examples (in file order). */
  limit?: number
  seed?: number
}

interface Layout {
  tsv: string
  tagged: string | null
  root: string
}

function layoutOf(opts: WtqLoadOptions): Layout {
  if (!opts.dataDir) {
    const base = join(BUNDLED_WTQ_DIR, `${DEFAULT_WTQ_SPLIT}.head200`)
    return { tsv: `${base}.tsv`, tagged: `${base}.tagged`, root: BUNDLED_WTQ_DIR }
  }
  const root = resolve(opts.dataDir)
  const split = opts.split ?? DEFAULT_WTQ_SPLIT
  const tsv = join(root, 'data', `${split}.tsv`)
  if (!realPathInside(root, tsv)) {
    throw new InputError(
      `--data-dir ${opts.dataDir}: no data/${split}.tsv (expected the WikiTableQuestions release layout: data/*.tsv, csv/, tagged/data/)`,
    )
  }
  const tagged = join(root, 'tagged', 'data', `${split}.tagged`)
  return { tsv, tagged: realPathInside(root, tagged) ? tagged : null, root }
}

/** Loads WikiTableQuestions examples with their tables and, where the release has them, canonical targets. */
export async function loadWtq(opts: WtqLoadOptions = {}): Promise<WtqExample[]> {
  return loadWtqSync(opts)
}

/**
 * `loadWtq`, synchronously: what a test runner that collects its tests synchronously (Jest's `qaSuite`) needs.
 * The bundled slice is 200 questions over 160 small tables.
 */
export function loadWtqSync(opts: WtqLoadOptions = {}): WtqExample[] {
  if (opts.limit !== undefined && !(Number.isInteger(opts.limit) && opts.limit >= 1)) {
    throw new InputError(`--limit: expected a whole number ≥ 1, got ${opts.limit}`)
  }
  const layout = layoutOf(opts)
  const rows = tsvRows(readFileSync(layout.tsv, 'utf8'), layout.tsv, ['id', 'utterance', 'context', 'targetValue'])
  const canon = layout.tagged
    ? canonById(readFileSync(layout.tagged, 'utf8'), layout.tagged)
    : new Map<string, { canon: string[]; type: string }>()
  const chosen = opts.limit === undefined ? rows : seededSample(rows, opts.limit, opts.seed ?? 1)
  const tables = new Map<string, Table>()
  const readTable = (context: string, where: string) => {
    let table = tables.get(context)
    if (!table) {
      table = readWtqTable(layout.root, context, where)
      tables.set(context, table)
    }
    return table
  }
  return chosen.map(({ line, fields }) => {
    const where = `${layout.tsv}:${line}`
    const targetValue = tsvUnescapeList(fields.targetValue!)
    const tagged = canon.get(fields.id!)
    if (tagged && tagged.canon.length !== targetValue.length) {
      throw new InputError(
        `${layout.tagged}: example ${fields.id} has ${tagged.canon.length} canonical targets for ${targetValue.length} target values`,
      )
    }
    return {
      id: fields.id!,
      utterance: tsvUnescape(fields.utterance!),
      context: fields.context!,
      table: readTable(fields.context!, where),
      targetValue,
      ...(tagged ? { targetCanon: tagged.canon, targetCanonType: tagged.type } : {}),
    }
  })
}

/** The TSV's example lines: at least one, each id once (an error names the file and line). */
function tsvRows(text: string, file: string, required: string[]) {
  let rows: ReturnType<typeof parseTsv>
  try {
    rows = parseTsv(text, file, required)
  } catch (error) {
    if (error instanceof TsvError) throw new InputError(error.message)
    throw error
  }
  if (rows.length === 0) throw new InputError(`${file}:1: a header and no example lines: no questions to ask`)
  const firstLine = new Map<string, number>()
  for (const { line, fields } of rows) {
    const id = fields.id!
    if (id.trim() === '') throw new InputError(`${file}:${line}: empty id`)
    const seen = firstLine.get(id)
    if (seen !== undefined)
      throw new InputError(
        `${file}:${line}: id ${JSON.stringify(id)} repeats line ${seen}; question ids must be unique`,
      )
    firstLine.set(id, line)
  }
  return rows
}

function canonById(text: string, file: string): Map<string, { canon: string[]; type: string }> {
  const out = new Map<string, { canon: string[]; type: string }>()
  for (const { fields } of tsvRows(text, file, ['id', 'targetValue', 'targetCanon'])) {
    out.set(fields.id!, { canon: tsvUnescapeList(fields.targetCanon!), type: fields.targetCanonType ?? '' })
  }
  return out
}

function readWtqTable(root: string, context: string, where: string): Table {
  const path = resolve(root, context)
  const inside = relative(root, path)
  if (inside.startsWith('..') || isAbsolute(inside))
    throw new InputError(`${where}: context ${context} points outside the data folder`)
  let text: string
  try {
    text = readFileSync(realPathInside(root, path) ?? path, 'utf8')
  } catch (error) {
    if (error instanceof InputError) throw error
    throw new InputError(`${where}: table ${context} not found under ${root}`)
  }
  try {
    return parseWtqCsv(text, path)
  } catch (error) {
    if (error instanceof WtqCsvError) throw new InputError(error.message)
    throw error
  }
}
