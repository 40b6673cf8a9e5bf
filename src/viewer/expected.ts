import { groundTruthOf } from '../core/ground-truth.js'
import type { RunRecord } from '../core/run-record.js'
import { loadDataset } from '../datasets/load.js'
import { BUILT_IN_QA_SUITES, loadQaSuite, turnsOf } from '../datasets/questions/index.js'
import { expectedAnswerOf } from '../datasets/questions/expected.js'
import { cellKey } from './cells.js'

/**
 * Expected values for `view --show-expected`: the clean cells and the expected answers, read from the dataset
 * at hand on this machine, never from a report (reports never hold them). Only the served pages show them;
 * nothing here is ever written to a file. A dataset whose sha256 differs from the run's gives nothing.
 */
export type Expected =
  | { kind: 'cells'; clean: Map<string, string>; dirty: Map<string, string> }
  | { kind: 'answer'; answer: unknown }
  | { kind: 'none'; why: string }

export class ExpectedValues {
  private readonly cache = new Map<string, Promise<Expected>>()

  constructor(private readonly dataDir: string | undefined) {}

  of(record: RunRecord, kind: 'repair' | 'question' | 'conformance'): Promise<Expected> {
    const key = `${kind}\u0000${record.suite}\u0000${record.dataset}\u0000${record.caseId}\u0000${record.turn}\u0000${record.seed}`
    let found = this.cache.get(key)
    if (!found) {
      found = (
        kind === 'repair'
          ? this.cells(record)
          : kind === 'question'
            ? this.answer(record)
            : Promise.resolve(none('conformance runs have no expected values'))
      ).catch((error: unknown) =>
        none(`the dataset could not be loaded here (${(error as Error).message.split('\n')[0]})`),
      )
      this.cache.set(key, found)
    }
    return found
  }

  private async cells(record: RunRecord): Promise<Expected> {
    const { task, info } = await loadDataset({
      id: record.dataset,
      seed: record.seed,
      ...(this.dataDir ? { dataDir: this.dataDir } : {}),
    })
    const want = record.datasetSha256
    if (want && (want.dirty !== info.dirty.sha256 || want.clean !== info.clean.sha256)) {
      return none(`the dataset "${record.dataset}" at hand is not the one this run used (its sha256 differs)`)
    }
    const clean = new Map<string, string>()
    const dirty = new Map<string, string>()
    for (const c of groundTruthOf(task).corrections) clean.set(cellKey(c.row, c.column), c.clean)
    task.dirty.rows.forEach((row, r) => {
      row.forEach((value, i) => {
        dirty.set(cellKey(r, task.dirty.columns[i]!), value)
      })
    })
    return { kind: 'cells', clean, dirty }
  }

  private async answer(record: RunRecord): Promise<Expected> {
    if (!(BUILT_IN_QA_SUITES as readonly string[]).includes(record.suite))
      return none(`"${record.suite}" is not a built-in question suite`)
    const cases = await loadQaSuite(record.suite, {
      seed: record.seed,
      ...(this.dataDir ? { dataDir: this.dataDir } : {}),
    })
    const found = cases.find((c) => c.id === record.caseId)
    const turn = found ? turnsOf(found)[record.turn === null ? 0 : record.turn - 1] : undefined
    const answer = turn ? expectedAnswerOf(turn) : undefined
    return answer === undefined ? none(`case ${record.caseId} is not in the suite at hand`) : { kind: 'answer', answer }
  }
}

const none = (why: string): Expected => ({ kind: 'none', why })
