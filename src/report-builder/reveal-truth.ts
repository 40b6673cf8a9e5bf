import type { RepairScore } from '../core/repair-score.js'
import type { RunRecord } from '../core/run-record.js'
import { writeFileAtomic } from '../files/write-atomic.js'

/** Cells per list and trial written by `--reveal-truth`: enough to tune a prompt, not a copy of the table. */
const REVEALED_PER_LIST = 20

interface RevealedTrial {
  agent: string
  dataset: string
  trial: number
  seed: number
  wrongValue: Array<{ row: number; column: string; got?: string; want?: string }>
  missedRepair: Array<{ row: number; column: string; dirty?: string; want?: string }>
}

/** Collects `got → want` for the first few cells of each trial, kept apart from every report file. */
export class TruthReveal {
  private readonly trials: RevealedTrial[] = []

  add(record: RunRecord, score: RepairScore): void {
    const d = score.diagnostics
    this.trials.push({
      agent: record.agent,
      dataset: record.dataset,
      trial: record.trial,
      seed: record.seed,
      wrongValue: d.wrongValue
        .slice(0, REVEALED_PER_LIST)
        .map(({ row, column, got, want }) => ({ row, column, got, want })),
      missedRepair: d.missedRepair
        .slice(0, REVEALED_PER_LIST)
        .map(({ row, column, dirty, want }) => ({ row, column, dirty, want })),
    })
  }

  /** JSON lines, one per trial. The file holds clean values: keep it out of git (`.dataforge-truth/` is ignored). */
  async write(path: string): Promise<void> {
    await writeFileAtomic(path, this.trials.map((t) => JSON.stringify(t)).join('\n') + (this.trials.length ? '\n' : ''))
  }
}
