import { readFileSync, statSync } from 'node:fs'
import { basename, join, resolve } from 'node:path'
import { InputError } from '../../core/errors.js'
import type { Table } from '../../core/schemas.js'
import { type DabenchLabel, distinctDabenchLabels } from '../../grading/answers/dabench.js'
import { seededSample } from '../questions/sample.js'
import { BUNDLED_DATA_DIR } from '../raha.js'
import { parseDabenchCsv } from './table-csv.js'
import { realPathInside } from '../../files/inside-folder.js'
import { checkJsonDepth } from '../../core/json-depth.js'

/** The bundled slice, in the official layout: the questions whose CSV file is at most 50,000 bytes. */
export const BUNDLED_DABENCH_DIR = join(BUNDLED_DATA_DIR, 'dabench')
const DABENCH_QUESTIONS_FILE = 'da-dev-questions.jsonl'
const DABENCH_LABELS_FILE = 'da-dev-labels.jsonl'
const DABENCH_TABLES_DIR = 'da-dev-tables'

export interface DabenchQuestion {
  /** The official question id (the case id is `dabench-<id>`). */
  id: number
  question: string
  concepts: string[]
  constraints: string
  format: string
  /** The CSV's name under `da-dev-tables/`. */
  fileName: string
  level: string
  table: Table
  /** The expected sub-answers, one per distinct name (a repeated name keeps its last value, as the evaluator's dict does). */
  labels: DabenchLabel[]
  /** Where the question was read, `file:line`, for messages. */
  source: string
}

export interface DabenchLoadOptions {
  /** A clone's `examples/DA-Agent/data` (the two JSONL files and `da-dev-tables/`). Default: the bundled slice. */
  dataDir?: string
  /** Keep a seeded sample of this many questions (in file order). */
  limit?: number
  seed?: number
}

interface Line {
  line: number
  value: Record<string, unknown>
}

/** Loads DABench questions with their labels and tables. */
export async function loadDabench(opts: DabenchLoadOptions = {}): Promise<DabenchQuestion[]> {
  return loadDabenchSync(opts)
}

/**
 * `loadDabench`, synchronously (Jest's `qaSuite` collects its tests synchronously). Each CSV is read once, for
 * the questions kept; `limit` samples the questions before any table is read.
 */
export function loadDabenchSync(opts: DabenchLoadOptions = {}): DabenchQuestion[] {
  if (opts.limit !== undefined && !(Number.isInteger(opts.limit) && opts.limit >= 1)) {
    throw new InputError(`--limit: expected a whole number ≥ 1, got ${opts.limit}`)
  }
  const root = opts.dataDir ? resolve(opts.dataDir) : BUNDLED_DABENCH_DIR
  const where = opts.dataDir ? `--data-dir ${opts.dataDir}` : BUNDLED_DABENCH_DIR
  for (const name of [DABENCH_QUESTIONS_FILE, DABENCH_LABELS_FILE]) {
    if (!realPathInside(root, join(root, name))) {
      throw new InputError(
        `${where}: no ${name} (expected DABench's layout, a clone's examples/DA-Agent/data: ${DABENCH_QUESTIONS_FILE}, ${DABENCH_LABELS_FILE}, ${DABENCH_TABLES_DIR}/)`,
      )
    }
  }
  const questionsFile = join(root, DABENCH_QUESTIONS_FILE)
  const labelsFile = join(root, DABENCH_LABELS_FILE)
  const labels = labelsById(readJsonl(labelsFile), labelsFile)
  const questions = readJsonl(questionsFile).map((l) => questionFields(l, questionsFile))
  const seen = new Map<number, number>()
  for (const q of questions) {
    const before = seen.get(q.id)
    if (before !== undefined)
      throw new InputError(`${questionsFile}:${q.line}: question id ${q.id} again (first on line ${before})`)
    seen.set(q.id, q.line)
    if (!labels.has(q.id))
      throw new InputError(`${questionsFile}:${q.line}: question ${q.id} has no labels in ${labelsFile}`)
  }
  for (const [id, l] of labels) {
    if (!seen.has(id))
      throw new InputError(`${labelsFile}:${l.line}: labels for question ${id}, which ${questionsFile} does not have`)
  }
  if (questions.length === 0) throw new InputError(`${questionsFile}: no questions`)
  const chosen = opts.limit === undefined ? questions : seededSample(questions, opts.limit, opts.seed ?? 1)
  const tables = new Map<string, Table>()
  return chosen.map((q) => {
    let table = tables.get(q.fileName)
    if (!table) {
      table = readTable(root, q.fileName, `${questionsFile}:${q.line}`)
      tables.set(q.fileName, table)
    }
    const { line, ...fields } = q
    return { ...fields, table, labels: labels.get(q.id)!.labels, source: `${questionsFile}:${line}` }
  })
}

function readJsonl(file: string): Line[] {
  const text = readFileSync(file, 'utf8')
  const out: Line[] = []
  text.split('\n').forEach((raw, i) => {
    if (raw.trim() === '') return
    let value: unknown
    checkJsonDepth(raw, () => `${file}:${i + 1}`)
    try {
      value = JSON.parse(raw)
    } catch (error) {
      throw new InputError(`${file}:${i + 1}: not a JSON object: ${(error as Error).message}`)
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new InputError(
        `${file}:${i + 1}: expected a JSON object, got ${Array.isArray(value) ? 'an array' : JSON.stringify(value)}`,
      )
    out.push({ line: i + 1, value: value as Record<string, unknown> })
  })
  return out
}

function idOf(l: Line, file: string): number {
  const id = l.value.id
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0)
    throw new InputError(`${file}:${l.line}: field "id" must be a whole number ≥ 0, got ${JSON.stringify(id)}`)
  return id
}

function text(l: Line, file: string, field: string, { nonEmpty }: { nonEmpty: boolean }): string {
  const v = l.value[field]
  if (typeof v !== 'string')
    throw new InputError(
      `${file}:${l.line}: field "${field}" must be a string, got ${v === undefined ? 'nothing' : JSON.stringify(v)}`,
    )
  if (nonEmpty && v.trim() === '') throw new InputError(`${file}:${l.line}: field "${field}" is empty`)
  return v
}

function questionFields(l: Line, file: string) {
  const id = idOf(l, file)
  const concepts = l.value.concepts
  if (
    !Array.isArray(concepts) ||
    concepts.length === 0 ||
    !concepts.every((c) => typeof c === 'string' && c.trim() !== '')
  ) {
    throw new InputError(
      `${file}:${l.line}: field "concepts" must be a non-empty list of names, got ${JSON.stringify(concepts)}`,
    )
  }
  const fileName = text(l, file, 'file_name', { nonEmpty: true })
  if (basename(fileName) !== fileName || fileName === '.' || fileName === '..') {
    throw new InputError(
      `${file}:${l.line}: field "file_name" must name a file in ${DABENCH_TABLES_DIR}/, got ${JSON.stringify(fileName)}`,
    )
  }
  return {
    line: l.line,
    id,
    question: text(l, file, 'question', { nonEmpty: true }),
    concepts: [...new Set(concepts as string[])],
    constraints: text(l, file, 'constraints', { nonEmpty: false }),
    format: text(l, file, 'format', { nonEmpty: true }),
    fileName,
    level: text(l, file, 'level', { nonEmpty: true }),
  }
}

const NAME = /^[\p{L}\p{N}_]+$/u

function labelsById(lines: Line[], file: string): Map<number, { line: number; labels: DabenchLabel[] }> {
  const out = new Map<number, { line: number; labels: DabenchLabel[] }>()
  for (const l of lines) {
    const id = idOf(l, file)
    const before = out.get(id)
    if (before)
      throw new InputError(`${file}:${l.line}: labels for question ${id} again (first on line ${before.line})`)
    const answers = l.value.common_answers
    if (!Array.isArray(answers) || answers.length === 0) {
      throw new InputError(
        `${file}:${l.line}: field "common_answers" must be a non-empty list of [name, value] pairs, got ${JSON.stringify(answers)}`,
      )
    }
    const labels = answers.map((pair, k) => {
      if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'string' || typeof pair[1] !== 'string') {
        throw new InputError(
          `${file}:${l.line}: common_answers[${k}] must be a [name, value] pair of strings, got ${JSON.stringify(pair)}`,
        )
      }
      if (!NAME.test(pair[0]))
        throw new InputError(
          `${file}:${l.line}: common_answers[${k}]: answer name ${JSON.stringify(pair[0])} is not a word, so @name[…] could never match it`,
        )
      return { name: pair[0], value: pair[1] }
    })
    out.set(id, { line: l.line, labels: distinctDabenchLabels(labels) })
  }
  return out
}

function readTable(root: string, fileName: string, where: string): Table {
  const path = join(root, DABENCH_TABLES_DIR, fileName)
  let bytes: Buffer
  try {
    const real = realPathInside(root, path)
    if (!real || !statSync(real).isFile()) throw new Error('not a file')
    bytes = readFileSync(real)
  } catch (error) {
    if (error instanceof InputError) throw error
    throw new InputError(`${where}: table ${fileName} not found in ${join(root, DABENCH_TABLES_DIR)}`)
  }
  let csv: string
  try {
    csv = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw new InputError(`${path} is not valid UTF-8 text`)
  }
  return parseDabenchCsv(csv, path)
}
