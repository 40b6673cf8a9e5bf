import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Random } from '../src/core/random.js'
import type { Fix } from '../src/core/schemas.js'
import { generateSynthetic, loadDataset, readCsvTable, toCsv } from '../src/datasets/index.js'
import { gradeRepair } from '../src/grading/index.js'
import { groundTruthOf } from '../src/core/ground-truth.js'

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000)

function ms(start: number): number {
  return performance.now() - start
}

/**
 * Grades a seeded 1,000,000-row pair: parse time (both CSVs) against grade time (fixes vs ground truth).
 * Goal: grading costs no more than parsing.
 */
export default async function run(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'dataforge-bench-'))
  try {
    const { dirty, clean } = generateSynthetic({ seed: 1, rows: ROWS, errorRate: 0.05 })
    const dirtyPath = join(dir, 'dirty.csv')
    const cleanPath = join(dir, 'clean.csv')
    await writeFile(dirtyPath, toCsv(dirty))
    await writeFile(cleanPath, toCsv(clean))

    let start = performance.now()
    await Promise.all([readCsvTable(dirtyPath), readCsvTable(cleanPath)])
    const parseMs = ms(start)

    const { task } = await loadDataset({ id: 'bench', seed: 1, dirtyCsv: dirtyPath, cleanCsv: cleanPath })
    const corrections = groundTruthOf(task).corrections
    const random = new Random(7)
    const fixes: Fix[] = []
    for (const c of corrections) {
      const roll = random.next()
      if (roll < 0.8) fixes.push({ row: c.row, column: c.column, newValue: c.clean })
      else if (roll < 0.9) fixes.push({ row: c.row, column: c.column, newValue: `${c.clean}?` })
    }
    for (let i = 0; i < corrections.length / 10; i++) {
      const row = random.int(0, ROWS - 1)
      fixes.push({ row, column: 'city', newValue: 'Springfield' })
    }
    start = performance.now()
    const score = gradeRepair(task, fixes)
    const gradeMs = ms(start)
    const peakMb = process.resourceUsage().maxRSS / 1024

    return [
      `### Grading vs parsing (${ROWS.toLocaleString('en-US')} rows × ${task.columns.length} columns: 10 data columns and an id)`,
      '',
      '| measure | value |',
      '| --- | --- |',
      `| parse both CSVs (csv-parse, literal strings) | ${(parseMs / 1000).toFixed(2)} s |`,
      `| grade ${fixes.length.toLocaleString('en-US')} fixes against ${corrections.length.toLocaleString('en-US')} corrections | ${(gradeMs / 1000).toFixed(2)} s |`,
      `| grade ÷ parse | ${(gradeMs / parseMs).toFixed(3)} (goal ≤ 1) |`,
      `| peak memory (max RSS of the process) | ${peakMb.toFixed(0)} MiB |`,
      `| score | F1 ${score.f1.toFixed(3)}, tp ${score.tp}, fp ${score.fp}, fn ${score.fn} |`,
      '',
    ].join('\n')
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  run().then((text) => process.stdout.write(`${text}\n`))
}
