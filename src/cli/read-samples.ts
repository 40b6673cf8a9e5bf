import { readFile } from 'node:fs/promises'
import { extname } from 'node:path'
import { InputError } from '../core/errors.js'
import { checkJsonDepth } from '../core/json-depth.js'
import { parseCsvStrict } from '../datasets/csv.js'
import type { Sample } from '../grading/conformance/classify.js'

/** Generated samples from JSONL (one object a line) or CSV (a header line; every value a string). */
export async function readSamples(path: string, label: string): Promise<Sample[]> {
  const text = await readText(path, label)
  const ext = extname(path).toLowerCase()
  if (ext === '.csv') {
    const table = parseCsvStrict(text, label)
    return table.rows.map((row) => Object.fromEntries(table.columns.map((c, i) => [c, row[i] ?? ''])))
  }
  if (ext !== '.jsonl' && ext !== '.ndjson') throw new InputError(`${label}: expected a .jsonl or .csv file`)
  const samples: Sample[] = []
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') return
    let value: unknown
    checkJsonDepth(line, () => `${label} line ${i + 1}`)
    try {
      value = JSON.parse(line)
    } catch (error) {
      throw new InputError(`${label} line ${i + 1}: not valid JSON (${(error as Error).message})`)
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new InputError(`${label} line ${i + 1}: expected a JSON object`)
    samples.push(value as Sample)
  })
  return samples
}

export async function readJsonFile(path: string, label: string): Promise<unknown> {
  const text = await readText(path, label)
  checkJsonDepth(text, (line) => `${label} line ${line}`)
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new InputError(`${label}: not valid JSON (${(error as Error).message})`)
  }
}

async function readText(path: string, label: string): Promise<string> {
  try {
    return await readFile(path, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    throw new InputError(
      `${label}: ${code === 'ENOENT' ? 'no such file' : `cannot read (${code ?? (error as Error).message})`}`,
    )
  }
}
